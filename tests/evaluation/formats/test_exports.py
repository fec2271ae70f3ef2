"""Every export, exact on hand-computed cases."""

from __future__ import annotations

import io

import pytest
from lxml import etree

from focal.evaluation.formats.exports import (
    ArticleElements,
    ExportError,
    convert_judgement,
    exact_decimal,
    write_assessments_xml,
    write_elements,
    write_fol,
    write_trec,
)
from focal.evaluation.formats.records import Judgement, Qrels
from focal.evaluation.relevance.element_export import article_elements
from focal.evaluation.text.document import Document

# code points: a é 😀 b c -> UTF-16 units 1 1 2 1 1, UTF-8 bytes 1 2 4 1 1
TEXT = "aé\U0001f600bc"


def judgement(
    article: str, rel: int, size: int, bep: int | None, *passages: tuple[int, int]
) -> Judgement:
    return Judgement("7", article, rel, size, bep, tuple(passages), 0)


QRELS: Qrels = {
    "7": {
        "doc": judgement("doc", 3, 5, 2, (1, 3), (4, 5)),
        "other": judgement("other", 0, 3, None),
    }
}
TEXTS = {"doc": TEXT, "other": "ééé"}


def fol(unit: str, texts: dict[str, str] | None = TEXTS) -> str:
    out = io.StringIO()
    write_fol(QRELS, out, offset_unit=unit, text_of=None if texts is None else texts.get)  # type: ignore[arg-type]
    return out.getvalue()


def test_fol_in_code_points_needs_no_text() -> None:
    expected = "7 Q0 doc 3 5 2 1:2 4:1\n7 Q0 other 0 3\n"
    assert fol("codepoint", None) == expected
    assert fol("codepoint") == expected


def test_fol_in_utf16_units() -> None:
    # é -> 1 unit, 😀 -> 2: passage [1,3) = "é😀" -> [1,4); [4,5) = "c" -> [5,6)
    assert fol("utf16") == "7 Q0 doc 4 6 2 1:3 5:1\n7 Q0 other 0 3\n"


def test_fol_in_utf8_bytes() -> None:
    # prefix bytes 0 1 3 7 8 9: [1,3) -> [1,7), [4,5) -> [8,9), bep 2 -> 3; "ééé" is 6 bytes
    assert fol("utf8") == "7 Q0 doc 7 9 3 1:6 8:1\n7 Q0 other 0 6\n"


def test_other_units_refuse_articles_known_only_by_id_and_length() -> None:
    with pytest.raises(ExportError, match="known only by id and length"):
        fol("utf16", None)
    with pytest.raises(ExportError, match="known only by id and length"):
        fol("utf8", {"doc": TEXT})
    with pytest.raises(ExportError, match="offset unit"):
        fol("bytes")


def test_a_text_of_another_length_is_refused() -> None:
    with pytest.raises(ExportError, match="5 characters but the document text has 4"):
        convert_judgement(QRELS["7"]["doc"], "abcd", "utf8")


def test_a_bep_past_the_end_stays_past_it() -> None:
    late = judgement("doc", 1, 5, 7, (0, 1))
    assert convert_judgement(late, TEXT, "utf16").bep == 6 + 2


# Text by element: title [0,4) | sec1/p1 [4,14) | sec1/p2 [14,24) | empty [24,24) | sec2/p [24,35)
ARTICLE = (
    b"<article><title>Cats</title><bdy><sec><p>Cats purr.</p><p>Dogs bark.</p></sec>"
    b"<empty/><sec><p>Birds sing.</p></sec></bdy></article>"
)
RELEVANT = judgement("1", 16, 35, 9, (9, 19), (24, 30))


def elements_of(j: Judgement, **options: object) -> ArticleElements:
    document = Document.from_bytes(ARTICLE, j.article)
    return article_elements(j, document.elements, text_length=len(document.text), **options)  # type: ignore[arg-type]


def tsv(*articles: ArticleElements) -> str:
    out = io.StringIO()
    write_elements(articles, out)
    return out.getvalue()


def test_elements_export_on_the_2006_scale() -> None:
    lines = tsv(elements_of(RELEVANT)).splitlines()
    assert lines == [
        f"7\t1\t/article[1]\t2\t{16 / 35!r}\t16\t35",
        f"7\t1\t/article[1]/bdy[1]\t2\t{16 / 31!r}\t16\t31",
        "7\t1\t/article[1]/bdy[1]/sec[1]\t2\t0.5\t10\t20",
        "7\t1\t/article[1]/bdy[1]/sec[1]/p[1]\t2\t0.5\t5\t10",
        "7\t1\t/article[1]/bdy[1]/sec[1]/p[2]\t2\t0.5\t5\t10",
        f"7\t1\t/article[1]/bdy[1]/sec[2]\t2\t{6 / 11!r}\t6\t11",
        f"7\t1\t/article[1]/bdy[1]/sec[2]/p[1]\t2\t{6 / 11!r}\t6\t11",
    ]


