"""Documents to goldens: loading (txt, md, docx, pdf as extras), token chunks, context quality rounds, similarity
grouping, and bad documents skipped by name while the others still give goldens."""

from __future__ import annotations

import sys
from collections import Counter

import pytest

from deepeval.synthesizer import Synthesizer
from deepeval.synthesizer.chunking import doc_loader
from deepeval.synthesizer.chunking.doc_loader import DocumentError, load_document
from deepeval.synthesizer.chunking.splitter import count_tokens, split_text
from deepeval.synthesizer.config import ContextConstructionConfig, EvolutionConfig
from deepeval.testing.synthesis import prompt_of

PARIS = "Paris is the capital of France. It lies on the Seine. About two million people live there."
SENTENCES = [f"Fact number {k} says that item {k} weighs {k * 3} kilograms." for k in range(40)]


def synth(judge):
    s = Synthesizer(model=judge.model, evolution_config=EvolutionConfig(num_evolutions=0))
    s.show_progress = False
    return s


def test_split_text_windows_and_overlap():
    text = " ".join(f"w{k}" for k in range(10))  # w0 is two tokens: "w", "0"
    assert count_tokens(text) == 20
    chunks = split_text(text, 6, 2)
    assert chunks[0] == "w0 w1 w2" and chunks[1] == "w2 w3 w4"  # 4 new tokens per chunk
    assert split_text(text, 1000) == [text]  # a chunk larger than the document: the whole document
    assert split_text("   \n ", 10) == []
    with pytest.raises(ValueError, match="must not exceed 5"):
        split_text(text, 6, 6)


def test_repeated_text_keeps_every_chunk():
    text = "same words again. " * 30  # 4 tokens each: 120 tokens
    assert len(split_text(text, 8)) == 15 and len(split_text(text, 8, 4)) == 29


def test_split_text_never_cuts_a_word():
    text = "short Internationalization words here"
    for size in range(1, 8):
        for chunk in split_text(text, size):
            assert all(word in text.split() for word in chunk.split())


@pytest.mark.parametrize(
    ("name", "data", "encoding", "reason"),
    [
        ("empty.txt", b"  \n\t ", None, "holds no text"),
        ("blob.txt", b"\x89PNG\x00\x00\x01binary", None, "binary"),
        ("latin.txt", "café".encode("latin-1"), None, "is not UTF-8 text"),
        ("x.csv", b"a,b", None, "unsupported file format .csv"),
        ("noext", b"text", None, r"unsupported file format \(no extension\)"),
        ("bad.txt", b"text", "no-such-codec", "unknown encoding"),
    ],
)
def test_bad_documents_raise_a_document_error_naming_the_problem(tmp_path, name, data, encoding, reason):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(DocumentError, match=reason) as info:
        load_document(str(path), encoding)
    assert info.value.path == str(path) and str(path) in str(info.value)


def test_documents_that_read(tmp_path, monkeypatch):
    (tmp_path / "a.md").write_text("# Title\n\nBody é", encoding="utf-8")
    (tmp_path / "b.txt").write_bytes("café".encode("latin-1"))
    (tmp_path / "c.txt").write_bytes("hi there".encode("utf-16"))
    assert load_document(str(tmp_path / "a.md")) == "# Title\n\nBody é"
    assert load_document(str(tmp_path / "b.txt"), "latin-1") == "café"
    assert load_document(str(tmp_path / "c.txt")) == "hi there"
    with pytest.raises(DocumentError, match="no such file"):
        load_document(str(tmp_path / "missing.txt"))
    monkeypatch.setattr(doc_loader, "MAX_DOCUMENT_BYTES", 4)
    with pytest.raises(DocumentError, match="over the 4-byte limit"):
        load_document(str(tmp_path / "a.md"))


def test_docx_reads_with_python_docx(tmp_path):
    docx = pytest.importorskip("docx")
    document = docx.Document()
    document.add_paragraph("First paragraph.")
    document.add_paragraph("Second paragraph.")
    document.save(str(tmp_path / "d.docx"))
    assert load_document(str(tmp_path / "d.docx")) == "First paragraph.\nSecond paragraph."
    (tmp_path / "broken.docx").write_bytes(b"not a zip")
    with pytest.raises(DocumentError, match="python-docx could not read it"):
        load_document(str(tmp_path / "broken.docx"))


