"""``MLLMImage`` (``from deepeval.test_case import MLLMImage``): images in test-case text, as deepeval 4.3.1 places
them. Expected values: what deepeval 4.3.1 gave for the same calls."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deepeval.test_case import LLMTestCase, MLLMImage


def _ids(text: str) -> str:
    return re.sub(r"[0-9a-f]{32}", "ID", text)


def test_a_remote_image_is_a_placeholder_in_text_and_marks_the_test_case_multimodal() -> None:
    remote = MLLMImage(url="https://example.com/a/cat.png")
    assert _ids(repr(remote)) == _ids(str(remote)) == _ids(f"{remote}") == "[DEEPEVAL:IMAGE:ID]"
    assert (remote.mimeType, remote.filename, remote.local, remote.dataBase64) == (
        "image/png",
        "cat.png",
        False,
        None,
    )
    assert remote.as_data_uri() is None
    tc = LLMTestCase(input=f"Describe {remote}", actual_output="a cat")
    assert tc.multimodal is True and tc._get_images_mapping() == {remote._id: remote}
    assert LLMTestCase(input="x", actual_output="y").multimodal is False
    assert MLLMImage.parse_multimodal_string(tc.input) == ["Describe ", remote]


def test_a_local_image_is_read_and_a_pdf_has_its_own_placeholder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dot.png").write_bytes(b"\x89PNG\r\n\x1a\nfake")
    local = MLLMImage(url="dot.png")
    assert (local.mimeType, local.filename, local.local) == ("image/png", "dot.png", True)
    assert local.dataBase64 == "iVBORw0KGgpmYWtl"
    assert local.as_data_uri() == "data:image/png;base64,iVBORw0KGgpmYWtl"
    assert MLLMImage(url=(tmp_path / "dot.png").as_uri()).dataBase64 == "iVBORw0KGgpmYWtl"  # a file:// URL
    pdf = MLLMImage(dataBase64="JVBERi0=", mimeType="application/pdf")
    assert _ids(str(pdf)) == "[DEEPEVAL:PDF:ID]" and (pdf.local, pdf.url) == (None, None)
    tc = LLMTestCase(input="Summarise", actual_output="ok", retrieval_context=[f"page {pdf}"])
    assert tc.multimodal is True


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"dataBase64": "abc"}, {"url": "ftp://x/y.png"}, {"url": "file:///nonexistent/z.png"}],
)
def test_an_image_without_usable_data_or_url_is_a_value_error(kwargs: dict[str, str]) -> None:
    with pytest.raises(ValueError):  # deepeval 4.3.1: ValueError for each
        MLLMImage(**kwargs)
