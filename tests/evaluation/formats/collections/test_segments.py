"""Segment ids resolved through a segment file, runs of segments, and RAG answers as runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.collections.answers import (
    answer_runs,
    citation_resolver,
    read_answers,
)
from focal.evaluation.formats.collections.lookup import documents_at
from focal.evaluation.formats.collections.segments import read_segments, segment_run
from focal.evaluation.formats.fol.runs import read_run

from . import material

# Segments over lamp-1's own text field (material.JSONL_RECORDS[0]["text"]), MS MARCO style.
RECORD_TEXT = str(material.JSONL_RECORDS[0]["text"])
SEGMENTS = [
    {"docid": "lamp-1#0", "start_char": 0, "end_char": 13, "segment": "A lamp glows."},
    {"docid": "lamp-1#1", "start_char": 25, "end_char": len(RECORD_TEXT)},
    {"segment_id": "s-9", "doc_id": "lamp-2", "start_char": 0, "end_char": 5},
]


def write_segments(path: Path, records: list[dict[str, object]] = SEGMENTS) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_segment_run_becomes_the_segments_ranges(tmp_path: Path) -> None:
    collection = material.write_jsonl(tmp_path / "lamps.jsonl")
    segments = read_segments(write_segments(tmp_path / "segments.jsonl"))
    assert set(segments) == {"lamp-1#0", "lamp-1#1", "s-9"}
    run_file = tmp_path / "seg.run"
    run_file.write_text("7 Q0 lamp-1#1 1 2.5 r\n7 Q0 s-9 2 1.5 r\n8 Q0 lamp-1#0 1 1 r\n")
    run = segment_run(read_run(run_file), segments, documents_at(collection, {"lamp-1", "lamp-2"}))
    text = material.JSONL_TEXTS["lamp-1"]
    body = text.index("A lamp")  # the title and its blank line come first
    got = {
        (topic, r.article, r.rank): text_of(r.article, r.start, r.length)
        for topic, results in run.topics.items()
        for r in results
    }
    assert run.kind == "fol"
    assert got == {
        ("7", "lamp-1", 1): RECORD_TEXT[25:],
        ("7", "lamp-2", 2): "No ti",
        ("8", "lamp-1", 1): "A lamp glows.",
    }
    assert run.topics["8"][0].start == body


def text_of(article: str, start: int | None, length: int | None) -> str:
    assert start is not None and length is not None
    return material.JSONL_TEXTS[article][start : start + length]


def test_unknown_segments_and_bad_ranges_name_the_line(tmp_path: Path) -> None:
    collection = material.write_jsonl(tmp_path / "lamps.jsonl")
    documents = documents_at(collection, {"lamp-1"})
    segments = read_segments(write_segments(tmp_path / "segments.jsonl"))
    run_file = tmp_path / "seg.run"
    run_file.write_text("7 Q0 lamp-1#0 1 2 r\n7 Q0 lamp-1#5 2 1 r\n")
    with pytest.raises(FormatError, match=r"seg.run:2: lamp-1#5 is not a segment"):
        segment_run(read_run(run_file), segments, documents)
    long = read_segments(
        write_segments(tmp_path / "long.jsonl", [{"docid": "lamp-1#0", "start_char": 0,
                                                  "end_char": len(RECORD_TEXT) + 1}])
    )  # fmt: skip
    with pytest.raises(FormatError, match=r"seg.run:1: segment lamp-1#0 ends at"):
        segment_run(read_run(run_file), long, documents)
    bad = write_segments(tmp_path / "bad.jsonl", [{"docid": "x#1", "start_char": 4, "end_char": 2}])
    with pytest.raises(FormatError, match=r"bad.jsonl:1: expected end_char 2 >= start_char 4"):
        read_segments(bad)


def test_answers_cite_segments_and_documents(tmp_path: Path) -> None:
    collection = material.write_jsonl(tmp_path / "lamps.jsonl")
    segments = read_segments(write_segments(tmp_path / "segments.jsonl"))
    answers_file = tmp_path / "rag.jsonl"
    answer = {
        "run_id": "rag-a",
        "topic_id": 7,
        "references": ["lamp-1#0", "lamp-2"],
        "answer": [
            {"text": "Lamps glow.", "citations": [0]},
            {"text": "Titles are optional.", "citations": [1, "lamp-1#0"]},
        ],
    }
    answers_file.write_text(json.dumps(answer, indent=2), encoding="utf-8")  # pretty-printed
    (read,) = read_answers(answers_file)
    assert read.topic == "7" and read.cited_ids() == ["lamp-1#0", "lamp-2"]
    assert read.sentences[1].citations == ("lamp-2", "lamp-1#0")
    resolve = citation_resolver(segments, documents_at(collection, {"lamp-1", "lamp-2"}))
    (run,) = answer_runs([read], resolve)
    assert [(r.article, r.rank, r.start, r.length) for r in run.topics["7"]] == [
        ("lamp-1", 1, 12, 13),
        ("lamp-2", 2, 0, len(material.JSONL_TEXTS["lamp-2"])),
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"run_id": "r", "answer": []}', "expected topic_id"),
        ('{"topic_id": "1", "answer": [{"text": "x", "citations": [3]}]}', "citation 3 is not"),
        ('{"topic_id": "1", "answer": [{"citations": []}]}', "expected each sentence"),
    ],
)
def test_bad_answers_name_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "answers.jsonl"
    path.write_text('{"topic_id": "0", "answer": []}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(FormatError, match=rf"answers.jsonl:2: {message}"):
        read_answers(path)
