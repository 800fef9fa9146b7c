"""Eval-mode resolution: the ``eval_mode=`` argument, else ``DEEPEVAL_EVAL_MODE``, else the default.

The default is ``llm`` when an LLM judge is configured (``OPENAI_API_KEY``, a local model, or an explicit
``model=``), and ``hybrid`` on the embedded offline judge otherwise: deterministic extraction stands in for the LLM and
the embedded System One model decides (ours: deepeval always defaults to ``llm`` and then needs a network judge).
"""

from __future__ import annotations

from enum import Enum

from deepeval.base_errors import InvalidEvalModeError
from deepeval.config.settings import Settings, get_settings


class EvalMode(str, Enum):
    LLM = "llm"
    HYBRID = "hybrid"
    SYSTEM_ONE = "system_one"


EVAL_MODES: tuple[str, ...] = tuple(m.value for m in EvalMode)


def parse_eval_mode(value: str | EvalMode, source: str) -> EvalMode:
    """Parse ``value`` case-insensitively (``system-one`` is accepted for ``system_one``).

    Raises:
        InvalidEvalModeError: ``value`` is not a known mode; the message names ``source`` and lists valid modes.
    """
    if isinstance(value, EvalMode):
        return value
    if not isinstance(value, str):
        raise InvalidEvalModeError(
            f"{source} must be a string, one of {', '.join(EVAL_MODES)}; got {value!r}"
        )
    norm = value.strip().lower().replace("-", "_")
    try:
        return EvalMode(norm)
    except ValueError:
        raise InvalidEvalModeError(
            f"invalid eval mode {value!r} from {source}; valid modes are: {', '.join(EVAL_MODES)}"
            + _fix_hint(source)
        ) from None


def _fix_hint(source: str) -> str:
    if not source.startswith("DEEPEVAL_EVAL_MODE"):
        return ""
    if source.endswith("(set in environment)"):
        return " (fix or unset the environment variable)"
    return " (fix the file, or remove the key with `deepeval unset-eval-mode --save dotenv:FILE`)"


def env_source(settings: Settings) -> str:
    """Where ``DEEPEVAL_EVAL_MODE`` came from, for messages: ``DEEPEVAL_EVAL_MODE (set in <file|environment>)``."""
    return f"DEEPEVAL_EVAL_MODE (set in {settings.sources.get('DEEPEVAL_EVAL_MODE', '?')})"


#: The provider switches of deepeval 4.3.1, in the order its judge selection tests them (``initialize_model``):
#: setting -> the kind of LLM judge it selects. ``set-<provider>`` writes the switch as ``1``, as 4.3.1 does.
PROVIDER_SWITCHES: tuple[tuple[str, str], ...] = (
    ("USE_OPENAI_MODEL", "openai"),
    ("USE_GEMINI_MODEL", "gemini"),
    ("USE_LITELLM", "litellm"),
    ("USE_PORTKEY_MODEL", "portkey"),
    ("LOCAL_MODEL_API_KEY=ollama", "ollama"),
    ("USE_LOCAL_MODEL", "local"),
    ("USE_AZURE_OPENAI", "azure"),
    ("USE_MOONSHOT_MODEL", "kimi"),
    ("USE_GROK_MODEL", "grok"),
    ("USE_DEEPSEEK_MODEL", "deepseek"),
    ("USE_OPENROUTER_MODEL", "openrouter"),
    ("USE_ANTHROPIC_MODEL", "anthropic"),
    ("USE_AWS_BEDROCK_MODEL", "bedrock"),
)


def _switched_on(s: Settings, switch: str) -> bool:
    if switch == "LOCAL_MODEL_API_KEY=ollama":  # 4.3.1's Ollama marker: set-ollama stores this sentinel "key"
        return (s.get("LOCAL_MODEL_API_KEY") or "").strip() == "ollama"
    if switch == "USE_LOCAL_MODEL":  # ours: a local model needs its server's URL too
        return s.get_bool("USE_LOCAL_MODEL") and bool(s.get("LOCAL_MODEL_BASE_URL"))
    return s.get_bool(switch)


def configured_llm(settings: Settings | None = None) -> str | None:
    """Which LLM judge the settings configure: the first provider switch that is on, in 4.3.1's order
    (:data:`PROVIDER_SWITCHES`: ``"openai"``, ``"gemini"``, ``"litellm"``, ``"portkey"``, ``"ollama"``,
    ``"local"``, ``"azure"``, ``"kimi"``, ``"grok"``, ``"deepseek"``, ``"openrouter"``, ``"anthropic"``,
    ``"bedrock"``), else ``"gguf"`` (``GGUF_MODEL_PATH``), else ``"openai"`` (``OPENAI_API_KEY``), else None.
    The one rule behind :func:`llm_configured`, the judge resolution and the cache key's judge names."""
    s = settings or get_settings()
    if s.get_bool("DEEPEVAL_OFFLINE"):
        return None  # offline: no judge from the settings reaches the network
    for switch, kind in PROVIDER_SWITCHES:
        if _switched_on(s, switch):
            return kind
    if s.get("GGUF_MODEL_PATH"):
        return "gguf"
    if s.get("OPENAI_API_KEY"):
        return "openai"
    return None


def llm_configured(settings: Settings | None = None) -> bool:
    """True when an LLM judge is configured in settings (OpenAI key, a local model or a GGUF file)."""
    return configured_llm(settings) is not None


def resolve_eval_mode(
    argument: str | EvalMode | None = None, settings: Settings | None = None, *, has_llm: bool | None = None
) -> EvalMode:
    """Resolve the eval mode for one metric.

    Args:
        argument: the metric's ``eval_mode=`` value; wins when given.
        settings: resolved settings (defaults to :func:`get_settings`).
        has_llm: whether an LLM judge is available (an explicit ``model=`` counts); defaults to whether settings
            configure one. Only used for the default.

    Raises:
        InvalidEvalModeError: an invalid argument or ``DEEPEVAL_EVAL_MODE`` value.
    """
    if argument is not None:
        return parse_eval_mode(argument, "the eval_mode argument")
    s = settings or get_settings()
    env = s.get("DEEPEVAL_EVAL_MODE")
    if env is not None:
        return parse_eval_mode(env, env_source(s))
    available = llm_configured(s) if has_llm is None else has_llm
    return EvalMode.LLM if available else EvalMode.HYBRID
