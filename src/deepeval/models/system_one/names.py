"""TypeSafe judge names, importable without the HTTP stack: a metric names its judge at construction from the
settings alone, and on the embedded path nothing else of :mod:`deepeval.models.system_one.typesafe` (httpx, the
openai SDK's transport and error classes, aiohttp) is needed, so none of it is imported."""

from __future__ import annotations

from deepeval.config.settings import Settings

DEFAULT_MODEL = "jev-latest"


def typesafe_model_name(model: str | None, settings: Settings) -> str:
    """The name a :class:`~deepeval.models.system_one.typesafe.TypeSafeModel` built with ``model`` reports before its
    first reply: ``model``, else ``TYPESAFE_MODEL_NAME``, else :data:`DEFAULT_MODEL` (metrics name the judge from
    settings with it)."""
    return model or settings.get("TYPESAFE_MODEL_NAME") or DEFAULT_MODEL
