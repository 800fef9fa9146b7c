"""The judge plan: which judges a metric (or the memory evaluation) will use, decided once, as a value.

:func:`plan_judges` is the one place that reads the selection tree "an argument object > an argument name >
settings (local server, GGUF file, OpenAI key) > none" for the LLM judge and "an argument object > an argument name
(the embedded names select the embedded judge) > TypeSafe key > the embedded judge" for System One. It is pure: it
reads only its arguments (the settings are passed in), builds no client, loads no model and contacts nothing.

Everything else derives from the plan: :meth:`JudgePlan.key_names` (the cache key's judge names),
:meth:`JudgePlan.display_names` and :meth:`JudgePlan.evaluation_model` (the names a metric shows before it
measures), and the clients, built from a :class:`JudgeChoice` by :func:`deepeval.models.resolve.build_llm` /
:func:`~deepeval.models.resolve.build_system_one` (the only steps that construct judges) and by
``metrics/_engine/judges.resolve_judges`` and ``memory/judges.resolve_memory_judge``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from deepeval.config.eval_mode import EvalMode, configured_llm, resolve_eval_mode
from deepeval.config.settings import Settings
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel, judge_endpoint, judge_name
from deepeval.models.extraction import Extractor

#: ``system_one_model`` strings that select the embedded judge
EMBEDDED_NAMES = frozenset({"embedded", "local", "deepeval-local", "deepeval-local-1"})

Source = Literal[
    "object",  # the user's client, used as given
    "openai_name",  # model="gpt-...": an OpenAI model by name
    "settings_local",  # USE_LOCAL_MODEL + LOCAL_MODEL_BASE_URL
    "settings_gguf",  # GGUF_MODEL_PATH
    "settings_openai",  # OPENAI_API_KEY
    "typesafe_name",  # system_one_model="jev-...": a TypeSafe model by name
    "settings_typesafe",  # TYPESAFE_API_KEY
    "embedded",  # the embedded offline System One judge
    "deterministic",  # the embedded judge's deterministic extractor (hybrid mode without an LLM)
    "invalid",  # an argument of the wrong type: building it raises TypeError
]

_TIMEOUTS = ("DEEPEVAL_JUDGE_TIMEOUT", "DEEPEVAL_JUDGE_MAX_RETRIES")
#: the settings a shared client is keyed on (a changed value builds a new client), per kind of client
CLIENT_SETTINGS: dict[str, tuple[str, ...]] = {
    "openai": (
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "OPENAI_MODEL_NAME",
        "OPENAI_COST_PER_INPUT_TOKEN",
        "OPENAI_COST_PER_OUTPUT_TOKEN",
        *_TIMEOUTS,
    ),
    "local": (
        "LOCAL_MODEL_NAME",
        "LOCAL_MODEL_BASE_URL",
        "LOCAL_MODEL_API_KEY",
        "LOCAL_MODEL_FORMAT",
        *_TIMEOUTS,
    ),
    "gguf": (
        "GGUF_MODEL_PATH",
        "GGUF_MODEL_N_CTX",
        "GGUF_MODEL_MAX_TOKENS",
        "GGUF_MODEL_N_THREADS",
        "GGUF_MODEL_VERBOSE",
        *_TIMEOUTS,
    ),
    "typesafe": (
        "TYPESAFE_API_KEY",
        "TYPESAFE_BASE_URL",
        "TYPESAFE_MODEL_NAME",
        "TYPESAFE_COST_PER_INPUT_TOKEN",
        *_TIMEOUTS,
    ),
}
_CLIENT_OF: dict[str, str] = {
    "openai_name": "openai",
    "settings_openai": "openai",
    "settings_local": "local",
    "settings_gguf": "gguf",
    "typesafe_name": "typesafe",
    "settings_typesafe": "typesafe",
}


@dataclass(frozen=True)
class JudgeChoice:
    """One judge of a plan, named without building it.

    Attributes:
        source: where the choice came from (:data:`Source`).
        name: the judge's ``get_model_name()`` as it will report it (before a TypeSafe judge's first reply); None
            for a local model with no name (building it raises ``ConfigurationError``) and an invalid argument.
        key: the judge's name in the cache key (``openai:<name>``, ``local:<name>``, ``typesafe:<name>``,
            ``embedded``, ``deterministic``; ``default`` where no name is set).
        argument: the model name the user passed (``openai_name``, ``typesafe_name``), else None.
        given: the user's object (``object``), else None.
        problem: why building fails (``invalid``), else None.
    """

    source: Source
    name: str | None
    key: str
    argument: str | None = None
    given: Any = None
    problem: str | None = None

    @property
    def client(self) -> str | None:
        """The kind of shared client this choice builds (``openai``, ``local``, ``gguf``, ``typesafe``), else None."""
        return _CLIENT_OF.get(self.source)

    @property
    def settings_keys(self) -> tuple[str, ...]:
        """The settings the shared client of this choice is keyed on (empty for an object or the embedded judge)."""
        client = self.client
        return CLIENT_SETTINGS[client] if client is not None else ()


@dataclass(frozen=True)
class JudgePlan:
    """The judges of one metric in its resolved eval mode: ``llm`` is None in ``system_one`` mode and when no LLM
    is available, ``system_one`` None in ``llm`` mode; ``extractor`` is the user's ``extractor=`` (outside
    ``system_one`` mode) or, in ``hybrid`` mode without an LLM or extractor, the deterministic one; None means
    "the LLM extracts". ``problem`` is set when the mode cannot run (``llm`` mode without an LLM)."""

    mode: EvalMode
    llm: JudgeChoice | None
    system_one: JudgeChoice | None
    extractor: JudgeChoice | None
    problem: str | None = None

    def key_names(self) -> dict[str, str | None] | None:
        """Judge names for the cache key (keys as ``Judges.names()``), None when the mode cannot run."""
        if self.problem is not None:
            return None
        return {
            "llm": None if self.llm is None else self.llm.key,
            "system_one": None if self.system_one is None else self.system_one.key,
            "extractor": None if self.extractor is None else self.extractor.key,
        }

    def display_names(self) -> dict[str, str | None]:
        """The ``get_model_name()`` of each judge the mode uses (None for one it does not use or cannot have)."""
        return {
            "llm": None if self.llm is None else self.llm.name,
            "system_one": None if self.system_one is None else self.system_one.name,
            "extractor": None if self.extractor is None else self.extractor.name,
        }

    def evaluation_model(self) -> str | None:
        """``evaluation_model`` before any measure (deepeval sets it at construction), by the rule a measure uses."""
        names = self.display_names()
        return evaluation_model_name(
            self.mode, llm=names["llm"], extractor=names["extractor"], system_one=names["system_one"]
        )


NO_LLM = "no LLM judge is available"


def plan_judges(
    *,
    eval_mode: str | EvalMode | None,
    model: Any,
    system_one_model: Any,
    extractor: Extractor | None,
    settings: Settings,
) -> JudgePlan:
    """The plan of one metric: its eval mode (the argument, else ``DEEPEVAL_EVAL_MODE``, else ``llm`` when an LLM
    is available, an explicit ``model=`` included, else ``hybrid``) and the judges that mode uses.

    Raises:
        InvalidEvalModeError: an invalid ``eval_mode`` or ``DEEPEVAL_EVAL_MODE``.
    """
    mode = resolve_eval_mode(eval_mode, settings, has_llm=True if model is not None else None)
    if mode is EvalMode.SYSTEM_ONE:
        return JudgePlan(mode, None, plan_system_one(system_one_model, settings), None)
    llm = plan_llm(model, settings)
    given = _extractor_choice(extractor)
    if mode is EvalMode.LLM:
        return JudgePlan(mode, llm, None, given, problem=NO_LLM if llm is None else None)
    if given is None and llm is None:
        from deepeval.models.embedded.names import EXTRACTOR_NAME

        given = JudgeChoice("deterministic", EXTRACTOR_NAME, "deterministic")
    return JudgePlan(mode, llm, plan_system_one(system_one_model, settings), given)


def _at(key: str, base_url: str | None) -> str:
    """A settings judge's cache-key name with the server it talks to (credentials left out), when one is set."""
    if not base_url:
        return key
    from deepeval.config.redaction import display_url

    return f"{key}@{display_url(base_url)}"


