"""Focal's text model (spec section 1): a document's text, its element table and the look-ups.

The text is the concatenation of every text node in document order (see `text_events`); offsets
are code points. Every element gets a row `(path, tag, start, end, depth, parent)` built in one
iterative pass; look-ups then use a dict (path -> row) and binary search over the start offsets,
which are non-decreasing in document order (preorder).

Decisions (docs/textmodel.md has the reasons):
- `depth` is the number of ancestors (the root has depth 0, parent -1).
- Sibling positions count siblings with the same name *as written* (prefix included).
- `innermost(offset)` is the deepest element with `start <= offset < end`; an empty element
  (`start == end`) contains no offset and is never returned; offsets outside `[0, len(text))`
  give None.
- `touching(start, end)` is every element whose span shares at least one character with
  `[start, end)`: `max(start, e.start) < min(end, e.end)`. Empty elements and empty passages
  touch nothing.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from focal.evaluation.text.events import Event, text_events
from focal.evaluation.text.paths import PathError, Point, normalise_path, parse_point
from focal.evaluation.text.utf16 import Utf16Offsets, codepoint_to_utf16, utf16_to_codepoint
from focal.evaluation.text.xmlsafe import DocumentError, parse_xml

__all__ = [
    "Document",
    "DocumentError",
    "Element",
    "Event",
    "PathError",
    "Utf16Offsets",
    "codepoint_to_utf16",
    "load_document",
    "text_events",
    "utf16_to_codepoint",
]


@dataclass(frozen=True, slots=True)
class Element:
    """One element of a document: its INEX path and its span `[start, end)` over the text."""

    path: str
    tag: str  # qualified name as written: "mml:math", or the local name
    start: int
    end: int
    depth: int  # number of ancestors: 0 for the root
    parent: int  # index into Document.elements, -1 for the root

    @property
    def size(self) -> int:
        """Length of the span in code points."""
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class TextNode:
    """A text node (XPath data model) and the element it is a child of."""

    start: int
    end: int
    parent: int


def document_id(path: Path | str) -> str:
    """A document's id: its file name without `.xml`."""
    name = Path(path).name
    return name[:-4] if name.lower().endswith(".xml") else name


def qualified_name(element: etree._Element) -> str:
    """The element's name as written in the file: `prefix:local`, or `local`."""
    local = str(element.tag).rpartition("}")[2]
    return f"{element.prefix}:{local}" if element.prefix else local


