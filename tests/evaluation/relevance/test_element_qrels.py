"""Element qrels derived from FOL qrels and the collection: one derivation, two views."""

from __future__ import annotations

from pathlib import Path

import pytest

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.convert import Collection
from focal.evaluation.formats.fol.qrels import is_fol_qrels, read_qrels
from focal.evaluation.relevance.element_qrels import (
    derive_element_qrels,
    load_element_qrels,
    relevant_elements,
)

# Article a: "0123456789" (p[1]) + "abcdefghij" (p[2]); p[1] fully highlighted.
ARTICLE_A = "<article><p>0123456789</p><p>abcdefghij</p></article>"
# b is judged not relevant and is missing from the collection.
FOL_QRELS = "1 Q0 a 10 20 0 0:10\n1 Q0 b 0 10\n2 Q0 a 0 20\n"


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Collection]:
    collection = tmp_path / "collection"
    collection.mkdir()
    (collection / "a.xml").write_text(ARTICLE_A, encoding="utf-8")
    qrels = tmp_path / "fol.qrels"
    qrels.write_text(FOL_QRELS, encoding="utf-8")
    return qrels, Collection(collection)


def test_relevant_elements_skip_unjudged_articles_and_keep_every_topic(
    files: tuple[Path, Collection],
) -> None:
    path, collection = files
    out = relevant_elements(read_qrels(path), ["1", "2"], collection, str(path))
    assert list(out) == ["1", "2"] and out["2"] == []
    (article,) = out["1"]
    records = {
        record.path: (record.exhaustivity, record.rsize, record.size) for record in article.elements
    }
    assert records == {"/article[1]": ("2", 10, 20), "/article[1]/p[1]": ("2", 10, 10)}


def test_element_qrels_look_up_every_judged_article(files: tuple[Path, Collection]) -> None:
    path, collection = files
    with pytest.raises(FormatError, match="article b is not in the collection") as caught:
        derive_element_qrels(path, collection)
    assert caught.value.line == 2


def test_element_qrels_on_the_four_grade_scale(files: tuple[Path, Collection]) -> None:
    path, collection = files
    path.write_text("1 Q0 a 10 20 0 0:10\n", encoding="utf-8")
    assert is_fol_qrels(path)
    qrels = load_element_qrels(path, collection)
    grades = {key[1]: (j.e4, j.s4, j.e5) for key, j in qrels.topics["1"].items()}
    assert grades == {"/article[1]": (3, 2, "2"), "/article[1]/p[1]": (3, 3, "2")}
    with pytest.raises(FormatError, match="give --collection"):
        load_element_qrels(path, None)
