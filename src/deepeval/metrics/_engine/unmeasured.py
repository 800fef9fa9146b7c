"""Refusing the embedded offline judge for an :class:`~deepeval.metrics._engine.metric.EngineMetric` whose own
question kinds have no measured offline tier (REFERENCE §10, offline rule): the metric says what to configure
instead of returning an unmeasured number. (A pipeline metric gets the same refusal from its declaration:
:meth:`deepeval.metrics._engine.pipeline.PipelineMetric.judges`.)"""

from __future__ import annotations

from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.errors import ConfigurationError
from deepeval.metrics._engine.judges import Judges
from deepeval.models.resolve import is_embedded


def offline_refusal(name: str, what: str, mode: EvalMode, hint: str = "") -> ConfigurationError:
    """The one error every metric raises when the embedded offline judge would have to decide ``what`` (its
    questions, or named question kinds) with no measured answer: ``hint`` says why, and the message says what to
    configure instead."""
    return ConfigurationError(
        f"{name}: the embedded offline judge has no measured answer for {what} (eval mode '{mode.value}'){hint}; "
        "configure an LLM judge (OPENAI_API_KEY, USE_LOCAL_MODEL=YES with LOCAL_MODEL_BASE_URL, or model=) and run "
        "it with eval_mode='llm' or 'hybrid', or a System One model (TYPESAFE_API_KEY or system_one_model=)"
    )


class NoOfflineTier:
    """Mixin before :class:`EngineMetric`: :meth:`judges` raises when the embedded judge would have to decide one of
    the metric's kinds: in ``system_one`` mode, or in ``hybrid`` with no LLM to fall back to."""

    _judges: Judges | None

    def judges(self) -> Judges:
        """The resolved judges (:meth:`EngineMetric.judges`), refused as the module docstring says.

        Raises:
            ConfigurationError: the embedded judge would decide; the message says what to configure.
        """
        judges: Judges = super().judges()  # type: ignore[misc]
        if is_embedded(judges.system_one) and (judges.mode is EvalMode.SYSTEM_ONE or judges.llm is None):
            self._judges = None  # resolved again (and refused again) on the next measure
            name: Any = getattr(self, "__name__", type(self).__name__)
            raise offline_refusal(str(name), "this metric's questions", judges.mode)
        return judges
