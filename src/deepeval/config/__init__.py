"""Settings (process env > ``.env.local`` > ``.env``) and eval-mode resolution."""

from deepeval.config.eval_mode import EVAL_MODES, EvalMode, resolve_eval_mode
from deepeval.config.settings import Settings, get_settings, redact, reset_settings_cache

__all__ = [
    "EVAL_MODES",
    "EvalMode",
    "Settings",
    "get_settings",
    "redact",
    "reset_settings_cache",
    "resolve_eval_mode",
]
