"""Settings (process env > ``.env.local`` > ``.env``), eval-mode resolution and dotenv writing."""

from deepeval.config.dotenv_file import parse_save_target, set_keys, unset_keys
from deepeval.config.eval_mode import EVAL_MODES, EvalMode, parse_eval_mode, resolve_eval_mode
from deepeval.config.settings import (
    Settings,
    get_settings,
    is_secret_key,
    mask,
    redact,
    reset_settings_cache,
)

__all__ = [
    "EVAL_MODES",
    "EvalMode",
    "Settings",
    "get_settings",
    "is_secret_key",
    "mask",
    "parse_eval_mode",
    "parse_save_target",
    "redact",
    "reset_settings_cache",
    "resolve_eval_mode",
    "set_keys",
    "unset_keys",
]