@pytest.mark.parametrize(
    ("suffix", "module", "package"), [(".pdf", "pypdf", "pypdf"), (".docx", "docx", "python-docx")]
)
def test_a_missing_parser_names_the_pip_install(tmp_path, monkeypatch, suffix, module, package):
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    path = tmp_path / f"f{suffix}"
    path.write_bytes(b"%PDF-1.4")
    with pytest.raises(DocumentError, match=f"pip install {package}"):
        load_document(str(path))


def test_pdf_reads_with_pypdf(tmp_path):
    pypdf = pytest.importorskip("pypdf")
    writer = pypdf.PdfWriter()
    writer.add_blank_page(width=200, height=200)
    with open(tmp_path / "blank.pdf", "wb") as handle:
        writer.write(handle)
    with pytest.raises(DocumentError, match="holds no text"):  # parsed, but a blank page has no text
        load_document(str(tmp_path / "blank.pdf"))
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 garbage")
    with pytest.raises(DocumentError, match="pypdf could not read it"):
        load_document(str(tmp_path / "broken.pdf"))


def test_from_docs_skips_bad_documents_by_name_and_keeps_the_good_ones(judge, tmp_path, capsys):
    good = tmp_path / "paris.txt"
    good.write_text(PARIS, encoding="utf-8")
    (tmp_path / "empty.md").write_text("", encoding="utf-8")
    (tmp_path / "blob.txt").write_bytes(b"\x00\x01\x02")
    paths = [str(good), str(tmp_path / "empty.md"), str(tmp_path / "blob.txt"), str(tmp_path / "gone.txt")]
    s = synth(judge)
    config = ContextConstructionConfig(
        chunk_size=1024, max_context_length=1
    )  # chunk larger than the document
    goldens = s.generate_goldens_from_docs(paths, context_construction_config=config)
    assert len(goldens) == 2 and all(g.context == [PARIS] and g.source_file == str(good) for g in goldens)
    assert all(g.additional_metadata["context_quality"] == pytest.approx(0.8) for g in goldens)
    assert all(g.additional_metadata["context_source_files"] == [str(good)] for g in goldens)
    assert {x.source: x.reason for x in s.skipped} == {
        paths[1]: "holds no text",
        paths[2]: "looks like a binary file (NUL bytes), not text",
        paths[3]: "no such file",
    }
    err = capsys.readouterr().err
    assert f"skipped {paths[2]}" in err and "1 context(s) from 1 of 1 chunk(s)" in err


