"""The text model on small documents whose text and spans are worked out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from focal.evaluation.text.document import (
    Document,
    Element,
    PathError,
    Utf16Offsets,
    codepoint_to_utf16,
    text_events,
    utf16_to_codepoint,
)
from focal.evaluation.text.xmlsafe import parse_xml


def doc(xml: str | bytes) -> Document:
    return Document.from_bytes(xml.encode() if isinstance(xml, str) else xml, "t")


def rows(document: Document) -> list[tuple[str, int, int]]:
    return [(e.path, e.start, e.end) for e in document.elements]


# -- the text and the table ----------------------------------------------------------------------


def test_astral_characters_count_one_code_point() -> None:
    d = doc("<a>x\U0001f600y<b>\U0001d400</b>z</a>")
    assert d.text == "x\U0001f600y\U0001d400z"
    assert rows(d) == [("/a[1]", 0, 5), ("/a[1]/b[1]", 3, 4)]
    assert d.utf16.to_utf16(3) == 4 and d.utf16.to_utf16(5) == 7


def test_cdata_is_text() -> None:
    d = doc("<a>1<![CDATA[<2>&]]>3<b><![CDATA[]]></b></a>")
    assert d.text == "1<2>&3"
    assert d.span("/a[1]/b[1]") == (6, 6)


def test_comments_and_pis_carry_no_text_but_their_tails_do() -> None:
    d = doc("<?p before?><!--c--><a>x<!-- c1 -->y<?t data?>z<b/><!--c2-->w</a><!--after-->")
    assert d.text == "xyzw"
    assert rows(d) == [("/a[1]", 0, 4), ("/a[1]/b[1]", 3, 3)]


def test_prefixes_are_kept_as_written() -> None:
    d = doc(
        '<article xmlns:mml="http://www.w3.org/1998/Math/MathML"><p><mml:math><mml:mi>x</mml:mi>'
        "</mml:math><mml:math/></p></article>"
    )
    assert [e.path for e in d.elements] == [
        "/article[1]",
        "/article[1]/p[1]",
        "/article[1]/p[1]/mml:math[1]",
        "/article[1]/p[1]/mml:math[1]/mml:mi[1]",
        "/article[1]/p[1]/mml:math[2]",
    ]
    assert d.element("/article[1]/p[1]/mml:math[1]").tag == "mml:math"


def test_default_namespace_elements_go_by_local_name() -> None:
    d = doc('<root xmlns="urn:d" xmlns:d="urn:d"><x>1</x><d:x>2</d:x><x>3</x></root>')
    assert rows(d) == [
        ("/root[1]", 0, 3),
        ("/root[1]/x[1]", 0, 1),
        ("/root[1]/d:x[1]", 1, 2),  # same namespace, but written with a prefix
        ("/root[1]/x[2]", 2, 3),
    ]


def test_siblings_are_counted_by_the_name_as_written() -> None:
    d = doc('<r xmlns:p="urn:p" xmlns:q="urn:p"><x/><x xmlns="urn:a"/><p:x/><q:x/><x/></r>')
    assert [e.path.rsplit("/", 1)[1] for e in d.elements[1:]] == [
        "x[1]",
        "x[2]",
        "p:x[1]",
        "q:x[1]",
        "x[3]",
    ]


def test_whitespace_only_text_counts_and_nothing_is_normalised() -> None:
    d = doc("<a>\n  <b> </b>\n\t<c>\n</c>  \n</a>")
    assert d.text == "\n   \n\t\n  \n"
    assert d.span("/a[1]/b[1]") == (3, 4)
    assert d.span("/a[1]/c[1]") == (6, 7)


def test_predefined_entities_and_character_references_are_single_characters() -> None:
    d = doc("<a>&lt;&gt;&amp;&apos;&quot;&#x1F600;&#13;&#10;<b>&#65;</b></a>")
    assert d.text == "<>&'\"\U0001f600\r\nA"
    assert d.span("/a[1]/b[1]") == (8, 9)


def test_line_ends_are_normalised_by_xml_itself() -> None:
    assert doc(b"<a>\r\nx\r<b/></a>").text == "\nx\n"


def test_same_name_siblings_and_nesting() -> None:
    d = doc("<a><p>1</p><q/><p>2</p><p>3<p>4</p></p></a>")
    assert rows(d) == [
        ("/a[1]", 0, 4),
        ("/a[1]/p[1]", 0, 1),
        ("/a[1]/q[1]", 1, 1),
        ("/a[1]/p[2]", 1, 2),
        ("/a[1]/p[3]", 2, 4),
        ("/a[1]/p[3]/p[1]", 3, 4),
    ]
    assert [(e.depth, e.parent) for e in d.elements] == [
        (0, -1),
        (1, 0),
        (1, 0),
        (1, 0),
        (1, 0),
        (2, 4),
    ]


def test_element_record() -> None:
    d = doc("<a>xy<b>z</b></a>")
    assert d.element("/a[1]/b[1]") == Element("/a[1]/b[1]", "b", 2, 3, 1, 0)
    assert d.element("/a[1]").size == 3


def test_document_id_from_the_file_name(tmp_path: Path) -> None:
    path = tmp_path / "elife-02833-v2.xml"
    path.write_bytes(b"<a/>")
    assert Document.from_file(path).id == "elife-02833-v2"


def test_deep_nesting_needs_no_recursion() -> None:
    d = doc("<d>" * 250 + "x" + "</d>" * 250)
    assert len(d.elements) == 250
    assert d.elements[-1].depth == 249
    assert d.innermost(0) is d.elements[-1]


# -- look-ups -----------------------------------------------------------------------------------

SIBLINGS = "<a><p>1</p><q/><p>2</p><p>3</p></a>"  # text "123"


def test_span_and_path_to_fol() -> None:
    d = doc(SIBLINGS)
    assert d.span("/a[1]/p[3]") == (2, 3)
    assert d.path_to_fol("/a[1]/p[2]") == (1, 1)
    assert d.span("/a/p[3]") == (2, 3)  # a missing [1] means [1]
    assert d.span(" /a[1]/q ") == (1, 1)


@pytest.mark.parametrize("path", ["/a[1]/p[4]", "/b[1]", "/a[0]", "a/p", "//p", "/a[1]/p[x]", ""])
def test_unknown_or_malformed_paths_raise_key_error_naming_them(path: str) -> None:
    with pytest.raises(KeyError) as caught:
        doc(SIBLINGS).span(path)
    assert isinstance(caught.value, PathError)
    assert repr(path) in str(caught.value)


def test_innermost_skips_empty_elements_and_is_none_outside_the_text() -> None:
    d = doc(SIBLINGS)
    assert [d.innermost(i).path for i in range(3)] == [  # type: ignore[union-attr]
        "/a[1]/p[1]",
        "/a[1]/p[2]",  # q is empty at offset 1: it contains no offset
        "/a[1]/p[3]",
    ]
    assert d.innermost(3) is None
    assert d.innermost(-1) is None
    assert doc("<a>ab<e/>cd</a>").innermost(2).path == "/a[1]"  # type: ignore[union-attr]
    assert doc("<a/>").innermost(0) is None


def test_ancestors_at() -> None:
    d = doc("<a>x<b>y<c>z</c></b></a>")
    assert [e.path for e in d.ancestors_at(2)] == ["/a[1]", "/a[1]/b[1]", "/a[1]/b[1]/c[1]"]
    assert [e.path for e in d.ancestors_at(0)] == ["/a[1]"]


def test_touching_means_sharing_a_character() -> None:
    d = doc("<a><p>12</p><p>34</p><e/></a>")
    paths = lambda start, end: [e.path for e in d.touching(start, end)]  # noqa: E731
    assert paths(1, 3) == ["/a[1]", "/a[1]/p[1]", "/a[1]/p[2]"]
    assert paths(2, 4) == ["/a[1]", "/a[1]/p[2]"]  # p[1] ends where the passage starts
    assert paths(0, 2) == ["/a[1]", "/a[1]/p[1]"]
    assert paths(2, 2) == []
    assert paths(0, 99) == ["/a[1]", "/a[1]/p[1]", "/a[1]/p[2]"]  # e is empty
    assert [e.path for e in doc("<a>ab<e/>cd</a>").touching(0, 4)] == ["/a[1]"]


# -- points: XPath with an offset -------------------------------------------------------------

POINTS = "<a>ab<!--c-->cd<b>ef</b>gh</a>"  # text "abcdefgh"; text nodes of a: ab, cd, gh


@pytest.mark.parametrize(
    ("point", "offset"),
    [
        ("/a[1]", 0),
        ("/a[1].5", 5),
        ("/a[1].8", 8),
        ("/a[1]/text()", 0),
        ("/a[1]/text()[2]", 2),
        ("/a[1]/text()[2].1", 3),
        ("/a/text()[3].2", 8),
        ("/a[1]/b[1]", 4),
        ("/a[1]/b[1].2", 6),
        ("/a[1]/b[1]/text()[1].1", 5),
    ],
)
def test_points_resolve_to_offsets(point: str, offset: int) -> None:
    assert doc(POINTS).resolve_point(point) == offset


@pytest.mark.parametrize(
    "point", ["/a[1].9", "/a[1]/text()[4]", "/a[1]/text()[0]", "/a[1]/b[1].3", "/a/b.1"]
)
def test_points_outside_their_node_are_refused(point: str) -> None:
    with pytest.raises(KeyError):
        doc(POINTS).resolve_point(point)


def test_locate_and_range_to_fol() -> None:
    d = doc(POINTS)
    assert d.locate("/a[1]/b[1]") == (4, 2)
    assert d.locate("/a[1]/text()[2]") == (2, 2)
    assert d.locate("/a[1]/b[1].1") == (5, 0)
    assert d.range_to_fol("/a[1]/text()[1].1", "/a[1]/b[1].1") == (1, 4)
    with pytest.raises(KeyError):
        d.range_to_fol("/a[1]/b[1].1", "/a[1]/text()[1].1")


# -- text_events --------------------------------------------------------------------------------


def test_text_events_in_document_order() -> None:
    root = parse_xml(b"<a>x<!--c-->y<b>z</b><?p q?>w</a>").getroot()
    events = [
        (kind, getattr(item, "tag", item), offset) for kind, item, offset in text_events(root)
    ]
    assert events == [
        ("start", "a", 0),
        ("text", "x", 0),
        ("text", "y", 1),  # a comment separates two text nodes and leaves no event itself
        ("start", "b", 2),
        ("text", "z", 2),
        ("end", "b", 3),
        ("text", "w", 3),
        ("end", "a", 4),
    ]


def test_the_ith_start_event_is_the_ith_element() -> None:
    xml = b"<a>x<b>y<c/></b><b>z</b></a>"
    starts = [item for kind, item, _ in text_events(parse_xml(xml).getroot()) if kind == "start"]
    d = doc(xml)
    assert [(e.tag, e.start) for e in d.elements] == [
        (el.tag, d.elements[i].start) for i, el in enumerate(starts)
    ]
    assert len(starts) == len(d.elements)


# -- UTF-16 -------------------------------------------------------------------------------------

ASTRAL = "a\U0001f600b\U0001d400\U0001d401c"


def test_utf16_conversions_agree_with_python_encoding() -> None:
    offsets = Utf16Offsets(ASTRAL)
    for offset in range(len(ASTRAL) + 1):
        units = len(ASTRAL[:offset].encode("utf-16-le")) // 2
        assert codepoint_to_utf16(ASTRAL, offset) == units == offsets.to_utf16(offset)
        assert utf16_to_codepoint(ASTRAL, units) == offset == offsets.to_codepoint(units)


@pytest.mark.parametrize("units", [2, 5, 7, -1, 10])
def test_utf16_offsets_inside_a_pair_or_outside_are_refused(units: int) -> None:
    with pytest.raises(ValueError):
        utf16_to_codepoint(ASTRAL, units)
    with pytest.raises(ValueError):
        Utf16Offsets(ASTRAL).to_codepoint(units)


def test_codepoint_offsets_outside_the_text_are_refused() -> None:
    with pytest.raises(ValueError):
        codepoint_to_utf16(ASTRAL, len(ASTRAL) + 1)
    with pytest.raises(ValueError):
        Utf16Offsets(ASTRAL).to_utf16(-1)
