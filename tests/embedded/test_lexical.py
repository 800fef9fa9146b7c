"""IDF table and IDF-weighted coverage of the embedded judge's relevance features."""

from __future__ import annotations

import math

import pytest

from deepeval.models.embedded import lexical


def test_build_idf_counts_documents_and_drops_rare_words() -> None:
    table = lexical.build_idf(
        ["The river flows.", "A river in Spain.", "Spain and rivers.", "Castles."], min_df=2
    )
    assert table["n_docs"] == 4
    assert table["df"] == {"river": 3, "spain": 2}  # stemmed, stopwords out, df < 2 dropped


def test_idf_coverage_weighs_rare_words_more() -> None:
    lexical.set_idf({"n_docs": 9, "df": {"song": 8, "denver": 1}})
    try:
        assert lexical.idf("song") == pytest.approx(math.log(10 / 8.5))
        assert lexical.idf("unseen") == pytest.approx(math.log(10 / 1.5))  # absent = rare
        q = ["song", "denver"]
        w_song, w_denver = lexical.idf("song"), lexical.idf("denver")
        assert lexical.idf_coverage(q, frozenset({"denver"})) == pytest.approx(w_denver / (w_song + w_denver))
        assert lexical.idf_coverage(q, frozenset({"song"})) < 0.1
        assert lexical.idf_coverage([], frozenset({"song"})) == 0.0
        lexical.set_idf({"n_docs": 0, "df": {}})  # no table: every word weighs 1
        assert lexical.idf_coverage(q, frozenset({"song"})) == pytest.approx(0.5)
    finally:
        lexical.set_idf(None)
    assert lexical.idf("the") > 0  # the shipped table loads again
