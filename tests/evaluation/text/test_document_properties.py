"""Properties of the text model on random XML trees (Hypothesis).

The generator builds a tree model, writes it as XML (with CDATA, comments, PIs, character
references, astral characters, namespaces) and knows, independently of lxml, what the text and
every element's path and span must be.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from focal.evaluation.text.document import Document, Utf16Offsets
from focal.evaluation.text.xmlsafe import parse_xml

NAMESPACES = ' xmlns:m="urn:m" xmlns:k="urn:k" xmlns:d="urn:d"'
NAMES = ["a", "b", "sec", "p", "m:x", "k:x", "m:math", "x", "d:x", "x.y"]


def xml_char(char: str) -> bool:
    code = ord(char)
    return (
        code in (0x9, 0xA, 0xD)
        or 0x20 <= code <= 0xD7FF
        or 0xE000 <= code <= 0xFFFD
        or code >= 0x10000
    )


CHARS = st.characters(codec="utf-8").filter(xml_char) | st.sampled_from(
    ["\U0001f600", "\U0001d400", "&", "<", ">", "]", "\r", " ", "\n", "\t"]
)
TEXT = st.text(CHARS, min_size=1, max_size=8) | st.sampled_from([" ", "\n", "\t ", "\n  "])


@dataclass
class Node:
    """Element (`name` set) or character data: text, CDATA, comment or PI."""

    kind: str
    value: str = ""
    name: str = ""
    default_ns: bool = False
    children: list[Node] = field(default_factory=list)


def escape(text: str, style: int) -> str:
    out = []
    for char in text:
        if char in "&<>\r" or (style == 2 and ord(char) > 0x7F):
            out.append(
                f"&#{ord(char)};"
                if style
                else {"&": "&amp;", "<": "&lt;", ">": "&gt;"}.get(char, "&#13;")
            )
        else:
            out.append(char)
    return "".join(out)


leaf = st.one_of(
    st.builds(lambda t, s: Node("text", t, name=str(s)), TEXT, st.integers(0, 2)),
    st.builds(
        lambda t: Node("cdata", t), st.text(CHARS.filter(lambda c: c not in "]\r"), max_size=6)
    ),
    st.builds(
        lambda t: Node("comment", t),
        st.text(st.sampled_from("ab -\U0001f600"), max_size=5).filter(
            lambda t: "--" not in t and not t.endswith("-")
        ),
    ),
    st.builds(
        lambda t: Node("pi", t),
        st.text(st.sampled_from("ab ?\U0001f600"), max_size=5).filter(lambda t: "?>" not in t),
    ),
)


def element(children: st.SearchStrategy[list[Node]]) -> st.SearchStrategy[Node]:
    return st.builds(
        lambda n, ns, c: Node("element", name=n, default_ns=ns, children=c),
        st.sampled_from(NAMES),
        st.booleans(),
        children,
    )


trees = st.builds(
    lambda n, c: Node("element", name=n, children=c),
    st.sampled_from(NAMES),
    st.lists(
        st.recursive(leaf, lambda inner: element(st.lists(inner, max_size=5)), max_leaves=25),
        max_size=6,
    ),
)


@dataclass
class Expected:
    text: list[str] = field(default_factory=list)
    rows: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def length(self) -> int:
        return sum(len(piece) for piece in self.text)


def write(
    node: Node,
    parent_path: str,
    counts: dict[str, int],
    expected: Expected,
    out: list[str],
    root: bool = False,
) -> None:
    if node.kind == "text":
        out.append(escape(node.value, int(node.name)))
        expected.text.append(node.value)
    elif node.kind == "cdata":
        out.append(f"<![CDATA[{node.value}]]>")
        expected.text.append(node.value)
    elif node.kind == "comment":
        out.append(f"<!--{node.value}-->")
    elif node.kind == "pi":
        out.append(f"<?pi {node.value}?>")
    else:
        counts[node.name] = counts.get(node.name, 0) + 1
        path = f"{parent_path}/{node.name}[{counts[node.name]}]"
        row = len(expected.rows)
        expected.rows.append((path, expected.length, -1))
        attributes = (NAMESPACES if root else "") + (
            ' xmlns="urn:default"' if node.default_ns else ""
        )
        out.append(f'<{node.name}{attributes} note="&lt;not text&gt;">')
        child_counts: dict[str, int] = {}
        for child in node.children:
            write(child, path, child_counts, expected, out)
        out.append(f"</{node.name}>")
        expected.rows[row] = (path, expected.rows[row][1], expected.length)


def serialise(tree: Node) -> tuple[bytes, Expected]:
    expected = Expected()
    out: list[str] = ["<?xml version='1.0' encoding='UTF-8'?>\n<!-- before -->\n"]
    write(tree, "", {}, expected, out, root=True)
    out.append("\n<?after root?>\n")
    return "".join(out).encode("utf-8"), expected


@settings(max_examples=120, deadline=None)
@given(trees)
def test_text_and_table_match_the_model(tree: Node) -> None:
    data, expected = serialise(tree)
    document = Document.from_bytes(data, "random")
    assert document.text == "".join(expected.text)
    assert [(e.path, e.start, e.end) for e in document.elements] == expected.rows


@settings(max_examples=120, deadline=None)
@given(trees)
def test_every_span_is_the_xpath_string_value(tree: Node) -> None:
    data, _ = serialise(tree)
    root = parse_xml(data).getroot()
    document = Document.from_bytes(data, "random")
    lxml_elements = list(root.iter(etree.Element))  # elements only: no comments or PIs
    assert len(lxml_elements) == len(document.elements)
    for lxml_element, element in zip(lxml_elements, document.elements, strict=True):
        assert document.text[element.start : element.end] == lxml_element.xpath("string()")


@settings(max_examples=120, deadline=None)
@given(trees)
def test_paths_and_offsets_find_their_elements_back(tree: Node) -> None:
    data, _ = serialise(tree)
    document = Document.from_bytes(data, "random")
    for index, element in enumerate(document.elements):
        assert document.index(element.path) == index
        assert document.span(element.path) == (element.start, element.end)
        if element.size:
            # the element is among the elements containing its first character...
            assert element in document.ancestors_at(element.start)
            # ...and among those touching its span
            assert element in document.touching(element.start, element.end)


def naive_innermost(document: Document, offset: int) -> int:
    best = -1
    for index, element in enumerate(document.elements):
        if element.start <= offset < element.end and (
            best < 0 or element.depth > document.elements[best].depth
        ):
            best = index
    return best


@settings(max_examples=100, deadline=None)
@given(trees, st.data())
def test_look_ups_agree_with_a_linear_scan(tree: Node, data: st.DataObject) -> None:
    document = Document.from_bytes(serialise(tree)[0], "random")
    length = len(document.text)
    for offset in range(-1, length + 2):
        found = document.innermost(offset)
        expected = naive_innermost(document, offset)
        assert found == (None if expected < 0 else document.elements[expected])
    start = data.draw(st.integers(-2, length + 2))
    end = data.draw(st.integers(-2, length + 2))
    touching = [e for e in document.elements if max(start, e.start) < min(end, e.end)]
    assert document.touching(start, end) == touching


@settings(max_examples=100, deadline=None)
@given(trees)
def test_utf16_round_trip(tree: Node) -> None:
    document = Document.from_bytes(serialise(tree)[0], "random")
    text = document.text
    offsets = Utf16Offsets(text)
    assert offsets.utf16_length == len(text.encode("utf-16-le")) // 2
    for offset in range(len(text) + 1):
        units = offsets.to_utf16(offset)
        assert units == len(text[:offset].encode("utf-16-le")) // 2
        assert offsets.to_codepoint(units) == offset