def test_elements_export_of_every_element_includes_those_without_text() -> None:
    lines = tsv(elements_of(RELEVANT, all_elements=True)).splitlines()
    assert "7\t1\t/article[1]/title[1]\t0\t0\t0\t4" in lines
    assert "7\t1\t/article[1]/bdy[1]/empty[1]\t0\t0\t0\t0" in lines
    assert len(lines) == 9


def test_elements_export_on_the_2005_scale_leaves_out_unassessed_elements() -> None:
    values = {"/article[1]": "1", "/article[1]/bdy[1]": "1", "/article[1]/bdy[1]/sec[2]": "?"}
    lines = tsv(elements_of(RELEVANT, exhaustivity=values)).splitlines()
    assert [line.split("\t")[2:4] for line in lines] == [
        ["/article[1]", "1"],
        ["/article[1]/bdy[1]", "1"],
        ["/article[1]/bdy[1]/sec[2]", "?"],
    ]


def test_elements_export_refuses_a_document_of_another_length() -> None:
    with pytest.raises(ExportError, match="36 characters but the document text has 35"):
        elements_of(judgement("1", 1, 36, 0, (0, 1)))


def test_assessment_xml_for_one_topic_is_exact() -> None:
    small = judgement("1", 16, 35, 9, (0, 35))
    only_root = ArticleElements("7", "1", 35, 16, elements_of(small).elements[:1])
    nothing = ArticleElements("7", "2", 12, 0, ())
    out = io.StringIO()
    write_assessments_xml([only_root, nothing], out)
    assert out.getvalue() == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<assessments topic="7" scale="2006">\n'
        '  <file file="1" size="35" rsize="16">\n'
        '    <path path="/article[1]" exhaustivity="2" specificity="1" size="35" rsize="35"/>\n'
        "  </file>\n"
        '  <file file="2" size="12" rsize="0"/>\n'
        "</assessments>\n"
    )


def test_assessment_xml_for_several_topics_has_one_root() -> None:
    first = elements_of(RELEVANT)
    second = ArticleElements("8", "1", 35, 0, ())
    out = io.StringIO()
    write_assessments_xml([first, second], out, scale="2005")
    root = etree.fromstring(out.getvalue().encode())
    assert root.tag == "assessment-set"
    assert [(a.get("topic"), a.get("scale")) for a in root] == [("7", "2005"), ("8", "2005")]
    paths = root.findall("assessments/file/path")
    assert len(paths) == 7
    assert float(paths[1].get("specificity", "")) == 16 / 31  # exact round trip
    assert paths[1].get("rsize") == "16" and paths[1].get("size") == "31"


def test_trec_binary_and_graded() -> None:
    # the published cut points (0, 0.33], (0.33, 0.67], (0.67, 1] (seed 003 §5.2.6)
    qrels: Qrels = {
        "5": {
            "a": Judgement("5", "a", 0, 100, None, (), 0),
            "b": Judgement("5", "b", 33, 100, 0, ((0, 33),), 0),  # 0.33 -> 1
            "c": Judgement("5", "c", 67, 200, 0, ((0, 67),), 0),  # 0.335 -> 2
            "d": Judgement("5", "d", 67, 100, 0, ((0, 67),), 0),  # 0.67 -> 2 (thirds: 3)
            "e": Judgement("5", "e", 135, 200, 0, ((0, 135),), 0),  # 0.675 -> 3
        }
    }
    binary, graded = io.StringIO(), io.StringIO()
    write_trec(qrels, binary)
    write_trec(qrels, graded, graded=True)
    assert binary.getvalue() == "5 0 a 0\n5 0 b 1\n5 0 c 1\n5 0 d 1\n5 0 e 1\n"
    assert graded.getvalue() == "5 0 a 0\n5 0 b 1\n5 0 c 2\n5 0 d 2\n5 0 e 3\n"


def test_exact_decimal_reads_back() -> None:
    for value in (0.0, 1.0, 0.1, 16 / 35, 1 / 3000001, 2 / 3):
        assert float(exact_decimal(value)) == value
        assert "e" not in exact_decimal(value)
