"""An independent implementation of spec section 1, used only by tests.

It shares no code with `evaluation.documents`: the stdlib SAX parser (expat) instead of lxml,
events instead of a tree, character counting instead of string slicing. Namespace processing is
off, so element names arrive exactly as written (`mml:math`); external entities and external
parameter entities are off, so the external DOCTYPE of a JATS file is never fetched.
"""

from __future__ import annotations

import io
import xml.sax
import xml.sax.handler
from dataclasses import dataclass, field


@dataclass
class OracleResult:
    """The text and one `(path, start, end)` row per element in document order."""

    text: str
    rows: list[tuple[str, int, int]] = field(default_factory=list)


class _Handler(xml.sax.handler.ContentHandler):
    def __init__(self) -> None:
        super().__init__()
        self.chunks: list[str] = []
        self.length = 0
        self.rows: list[list[object]] = []
        self.open: list[int] = []  # row index of every open element
        self.counts: list[dict[str, int]] = [{}]

    def startElement(self, name: str, attrs: object) -> None:
        counts = self.counts[-1]
        counts[name] = counts.get(name, 0) + 1
        parent_path = str(self.rows[self.open[-1]][0]) if self.open else ""
        self.rows.append([f"{parent_path}/{name}[{counts[name]}]", self.length, None])
        self.open.append(len(self.rows) - 1)
        self.counts.append({})

    def endElement(self, name: str) -> None:
        self.rows[self.open.pop()][2] = self.length
        self.counts.pop()

    def characters(self, content: str) -> None:
        if self.open:  # character data outside the root is not part of the text
            self.chunks.append(content)
            self.length += len(content)


def oracle(data: bytes) -> OracleResult:
    """Text and element rows of an XML document, computed with SAX."""
    parser = xml.sax.make_parser()
    parser.setFeature(xml.sax.handler.feature_namespaces, False)
    parser.setFeature(xml.sax.handler.feature_external_ges, False)
    parser.setFeature(xml.sax.handler.feature_external_pes, False)
    handler = _Handler()
    parser.setContentHandler(handler)
    source = xml.sax.xmlreader.InputSource()
    source.setByteStream(io.BytesIO(data))
    parser.parse(source)
    text = "".join(handler.chunks)
    rows = [(str(path), int(str(start)), int(str(end))) for path, start, end in handler.rows]
    return OracleResult(text, rows)
