"""`focal doc`, `focal convert --segments` and `focal support` on collections in other formats
than XML articles (docs/collections.md), in-process with CliRunner; our own material."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from focal.assessor.cli.main import main as focal

from ..formats.collections import material


def run(*args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(focal, list(args))
    assert result.exit_code == code, (result.output, result.stderr)
    return result


@pytest.mark.parametrize("name", ["jsonl", "tsv", "trec", "html", "text"])
def test_doc_text_prints_each_documents_exact_text(tmp_path: Path, name: str) -> None:
    path, texts = material.write_all(tmp_path)[name]
    for doc, text in texts.items():
        if path.is_dir():
            suffix = ".html" if name == "html" else ".txt"
            printed = run("doc", "text", str(path / f"{doc}{suffix}")).stdout_bytes
        else:
            printed = run("doc", "text", str(path), "--id", doc).stdout_bytes
        assert printed == text.encode("utf-8")


def test_doc_elements_of_a_jsonl_record(tmp_path: Path) -> None:
    path = material.write_jsonl(tmp_path / "lamps.jsonl")
    printed = run("doc", "elements", str(path), "--id", "lamp-1", "--format", "jsonl").stdout
    rows = [tuple(line.split("\t")) for line in printed.splitlines()]
    assert rows == [(p, str(s), str(e)) for p, s, e in material.LAMP_1_ELEMENTS]


def test_doc_refuses_clearly(tmp_path: Path) -> None:
    path = material.write_jsonl(tmp_path / "lamps.jsonl")
    several = run("doc", "text", str(path), code=2)
    assert several.stderr == f"{path}: holds several documents: name one with --id\n"
    missing = run("doc", "text", str(path), "--id", "nope", code=2)
    assert missing.stderr == f"{path}: holds no document with the id 'nope'\n"
    assert "Traceback" not in several.output + missing.output


def write_rag(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    """The lamps, a segment file, support qrels and one answer citing a segment and a doc."""
    collection = material.write_jsonl(tmp_path / "lamps.jsonl")
    record = str(material.JSONL_RECORDS[0]["text"])
    segments = tmp_path / "segments.jsonl"
    segment = {"docid": "lamp-1#1", "start_char": 25, "end_char": len(record)}
    segments.write_text(json.dumps(segment) + "\n", encoding="utf-8")
    text = material.JSONL_TEXTS["lamp-1"]
    start = text.index("Oil")  # "Oil & wick" supports; nothing in lamp-2
    qrels = tmp_path / "support.qrels"
    qrels.write_text(
        f"5 Q0 lamp-1 10 {len(text)} {start} {start}:10\n"
        f"5 Q0 lamp-2 0 {len(material.JSONL_TEXTS['lamp-2'])}\n",
        encoding="utf-8",
    )
    answers = tmp_path / "rag.jsonl"
    answer = {"run_id": "rag", "topic_id": "5", "answer": [
        {"text": "Oil burns.", "citations": ["lamp-1#1"]},
        {"text": "Titles are optional.", "citations": ["lamp-2"]},
    ]}  # fmt: skip
    answers.write_text(json.dumps(answer) + "\n", encoding="utf-8")
    return collection, segments, qrels, answers


def test_support_per_sentence_answer_and_run(tmp_path: Path) -> None:
    collection, segments, qrels, answers = write_rag(tmp_path)
    common = ["--collection", str(collection), "--segments", str(segments), "--format", "tsv"]
    segment = len(material.JSONL_TEXTS["lamp-1"]) - material.JSONL_TEXTS["lamp-1"].index("Oil")
    other = len(material.JSONL_TEXTS["lamp-2"])
    sentences = run("support", str(qrels), str(answers), *common, "--level", "sentence").stdout
    assert sentences.splitlines() == [
        "run\ttopic\tsentence\tprecision\trecall\tcited\tsupported\tsupporting",
        f"rag\t5\t1\t{10 / segment!r}\t1.0\t{segment}\t10\t10",
        f"rag\t5\t2\t0.0\t-\t{other}\t0\t0",
    ]
    answer = run("support", str(qrels), str(answers), *common).stdout.splitlines()[1]
    assert answer == f"rag\t5\t{10 / (segment + other)!r}\t1.0\t{segment + other}\t10\t10"
    per_run = run("support", str(qrels), str(answers), *common, "--level", "run").stdout
    assert per_run.splitlines()[1] == f"rag\t1\t{10 / (segment + other)!r}\t1.0"


def test_support_names_a_bad_citation(tmp_path: Path) -> None:
    collection, _, qrels, answers = write_rag(tmp_path)
    answers.write_text('{"topic_id": "5", "answer": [{"text": "x", "citations": ["ghost"]}]}\n')
    refused = run("support", str(qrels), str(answers), "--collection", str(collection), code=2)
    assert refused.stderr == f"focal support: {answers}:1: document ghost is not in {collection}\n"
