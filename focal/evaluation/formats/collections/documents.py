"""A document of any collection format as Focal's text model sees it (docs/collections.md).

Every reader in this package turns a record into the same small XML tree:

    <doc><title>TITLE</title>SEP<body>...</body></doc>

The title element (and the separator `SEP`, two newlines) is there only when the record has a
title; the body holds the record's text verbatim, with its paragraphs (text between blank
lines) as `<p>` elements, or, for HTML, its headings and paragraphs. The document's text is
then the concatenation of the tree's text (spec section 1), so a document of a JSON Lines file
has the text `title + "\\n\\n" + text`, and offsets into the record's own text field are offsets
into the body (`body_start`).

A character XML cannot hold (C0 controls other than tab, newline and carriage return, lone
surrogates, U+FFFE, U+FFFF) becomes U+FFFD, one code point for one, so offsets into the source
text stay offsets into Focal's text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from lxml import etree

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.bounds import ARTICLE_ID_LENGTH, id_problem
from focal.evaluation.text.document import Document

TITLE_SEPARATOR = "\n\n"
ROOT, TITLE, BODY, PARAGRAPH = "doc", "title", "body", "p"
BODY_PATH = "/doc[1]/body[1]"

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
# a blank line: a line end, any spaces or tabs, a line end (CRLF or LF), and any more of them
_BLANK_LINES = re.compile(r"\r?\n(?:[ \t\f\v]*\r?\n)+")


@dataclass(frozen=True, slots=True)
class SourceDocument:
    """A document read from a collection: its id, its tree, and where it was found."""

    id: str
    root: etree._Element
    file: str
    line: int | None  # the record's first line (None: the whole file is the document)

    def document(self) -> Document:
        """The document in Focal's text model."""
        return Document(self.id, self.root)


def xml_safe(text: str) -> str:
    """`text` with every character XML cannot hold replaced by U+FFFD (offsets unchanged).

    >>> xml_safe("a\\x00b\\r\\n")
    'a\\ufffdb\\r\\n'
    """
    return _NOT_XML.sub("\ufffd", text)


def checked_id(value: object, file: str, line: int | None) -> str:
    """A record's document id as a string Focal's files can carry, else a FormatError."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise FormatError(file, line, f"expected a document id (a string), found {value!r}")
    text = str(value)
    problem = id_problem(text, "document id", ARTICLE_ID_LENGTH)
    if problem is not None:
        raise FormatError(file, line, problem)
    return text


def paragraphs(text: str) -> Iterable[tuple[str, bool]]:
    """`text` cut into pieces that join to it: `(piece, is_paragraph)`, blank lines between.

    >>> list(paragraphs("one\\n\\ntwo\\r\\n \\r\\nthree"))
    [('one', True), ('\\n\\n', False), ('two', True), ('\\r\\n \\r\\n', False), ('three', True)]
    """
    begin = 0
    for found in _BLANK_LINES.finditer(text):
        if found.start() > begin:
            yield text[begin : found.start()], True
        yield found.group(), False
        begin = found.end()
    if begin < len(text):
        yield text[begin:], True


def append_text(parent: etree._Element, text: str) -> None:
    """Add `text` at the end of `parent`'s content: its text, or its last child's tail."""
    if not text:
        return
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def start_tree(title: str | None) -> tuple[etree._Element, etree._Element]:
    """The root `<doc>` with its `<title>` (when there is a title) and an empty `<body>`."""
    root = etree.Element(ROOT)
    if title:
        heading = etree.SubElement(root, TITLE)
        heading.text = xml_safe(title)
        heading.tail = TITLE_SEPARATOR
    return root, etree.SubElement(root, BODY)


def build_tree(title: str | None, text: str) -> etree._Element:
    """The tree of a record with a title and a plain text: paragraphs as `<p>` elements."""
    root, body = start_tree(title)
    for piece, is_paragraph in paragraphs(xml_safe(text)):
        if is_paragraph:
            etree.SubElement(body, PARAGRAPH).text = piece
        else:
            append_text(body, piece)
    return root


def body_start(document: Document) -> int:
    """Where the record's own text begins in the document's text (0 without a title)."""
    try:
        return document.span(BODY_PATH)[0]
    except KeyError:
        return 0
