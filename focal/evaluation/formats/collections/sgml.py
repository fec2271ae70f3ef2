"""TREC SGML collections: `<DOC>` records, several a file (docs/collections.md, "TREC SGML").

`<DOC><DOCNO>id</DOCNO> ... <TEXT>body</TEXT></DOC>`: the id is DOCNO's content without its
surrounding spaces; the title the first `<HEADLINE>`, `<TITLE>` or `<HEAD>`, trimmed; the body
the contents of every `<TEXT>` element, joined by a blank line. TREC's files are SGML, not XML
(undeclared entities, bare `&` and `<`), so they are not parsed as XML: inside the title and
the body, tags are dropped (`<P>` leaves its text) and character references and HTML's named
entities are decoded (`&amp;` is `&`; an unknown `&hyph;` stays as written). The body's text
is otherwise verbatim, line ends included; paragraphs are blank-line separated, as for text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.collections.documents import SourceDocument, build_tree, checked_id
from focal.evaluation.formats.collections.lines import numbered_lines

_OPEN = re.compile(r"<DOC>", re.IGNORECASE)
_CLOSE = re.compile(r"</DOC>", re.IGNORECASE)
_DOCNO = re.compile(r"<DOCNO>\s*(.*?)\s*</DOCNO>", re.IGNORECASE | re.DOTALL)
_TITLE = re.compile(r"<(HEADLINE|TITLE|HEAD)>(.*?)</\1>", re.IGNORECASE | re.DOTALL)
_TEXT = re.compile(r"<TEXT>(.*?)</TEXT>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"</?[A-Za-z!?][^<>]*>")


def sgml_text(markup: str) -> str:
    """Text of an SGML fragment: tags dropped, character and named references decoded.

    >>> sgml_text("<P>AT&amp;T &lt;b&gt; &#x1F600; &hyph;</P>")
    'AT&T <b> 😀 &hyph;'
    """
    return html.unescape(_TAG.sub("", markup))


def _document(block: str, name: str, line: int) -> SourceDocument:
    found = _DOCNO.search(block)
    if found is None:
        raise FormatError(name, line, "expected <DOCNO>id</DOCNO> in this <DOC>")
    identifier = checked_id(sgml_text(found.group(1)).strip(), name, line)
    heading = _TITLE.search(block)
    title = sgml_text(heading.group(2)).strip() if heading else None
    body = "\n\n".join(sgml_text(text.group(1)) for text in _TEXT.finditer(block))
    return SourceDocument(identifier, build_tree(title, body), name, line)


def read_sgml(path: str | Path) -> Iterator[SourceDocument]:
    """The `<DOC>` records of a TREC SGML file (gzip read as is), one at a time."""
    name = str(path)
    pieces: list[str] = []
    first = 0  # the line of the open <DOC>, 0 between documents
    for number, line in numbered_lines(path):
        rest = line
        while rest:
            if not first:
                opening = _OPEN.search(rest)
                before = rest if opening is None else rest[: opening.start()]
                if before.strip():
                    raise FormatError(
                        name, number, f"expected <DOC>, found {before.strip()[:40]!r}"
                    )
                if opening is None:
                    break
                first, rest, pieces = number, rest[opening.end() :], []
            closing = _CLOSE.search(rest)
            if closing is None:
                pieces.append(rest)
                break
            pieces.append(rest[: closing.start()])
            yield _document("".join(pieces), name, first)
            first, rest = 0, rest[closing.end() :]
    if first:
        raise FormatError(name, first, "this <DOC> has no </DOC>")
