"""An independent implementation of spec section 1, used only by tests.

It shares no code with `focal.evaluation.text.document`: the stdlib SAX parser (expat) instead of
lxml, events instead of a tree, character counting instead of string slicing. Namespace processing
is off, so element names arrive exactly as written (`mml:math`); external entities and external
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


JATS_DOCTYPE = (
    '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD '
    'v1.1d1 20130915//EN"  "JATS-archivearticle1.dtd">'
)

# Small documents, one per corner of spec section 1. Tests of the text model, of the oracle and
# of `focal doc` all run on them.
EDGE_CASES: dict[str, bytes] = {
    "astral": "<a>x\U0001f600y<b>\U0001d400</b>z</a>".encode(),
    "cdata": b"<a>1<![CDATA[<2>&]]>3<b><![CDATA[]]></b></a>",
    "comments-and-pis": (
        b"<?before pi?><!--before--><a>x<!-- c1 -->y<?t data?>z<b/><!--c2-->w</a><!--after-->"
    ),
    "prefixed-namespaces": (
        b'<article xmlns:mml="http://www.w3.org/1998/Math/MathML" '
        b'xmlns:xlink="http://www.w3.org/1999/xlink"><p><mml:math><mml:mi>x</mml:mi></mml:math>'
        b'<mml:math/><xref xlink:href="#f1">1</xref></p></article>'
    ),
    "default-namespace": (
        b'<root xmlns="urn:d" xmlns:d="urn:d"><x>1</x><d:x>2</d:x><x>3</x><y xmlns="">4</y></root>'
    ),
    "same-local-names": (
        b'<r xmlns:p="urn:p" xmlns:q="urn:p"><x/><x xmlns="urn:a"/><p:x/><q:x/><x/></r>'
    ),
    "whitespace-only": b"<a>\n  <b> </b>\n\t<c>\n</c>  \n</a>",
    "entities-and-references": b"<a>&lt;&gt;&amp;&apos;&quot;&#x1F600;&#13;&#10;&#9;</a>",
    "same-name-siblings": b"<a><p>1</p><q/><p>2</p><p>3<p>4</p></p></a>",
    "empty-elements": b"<a><e/>x<e></e><f><g/></f><h/></a>",
    "external-doctype": (JATS_DOCTYPE + "<article><front><p>t</p></front></article>").encode(),
    "crlf-line-ends": b"<a>\r\nx\r\n<b>\ry</b></a>",
    "latin-1": b'<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\xe9</a>',
    "utf-16": '<?xml version="1.0" encoding="UTF-16"?><a>\u00e9\U0001f600</a>'.encode("utf-16"),
    "deep": b"<d>" * 200 + b"x" + b"</d>" * 200,
    "text-only-root": b"<only>just text</only>",
    "empty-root": b"<only/>",
}
