"""Property: in every collection format, offsets round-trip highlight → FOL export → evaluate.

For any text in any format, the document's text holds the source's text at its body's offset;
the text survives being stored as the assessor stores it (an XML file per document); a highlight
over it, merged by the assessor's rule, written as FOL qrels and read back, names the same
characters; and a run of that passage scores character precision and recall 1.
"""

from __future__ import annotations

import html
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from focal.evaluation.api import evaluate
from focal.evaluation.formats.collections.detect import find_document
from focal.evaluation.formats.collections.documents import body_start
from focal.evaluation.formats.fol.qrels import read_qrels, write_qrels
from focal.evaluation.formats.records import Judgement, Result, Run, merge_passages
from focal.evaluation.text.document import Document

ALPHABET = st.sampled_from(
    ["a", "b", "Z", " ", "\t", "\n", "\r", "\r\n", "&", "<", ">", ";", "#", "é", "&amp;",
     "\U0001d538", "\U0001f600", "\u00a0", "x"]
)  # fmt: skip
FORMATS = ("jsonl", "tsv", "trec", "html", "text")


def write(folder: Path, format: str, body: str) -> tuple[Path, str]:
    """The collection of one document `d` whose own text is `body`, and that text as the
    format's mapping reads it (HTML reads CRLF and CR as LF)."""
    if format == "jsonl":
        path = folder / "c.jsonl"
        path.write_text(json.dumps({"id": "d", "title": "T", "text": body}) + "\n", "utf-8")
        return path, body
    if format == "tsv":
        path = folder / "c.tsv"
        path.write_bytes(f"d\t{body}\n".encode())
        return path, body
    if format == "trec":
        path = folder / "c.sgml"
        escaped = html.escape(body, quote=False)
        path.write_bytes(f"<DOC><DOCNO>d</DOCNO><TEXT>{escaped}</TEXT></DOC>\n".encode())
        return path, body
    if format == "html":
        (folder / "pages").mkdir()
        path = folder / "pages" / "d.html"
        escaped = html.escape(body, quote=False)
        path.write_bytes(f"<html><body><p>{escaped}</p></body></html>".encode())
        return folder / "pages", body.replace("\r\n", "\n").replace("\r", "\n")
    (folder / "notes").mkdir()
    (folder / "notes" / "d.txt").write_bytes(body.encode("utf-8"))
    return folder / "notes", body


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str, int, int]:
    format = draw(st.sampled_from(FORMATS))
    pieces = draw(st.lists(ALPHABET, min_size=1, max_size=40))
    if format == "tsv":  # a field holds no tab or line end
        pieces = [p for p in pieces if p not in ("\t", "\n", "\r", "\r\n")] or ["a"]
    body = "".join(pieces)
    start = draw(st.integers(0, len(body) - 1))
    end = draw(st.integers(start + 1, len(body)))
    return format, body, start, end


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_offsets_round_trip_highlight_export_evaluate(case: tuple[str, str, int, int]) -> None:
    format, body, start, end = case
    with tempfile.TemporaryDirectory() as folder:
        path, expected = write(Path(folder), format, body)
        record = find_document(path, "d")
        document = record.document()
        stored = Document.from_bytes(etree.tostring(record.root, encoding="utf-8"), "d")
        qrels_file = Path(folder) / "support.qrels"
        text = document.text
        begin = body_start(document)
        assert text[begin:] == expected
        assert stored.text == text
        # a highlight over the source's characters [start, end), clipped to what HTML kept
        low, high = begin + min(start, len(expected)), begin + min(end, len(expected))
        passages = merge_passages([(low, high)], text)
        relevant = sum(b - a for a, b in passages)
        bep = passages[0][0] if passages else None  # the assessor's default: the first start
        judgement = Judgement("1", "d", relevant, len(text), bep, tuple(passages), 0)
        with qrels_file.open("w", encoding="utf-8") as stream:
            write_qrels({"1": {"d": judgement}}, stream)
        read = read_qrels(qrels_file)["1"]["d"]
    assert read.passages == tuple(passages)
    for a, b in read.passages:  # the same characters, whitespace trimmed at the two ends
        assert text[a:b] == text[a:b].strip() and text[a:b] in text[low:high]
    if not passages:
        return
    (first, last) = (passages[0][0], passages[-1][1])
    run = Run("r", "", "fol", {"1": [Result("1", "d", 1, 1.0, 1, first, last - first)]})
    scores = evaluate({"1": {"d": read}}, run, task="focused").per_topic["r"]["1"]
    assert scores["char_prec"] == relevant / (last - first)
    assert scores["char_rec"] == 1.0