class Document:
    """A parsed document: `id`, `text`, `elements` (preorder) and fast look-ups.

    >>> doc = Document.from_bytes(b"<a><b>one</b><b>two<c/></b></a>", "d1")
    >>> doc.text, doc.span("/a[1]/b[2]"), doc.innermost(4).path
    ('onetwo', (3, 6), '/a[1]/b[2]')
    >>> [e.path for e in doc.touching(2, 4)]
    ['/a[1]', '/a[1]/b[1]', '/a[1]/b[2]']
    """

    def __init__(self, doc_id: str, root: etree._Element) -> None:
        self.id = doc_id
        pieces: list[str] = []
        nodes: list[tuple[int, int, int]] = []  # (start, end, parent) of every text node
        # one entry per element, in preorder; `ends` is filled in when the element closes
        paths: list[str] = []
        tags: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        parents: list[int] = []
        depths: list[int] = []
        open_rows: list[int] = []
        sibling_counts: list[dict[str, int]] = [{}]
        for kind, item, offset in text_events(root):
            if isinstance(item, str):
                pieces.append(item)
                nodes.append((offset, offset + len(item), open_rows[-1]))
            elif kind == "start":
                tag = qualified_name(item)
                counts = sibling_counts[-1]
                position = counts[tag] = counts.get(tag, 0) + 1
                parent = open_rows[-1] if open_rows else -1
                paths.append(f"{paths[parent] if parent >= 0 else ''}/{tag}[{position}]")
                tags.append(tag)
                starts.append(offset)
                ends.append(offset)
                parents.append(parent)
                depths.append(len(open_rows))
                open_rows.append(len(paths) - 1)
                sibling_counts.append({})
            else:
                ends[open_rows.pop()] = offset
                sibling_counts.pop()
        self.text = "".join(pieces)
        self.elements: tuple[Element, ...] = tuple(
            map(Element, paths, tags, starts, ends, depths, parents)
        )
        self._starts = starts
        self._index = dict(zip(paths, range(len(paths)), strict=True))
        self._nodes = nodes
        self._nodes_of: dict[int, list[TextNode]] | None = None
        self._utf16: Utf16Offsets | None = None

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_file(cls, path: Path | str) -> Document:
        """Parse a file safely (raises DocumentError); the id is the file name without `.xml`."""
        return cls(document_id(path), parse_xml(Path(path)).getroot())

    @classmethod
    def from_bytes(cls, data: bytes, doc_id: str, name: str | None = None) -> Document:
        """Parse XML bytes safely; `name` appears in errors (default: the id)."""
        return cls(doc_id, parse_xml(data, name=name or doc_id).getroot())

    # -- path look-ups ------------------------------------------------------------------------

    def index(self, path: str) -> int:
        """Index in `elements` of the element at `path` (`[1]` may be left out).

        Raises PathError (a KeyError) naming the path when there is no such element.
        """
        found = self._index.get(path)
        if found is None:
            found = self._index.get(normalise_path(path))
        if found is None:
            raise PathError(f"no element at {path!r} in document {self.id}")
        return found

    def element(self, path: str) -> Element:
        """The element at `path`."""
        return self.elements[self.index(path)]

    def span(self, path: str) -> tuple[int, int]:
        """`(start, end)` of the element at `path`."""
        element = self.element(path)
        return element.start, element.end

    def path_to_fol(self, path: str) -> tuple[int, int]:
        """`(offset, length)` of the element at `path`, as written in FOL files."""
        element = self.element(path)
        return element.start, element.size

    # -- offset look-ups ----------------------------------------------------------------------

    def innermost(self, offset: int) -> Element | None:
        """The deepest element with `start <= offset < end`, or None (see the module notes)."""
        index = self._innermost_index(offset)
        return None if index < 0 else self.elements[index]

    def _innermost_index(self, offset: int) -> int:
        if not 0 <= offset < len(self.text):
            return -1
        # The last element (in preorder) starting at or before `offset` is the answer or one of
        # its descendants; walk up until an element extends past `offset`.
        index = bisect_right(self._starts, offset) - 1
        while index >= 0 and self.elements[index].end <= offset:
            index = self.elements[index].parent
        return index

    def ancestors_at(self, offset: int) -> list[Element]:
        """Every element containing `offset`, root first."""
        chain: list[Element] = []
        index = self._innermost_index(offset)
        while index >= 0:
            chain.append(self.elements[index])
            index = self.elements[index].parent
        return chain[::-1]

    def touching(self, start: int, end: int) -> list[Element]:
        """Elements sharing at least one character with `[start, end)`, in document order."""
        start, end = max(start, 0), min(end, len(self.text))
        if start >= end:
            return []
        # elements that begin before `start` and reach into the passage contain `start`...
        touched = [element for element in self.ancestors_at(start) if element.start < start]
        # ...and every other touching element begins inside the passage.
        first, last = bisect_left(self._starts, start), bisect_left(self._starts, end)
        touched.extend(e for e in self.elements[first:last] if e.end > e.start)
        return touched

    # -- points (XPath with an offset) --------------------------------------------------------

    def resolve_point(self, point: str | Point) -> int:
        """The text offset of a point `path[/text()[k]][.N]` (grammar in text/paths.py)."""
        parsed = parse_point(point) if isinstance(point, str) else point
        element = self.element(parsed.path)
        if parsed.text_node is None:
            base, limit = element.start, element.end
        else:
            node = self._text_node(parsed)
            base, limit = node.start, node.end
        offset = parsed.offset or 0
        if base + offset > limit:
            raise PathError(f"offset {offset} is past the end of {point!r}")
        return base + offset

    def locate(self, expression: str) -> tuple[int, int]:
        """`(offset, length)` of an element path, a text node (`path/text()[k]`) or a point.

        A point with a `.N` offset is a position, so its length is 0.
        """
        parsed = parse_point(expression)
        if parsed.offset is not None:
            return self.resolve_point(parsed), 0
        if parsed.text_node is None:
            return self.path_to_fol(parsed.path)
        node = self._text_node(parsed)
        return node.start, node.end - node.start

    def range_to_fol(self, start_point: str, end_point: str) -> tuple[int, int]:
        """`(offset, length)` of the passage from `start_point` up to (excluding) `end_point`."""
        start, end = self.resolve_point(start_point), self.resolve_point(end_point)
        if end < start:
            raise PathError(f"{end_point!r} comes before {start_point!r}")
        return start, end - start

    def _text_node(self, point: Point) -> TextNode:
        index = self.index(point.path)
        nodes = self._text_nodes_of(index)
        wanted = point.text_node or 1
        if wanted > len(nodes):
            raise PathError(f"{point.path} has {len(nodes)} text node(s), not {wanted}")
        return nodes[wanted - 1]

    def _text_nodes_of(self, index: int) -> list[TextNode]:
        if self._nodes_of is None:
            self._nodes_of = {}
            for start, end, parent in self._nodes:
                self._nodes_of.setdefault(parent, []).append(TextNode(start, end, parent))
        return self._nodes_of.get(index, [])

    # -- units --------------------------------------------------------------------------------

    @property
    def utf16(self) -> Utf16Offsets:
        """Conversions between code points and UTF-16 units for this text (built once)."""
        if self._utf16 is None:
            self._utf16 = Utf16Offsets(self.text)
        return self._utf16

    def __repr__(self) -> str:
        return f"Document({self.id!r}, {len(self.text)} characters, {len(self.elements)} elements)"


def load_document(path: Path | str) -> Document:
    """Parse a collection file into a Document (raises DocumentError)."""
    return Document.from_file(path)