def _object_or_invalid(model: Any, base: type, argument: str) -> JudgeChoice | None:
    """The choice for a judge object of ``base`` as given, or an invalid choice for anything else that is not a
    name; None for a name or None (the caller's rules decide those)."""
    if isinstance(model, base):
        name = judge_name(model)
        return JudgeChoice("object", name, name + judge_endpoint(model), given=model)
    if model is not None and not isinstance(model, str):
        kind = type(model).__name__
        problem = f"{argument} must be a model name or a {base.__name__}, not {kind}"
        return JudgeChoice("invalid", None, f"invalid:{kind}", problem=problem)
    return None


def plan_llm(model: Any, settings: Settings) -> JudgeChoice | None:
    """The LLM judge: a client as given; a string is an OpenAI model name; None picks what the settings configure
    (:func:`~deepeval.config.eval_mode.configured_llm`: local server, GGUF file, OpenAI key), else no LLM (None)."""
    s = settings
    given = _object_or_invalid(model, DeepEvalBaseLLM, "model")
    if given is not None:
        return given
    if isinstance(model, str):
        from deepeval.models.llms.openai_model import openai_model_name

        key = _at(f"openai:{model}", s.get("OPENAI_BASE_URL"))
        return JudgeChoice("openai_name", openai_model_name(model, s), key, argument=model)
    kind = configured_llm(s)
    if kind == "local":
        from deepeval.models.llms.local_model import local_model_name

        key = _at(f"local:{s.get('LOCAL_MODEL_NAME') or 'default'}", s.get("LOCAL_MODEL_BASE_URL"))
        return JudgeChoice("settings_local", local_model_name(None, s), key)
    if kind == "gguf":
        from deepeval.models.llms.gguf_model import gguf_model_name

        path = str(s.get("GGUF_MODEL_PATH"))
        key = f"gguf:{path}|max_tokens={s.get('GGUF_MODEL_MAX_TOKENS') or 'default'}"
        return JudgeChoice("settings_gguf", gguf_model_name(path), key)
    if kind == "openai":
        from deepeval.models.llms.openai_model import openai_model_name

        key = _at(f"openai:{s.get('OPENAI_MODEL_NAME') or 'default'}", s.get("OPENAI_BASE_URL"))
        return JudgeChoice("settings_openai", openai_model_name(None, s), key)
    return None