def test_from_docs_with_no_usable_document_raises_naming_each(judge, tmp_path):
    (tmp_path / "a.txt").write_text("", encoding="utf-8")
    config = ContextConstructionConfig(min_contexts_per_document=2, max_context_length=1)
    (tmp_path / "b.txt").write_text("one short chunk", encoding="utf-8")
    with pytest.raises(
        ValueError, match=r"No document could be used .*a.txt: holds no text.*b.txt: 1 chunk\(s\)"
    ):
        synth(judge).generate_goldens_from_docs(
            [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")], context_construction_config=config
        )
    with pytest.raises(ValueError, match="document_paths"):
        synth(judge).generate_goldens_from_docs([])


def test_context_quality_rounds_try_max_retries_chunks_per_context(judge, tmp_path):
    doc = tmp_path / "facts.txt"
    doc.write_text(" ".join(SENTENCES), encoding="utf-8")
    config = ContextConstructionConfig(
        chunk_size=20, max_contexts_per_document=2, max_context_length=1, max_retries=3
    )
    judge.set(context_quality=0.1)  # never passes 0.5: three tries per context, the best kept
    s = synth(judge)
    goldens = s.generate_goldens_from_docs(
        [str(doc)], max_goldens_per_context=1, context_construction_config=config
    )
    assert Counter(judge.schemas())["ContextScore"] == 6 and len(goldens) == 2
    judge.server.counters.bodies.clear()
    judge.set(context_quality=0.9)  # passes at once: one try per context
    s.generate_goldens_from_docs([str(doc)], max_goldens_per_context=1, context_construction_config=config)
    assert Counter(judge.schemas())["ContextScore"] == 2


def test_a_chunk_scored_best_is_kept(judge, tmp_path):
    doc = tmp_path / "facts.txt"
    doc.write_text(" ".join(SENTENCES), encoding="utf-8")

    def score(req):
        value = 0.4 if "Fact number 7 " in prompt_of(req) else 0.1
        return {"clarity": value, "depth": value, "structure": value, "relevance": value}

    judge.set({"ContextScore": score})
    config = ContextConstructionConfig(
        chunk_size=12, max_contexts_per_document=1, max_context_length=1, max_retries=len(SENTENCES) * 2
    )
    goldens = synth(judge).generate_goldens_from_docs(
        [str(doc)], max_goldens_per_context=1, context_construction_config=config
    )
    assert "Fact number 7 " in goldens[0].context[0]
    assert goldens[0].additional_metadata["context_quality"] == pytest.approx(0.4)


class TopicEmbedder:
    """Vectors by topic word: chunks about the same topic are similar."""

    def __init__(self):
        self.calls = 0

    def get_model_name(self):
        return "topic-embedder"

    def embed_texts(self, texts):
        self.calls += 1
        return [[float("apple" in t), float("river" in t), 0.1] for t in texts]


def test_similar_chunks_are_grouped_into_one_context(judge, tmp_path):
    parts = [
        "The apple tree grows fruit.",
        "The river runs to the sea.",
        "An apple a day is healthy.",
        "The river is wide.",
    ]
    doc = tmp_path / "mixed.txt"
    doc.write_text(" ".join(parts), encoding="utf-8")
    embedder = TopicEmbedder()
    config = ContextConstructionConfig(
        embedder=embedder, chunk_size=7, max_contexts_per_document=4, max_context_length=2,
        context_similarity_threshold=0.5,
    )  # fmt: skip
    goldens = synth(judge).generate_goldens_from_docs(
        [str(doc)], max_goldens_per_context=1, context_construction_config=config
    )
    assert embedder.calls == 1 and len(goldens) == 4
    for g in goldens:
        assert len(g.context) == 2
        topic = "apple" if "apple" in g.context[0] else "river"
        assert all(topic in chunk for chunk in g.context)


def test_cross_file_contexts_join_two_files(judge, tmp_path):
    (tmp_path / "a.txt").write_text("The apple tree grows fruit.", encoding="utf-8")
    (tmp_path / "b.txt").write_text("An apple a day is healthy.", encoding="utf-8")
    config = ContextConstructionConfig(
        embedder=TopicEmbedder(),
        max_context_length=1,
        allow_cross_file_contexts=True,
        target_files_per_context=2,
    )
    goldens = synth(judge).generate_goldens_from_docs(
        [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")],
        max_goldens_per_context=1,
        context_construction_config=config,
    )
    assert len(goldens) == 1 and len(goldens[0].context) == 2
    assert goldens[0].additional_metadata["context_source_files"] == [
        str(tmp_path / "a.txt"),
        str(tmp_path / "b.txt"),
    ]
    list_prompts = [
        prompt_of(b) for b in judge.server.counters.bodies if "Write 1 different inputs" in prompt_of(b)
    ]
    assert (
        len(list_prompts) == 1 and "[SOURCE: " in list_prompts[0] and "used_source_files" in list_prompts[0]
    )


def test_the_offline_encoder_is_the_default_embedder(judge, tmp_path):
    doc = tmp_path / "mixed.txt"
    doc.write_text("Cats purr when content. Dogs bark at strangers. Kittens purr softly.", encoding="utf-8")
    config = ContextConstructionConfig(chunk_size=5, max_contexts_per_document=1, max_context_length=2)
    goldens = synth(judge).generate_goldens_from_docs(
        [str(doc)], max_goldens_per_context=1, context_construction_config=config
    )
    assert len(goldens) == 1 and len(goldens[0].context) == 2


def test_a_string_embedder_without_an_openai_embedding_model_is_a_clear_error(judge, tmp_path):
    import deepeval.models as models

    if hasattr(models, "OpenAIEmbeddingModel"):
        pytest.skip("this installation has OpenAIEmbeddingModel")
    (tmp_path / "a.txt").write_text(PARIS, encoding="utf-8")
    with pytest.raises(Exception, match="embedder='text-embedding-3-small'"):
        synth(judge).generate_goldens_from_docs(
            [str(tmp_path / "a.txt")],
            context_construction_config=ContextConstructionConfig(embedder="text-embedding-3-small"),
        )


def test_contexts_from_documents_are_the_same_under_one_seed(judge, tmp_path):
    import random

    doc = tmp_path / "facts.txt"
    doc.write_text(" ".join(SENTENCES), encoding="utf-8")
    config = ContextConstructionConfig(chunk_size=12, max_contexts_per_document=2, max_context_length=1)

    def contexts(seed):
        random.seed(seed)
        goldens = synth(judge).generate_goldens_from_docs(
            [str(doc)], max_goldens_per_context=1, context_construction_config=config
        )
        return [g.context for g in goldens]

    first, again, other = contexts(3), contexts(3), [contexts(s) for s in (4, 5, 6)]
    assert first == again and len(first) == 2
    assert any(o != first for o in other)
