"""The HTTP embedding models' shared part (:class:`HTTPEmbeddingModel`): a
:class:`~deepeval.models.http.json_client.JSONEndpoint` (retries, limiter, error kinds, redaction), usage recorded
as input tokens, and the sync forms run on a private client. Subclasses say where the request goes and read the
vectors out of the reply."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from deepeval._concurrency import run_sync
from deepeval.errors import ErrorKind, JudgeError
from deepeval.models.base_model import DeepEvalBaseEmbeddingModel
from deepeval.models.http.errors import int_or_none
from deepeval.models.http.json_client import JSONEndpoint
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY, AdaptiveLimiter
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.usage import record_usage


class HTTPEmbeddingModel(DeepEvalBaseEmbeddingModel):
    """Base of the embedding models served over HTTP (use a subclass).

    ``embed_text(text)`` / ``embed_texts(texts)`` (and their ``a_`` forms) return plain float lists, one per text
    in order. Raises :class:`~deepeval.errors.JudgeError` (kinds as the LLM judges') for a failed call, and
    ``invalid_output`` for a reply with the wrong number of vectors.
    """

    provider: ClassVar[str] = "HTTP"
    key_setting: ClassVar[str] = "an API key"
    requires_api_key: ClassVar[bool] = False
    path: ClassVar[str] = "/embeddings"

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None,
        base_url: str,
        base_url_setting: str,
        generation_kwargs: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        client_kwargs: Mapping[str, Any] | None = None,
    ) -> None:
        self.generation_kwargs = dict(generation_kwargs or {})
        self.retry_policy = retry_policy or RetryPolicy.from_settings(
            timeout=timeout, max_retries=max_retries
        )
        self.name = model
        self.endpoint = JSONEndpoint(
            base_url=base_url,
            base_url_setting=base_url_setting,
            api_key=api_key,
            auth_headers=self._auth_headers,
            name=self.get_model_name,
            provider=self.provider,
            key_setting=self.key_setting,
            requires_key=self.requires_api_key,
            retry_policy=self.retry_policy,
            limiter=AdaptiveLimiter(max_concurrency),
            client_kwargs=client_kwargs,
            owner=type(self).__qualname__,
        )
        super().__init__(model)

    # -- wire format (subclasses) ------------------------------------------------------------------------------
    def _auth_headers(self, key: str | None) -> dict[str, str]:
        return {} if key is None else {"Authorization": f"Bearer {key}"}

    def _body(self, texts: list[str]) -> dict[str, Any]:
        """OpenAI's ``/embeddings`` body."""
        return {"model": self.name, "input": texts, **self.generation_kwargs}

    def _params(self) -> dict[str, str]:
        return {}

    def _vectors(self, data: Any) -> tuple[list[list[float]], int | None]:
        """OpenAI's reply: ``data[i].embedding`` in ``index`` order, ``usage.prompt_tokens``."""
        items = data.get("data") if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise self.endpoint.bad_reply("data", data)
        ordered = sorted(items, key=lambda d: int(d.get("index", 0)) if isinstance(d, dict) else 0)
        try:
            vectors = [[float(x) for x in d["embedding"]] for d in ordered]
        except (TypeError, KeyError, ValueError):
            raise self.endpoint.bad_reply("data[].embedding", data) from None
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        return vectors, int_or_none(usage.get("prompt_tokens"))

    # -- DeepEvalBaseEmbeddingModel ----------------------------------------------------------------------------
    def load_model(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to load: HTTP clients are opened per event loop on first use."""
        return None

    def get_model_name(self) -> str:
        return f"{self.name} ({self.provider})"

    def embed_text(self, text: str) -> list[float]:
        return self.embed_texts([text])[0]

    def embed_texts(self, texts: list[str]) -> list[list[float]]:
        return run_sync(self.endpoint.run_private(self.a_embed_texts(texts)))

    async def a_embed_text(self, text: str) -> list[float]:
        return (await self.a_embed_texts([text]))[0]

    async def a_embed_texts(self, texts: list[str]) -> list[list[float]]:
        texts = [str(t) for t in texts]
        if not texts:
            return []

        def read(data: Any) -> tuple[list[list[float]], int | None]:
            return self._vectors(data)

        vectors, tokens = await self.endpoint.call(self.path, self._body(texts), read, params=self._params())
        if len(vectors) != len(texts):
            name = self.get_model_name()
            raise JudgeError(
                f"judge {name}: {len(vectors)} embeddings came back for {len(texts)} texts",
                model=name,
                kind=ErrorKind.invalid_output,
            )
        record_usage(input_tokens=tokens)
        return vectors

    async def aclose(self) -> None:
        await self.endpoint.aclose()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.name!r}, base_url={self.endpoint.shown_url!r})"
