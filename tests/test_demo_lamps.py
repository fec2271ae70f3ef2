"""The demo's second collection (demo/lamps/): reproducible, its segments are the paragraphs of
its documents, and its segment run and answers go through the assessor's imports and pools."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main
from focal.evaluation.formats.collections.answers import read_answers
from focal.evaluation.formats.collections.detect import read_collection
from focal.evaluation.formats.collections.documents import body_start
from focal.evaluation.formats.collections.lookup import documents_at
from focal.evaluation.formats.collections.segments import read_segments, segment_run
from focal.evaluation.formats.fol.runs import read_run

LAMPS = Path(__file__).resolve().parents[1] / "demo" / "lamps"


def maker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_lamps", LAMPS / "make_lamps.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_files_are_what_make_lamps_writes(tmp_path: Path) -> None:
    maker().main(tmp_path)
    for name in ("lamps.jsonl", "segments.jsonl", "topics.xml"):
        assert (tmp_path / name).read_bytes() == (LAMPS / name).read_bytes(), name


def test_each_segment_is_a_paragraph_of_its_document() -> None:
    documents = {record.id: record.document() for record in read_collection(LAMPS / "lamps.jsonl")}
    assert len(documents) == 6
    segments = read_segments(LAMPS / "segments.jsonl")
    for line in (LAMPS / "segments.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        segment = segments[record["docid"]]
        document = documents[segment.document]
        begin = body_start(document)
        assert document.text[begin + segment.start : begin + segment.end] == record["segment"]
    paragraphs = sum(1 for d in documents.values() for e in d.elements if e.tag == "p")
    assert paragraphs == len(segments)


def test_the_segment_run_and_answers_name_known_segments() -> None:
    run = read_run(LAMPS / "segments.run")
    segments = read_segments(LAMPS / "segments.jsonl")
    wanted = {s.document for s in segments.values()}
    converted = segment_run(run, segments, documents_at(LAMPS / "lamps.jsonl", wanted))
    assert set(converted.topics) == {"9101", "9102"}
    cited = {c for answer in read_answers(LAMPS / "answers.jsonl") for c in answer.cited_ids()}
    assert cited - set(segments) == {"lamp-notes"}  # a whole document, cited as such


@pytest.mark.slow
def test_the_readme_commands_pool_the_segments(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("FOCAL_DATABASE_URL", f"sqlite:///{tmp_path / 'lamps.sqlite'}")
    monkeypatch.setenv("FOCAL_SECRET_KEY", "test")
    monkeypatch.setenv("FOCAL_INSTANCE", str(tmp_path / "instance"))
    runner = CliRunner()

    def focal(*args: str) -> str:
        result = runner.invoke(main, list(args))
        assert result.exit_code == 0, (result.output, result.stderr)
        return result.output

    segments = str(LAMPS / "segments.jsonl")
    focal("init-db")
    assert "imported 6 documents" in focal("import", "collection", str(LAMPS / "lamps.jsonl"))
    focal("import", "topics", str(LAMPS / "topics.xml"))
    focal("import", "runs", "--segments", segments, str(LAMPS / "segments.run"))
    said = focal("import", "answers", "--segments", segments, str(LAMPS / "answers.jsonl"))
    assert "imported answers lamps-rag: 5 cited results" in said
    built = focal("pool", "build", "--size", "10")
    # 9101: oil, gas, notes, electric (the answers cite no other); 9102: safety, gas, signal
    assert "topic 9101: 4 articles" in built and "topic 9102: 3 articles" in built
