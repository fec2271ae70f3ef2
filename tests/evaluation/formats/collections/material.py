"""Our own small collections, one per format, and the texts Focal must read from them.

Each holds characters outside the BMP (offsets count code points), CRLF line ends and, in TREC
SGML and HTML, entities and character references; the expected texts are written out by hand
from the mapping of docs/collections.md, not computed by the code under test.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

ASTRAL = "\U0001d538"  # MATHEMATICAL DOUBLE-STRUCK CAPITAL A, outside the BMP
SMILE = "\U0001f600"

JSONL_RECORDS = [
    {
        "docid": "lamp-1",
        "title": f"The {ASTRAL} lamp",
        "text": f"A lamp glows.\r\nIt hums.\n\nOil & wick <burn> {SMILE} slowly.",
        "url": "ignored",
    },
    {"_id": "lamp-2", "contents": "No title here.\n\nSecond paragraph."},
]
JSONL_TEXTS = {
    "lamp-1": f"The {ASTRAL} lamp\n\n"
    f"A lamp glows.\r\nIt hums.\n\nOil & wick <burn> {SMILE} slowly.",
    "lamp-2": "No title here.\n\nSecond paragraph.",
}
# Paths and spans of lamp-1's elements, by hand: title 0..10, body 12..., two paragraphs.
LAMP_1_ELEMENTS = [
    ("/doc[1]", 0, 64),
    ("/doc[1]/title[1]", 0, 10),
    ("/doc[1]/body[1]", 12, 64),
    ("/doc[1]/body[1]/p[1]", 12, 35),
    ("/doc[1]/body[1]/p[2]", 37, 64),
]

TSV = f"docid\ttitle\ttext\r\nt1\tRiver {ASTRAL}\tWater runs {SMILE} downhill.\r\nt2\t\tPlain.\r\n"
TSV_TEXTS = {
    "t1": f"River {ASTRAL}\n\nWater runs {SMILE} downhill.",
    "t2": "Plain.",
}

SGML = (
    "<DOC>\r\n<DOCNO> FT-1 </DOCNO>\r\n<HEADLINE>AT&amp;T &amp; the caf&eacute;</HEADLINE>\r\n"
    "<TEXT>\r\n<P>Rates &lt; 5% &#x1F600; rose.</P>\r\n\r\n<P>Markets &hyph; closed.</P>\r\n"
    "</TEXT>\r\n</DOC>\r\n<DOC><DOCNO>FT-2</DOCNO><TEXT>Short.</TEXT></DOC>\r\n"
)
SGML_TEXTS = {
    "FT-1": "AT&T & the café\n\n\r\nRates < 5% \U0001f600 rose.\r\n\r\nMarkets &hyph; closed.\r\n",
    "FT-2": "Short.",
}

HTML_PAGES = {
    "garden": (
        "<!DOCTYPE html>\r\n<html><head><title>Garden &amp; pond</title>"
        "<style>p { color: red }</style><script>var hidden = 1;</script></head>\r\n"
        f"<body><h1>Roses {ASTRAL}</h1>\r\n<p>Red &amp; white <b>roses</b> &#128512;.</p>"
        "<script>ignored()</script><p hidden>not shown</p><!-- a comment -->"
        "<div>Tail text</div></body></html>"
    ),
}
HTML_TEXTS = {
    "garden": f"Garden & pond\n\nRoses {ASTRAL}\nRed & white roses {SMILE}.Tail text",
}

TEXT_FILES = {"notes": f"First line {ASTRAL}.\r\nStill first.\r\n\r\nSecond paragraph {SMILE}."}
TEXT_TEXTS = dict(TEXT_FILES)


def write_jsonl(path: Path, records: list[dict[str, object]] | None = None) -> Path:
    lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records or JSONL_RECORDS)
    if path.name.endswith(".gz"):
        path.write_bytes(gzip.compress(lines.encode("utf-8")))
    else:
        path.write_text(lines, encoding="utf-8", newline="")
    return path


def write_tsv(path: Path) -> Path:
    path.write_bytes(TSV.encode("utf-8"))
    return path


def write_sgml(path: Path) -> Path:
    path.write_bytes(SGML.encode("utf-8"))
    return path


def write_pages(folder: Path) -> Path:
    folder.mkdir()
    for name, page in HTML_PAGES.items():
        (folder / f"{name}.html").write_bytes(page.encode("utf-8"))
    return folder


def write_texts(folder: Path) -> Path:
    folder.mkdir()
    for name, text in TEXT_FILES.items():
        (folder / f"{name}.txt").write_bytes(text.encode("utf-8"))
    return folder


def write_all(folder: Path) -> dict[str, tuple[Path, dict[str, str]]]:
    """Every format written under `folder`: name -> (path, expected texts by id)."""
    folder.mkdir(parents=True, exist_ok=True)
    return {
        "jsonl": (write_jsonl(folder / "lamps.jsonl"), JSONL_TEXTS),
        "tsv": (write_tsv(folder / "rivers.tsv"), TSV_TEXTS),
        "trec": (write_sgml(folder / "news.sgml"), SGML_TEXTS),
        "html": (write_pages(folder / "pages"), HTML_TEXTS),
        "text": (write_texts(folder / "notes"), TEXT_TEXTS),
    }