def plan_system_one(model: Any, settings: Settings) -> JudgeChoice:
    """The System One judge: a client as given; a string is a TypeSafe model name (one of :data:`EMBEDDED_NAMES`
    selects the embedded judge); None picks TypeSafe when ``TYPESAFE_API_KEY`` is set (and not
    ``DEEPEVAL_OFFLINE``), else the embedded judge."""
    from deepeval.models.embedded.names import MODEL_NAME
    from deepeval.models.system_one.names import typesafe_model_name

    given = _object_or_invalid(model, DeepEvalBaseSystemOneModel, "system_one_model")
    if given is not None:
        return given
    if isinstance(model, str) and model.lower() in EMBEDDED_NAMES:
        return JudgeChoice("embedded", MODEL_NAME, "embedded")
    if isinstance(model, str):
        key = _at(f"typesafe:{model}", settings.get("TYPESAFE_BASE_URL"))
        return JudgeChoice("typesafe_name", typesafe_model_name(model, settings), key, argument=model)
    if settings.get("TYPESAFE_API_KEY") and not settings.get_bool("DEEPEVAL_OFFLINE"):
        key = _at(
            f"typesafe:{settings.get('TYPESAFE_MODEL_NAME') or 'default'}", settings.get("TYPESAFE_BASE_URL")
        )
        return JudgeChoice("settings_typesafe", typesafe_model_name(None, settings), key)
    return JudgeChoice("embedded", MODEL_NAME, "embedded")


def _extractor_choice(extractor: Extractor | None) -> JudgeChoice | None:
    if extractor is None:
        return None
    name = judge_name(extractor)
    return JudgeChoice("object", name, name, given=extractor)


def evaluation_model_name(
    mode: EvalMode, *, llm: str | None, extractor: str | None, system_one: str | None
) -> str | None:
    """The ``evaluation_model`` string of a metric, from its judges' names (``get_model_name()``): the LLM (else,
    outside ``system_one`` mode, the extractor that stood in for it), then the System One model outside ``llm``
    mode, joined by ``" + "``; None when no judge is named. The one rule for the name a metric shows at
    construction (:meth:`JudgePlan.evaluation_model`) and the one a measure sets (the judges that took part)."""
    parts: list[str] = []
    if mode is not EvalMode.SYSTEM_ONE and (llm or extractor):
        parts.append(str(llm or extractor))
    if mode is not EvalMode.LLM and system_one:
        parts.append(system_one)
    return " + ".join(parts) or None
