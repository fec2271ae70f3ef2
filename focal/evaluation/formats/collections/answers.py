"""RAG answers with citations: read, and turned into runs for pooling (docs/collections.md,
"RAG answers").

An answers file is JSON Lines, one answer a line (a file holding one JSON object or an array of
them is read too), in the shape of the TREC 2024 RAG track's submissions:

    {"run_id": "r1", "topic_id": "7", "references": ["d1#0", "d3"],
     "answer": [{"text": "First sentence.", "citations": [0]},
                {"text": "Second.", "citations": ["d3", 0]}]}

`answer` (or `sentences`) lists the sentences; each cites ids directly or by their position in
`references`. An id is a segment id when the segment file knows it (the segment's characters are
cited), else a document id (the whole document is cited). `run_id` defaults to the file name
without its extension; `topic_id` (or `qid`) is required.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.bounds import RUN_ID_LENGTH, TOPIC_ID_LENGTH, check_id
from focal.evaluation.formats.collections.lines import numbered_lines
from focal.evaluation.formats.collections.segments import Segment, segment_range
from focal.evaluation.formats.convert import DocumentSource
from focal.evaluation.formats.records import Result, Run

Cited = tuple[str, int, int]
"""What a citation cites: `(document, start, end)` over Focal's text of the document."""
Resolver = Callable[[str, str, int], Cited]
"""A citation id, the answers file and its line → what it cites."""


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence of an answer and the ids it cites, in the order given."""

    text: str
    citations: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer of one run to one topic."""

    run_id: str
    topic: str
    sentences: tuple[Sentence, ...]
    file: str
    line: int

    def cited_ids(self) -> list[str]:
        """Every cited id once, in the order of first citation."""
        return list(dict.fromkeys(c for sentence in self.sentences for c in sentence.citations))


def _records(path: str | Path) -> Iterator[tuple[int, object]]:
    """`(line, value)` of every JSON value: the lines of JSON Lines, or one whole-file value."""
    name = str(path)
    lines = list(numbered_lines(path))
    text = "".join(line for _, line in lines)
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, list):
        yield from ((1, item) for item in whole)
        return
    if isinstance(whole, dict):  # one object, on one line or pretty-printed
        yield 1, whole
        return
    for number, line in lines:
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as error:
            raise FormatError(name, number, f"expected a JSON object, {error.msg}") from None


def _citation(value: object, references: list[object], name: str, line: int) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value < len(references):
            raise FormatError(name, line, f"citation {value} is not a position in references")
        value = references[value]
    if not isinstance(value, str) or not value:
        raise FormatError(name, line, f"expected a citation id or position, found {value!r}")
    return value


def _answer(record: object, name: str, line: int, default_run: str) -> Answer:
    if not isinstance(record, dict):
        raise FormatError(name, line, "expected a JSON object (an answer)")
    topic = record.get("topic_id", record.get("qid"))
    if isinstance(topic, int) and not isinstance(topic, bool):
        topic = str(topic)
    if not isinstance(topic, str):
        raise FormatError(name, line, "expected topic_id as a string")
    run_id = record.get("run_id", default_run)
    if not isinstance(run_id, str):
        raise FormatError(name, line, "expected run_id as a string")
    references = record.get("references", [])
    sentences = record.get("answer", record.get("sentences"))
    if not isinstance(references, list) or not isinstance(sentences, list):
        raise FormatError(name, line, "expected answer as a list of sentences (references a list)")
    parsed: list[Sentence] = []
    for sentence in sentences:
        if not isinstance(sentence, dict) or not isinstance(sentence.get("text"), str):
            raise FormatError(
                name, line, 'expected each sentence as {"text": ..., "citations": [...]}'
            )
        citations = sentence.get("citations", [])
        if not isinstance(citations, list):
            raise FormatError(name, line, "expected citations as a list")
        ids = tuple(_citation(c, references, name, line) for c in citations)
        parsed.append(Sentence(sentence["text"], ids))
    return Answer(
        check_id(run_id, "run id", RUN_ID_LENGTH, name, line),
        check_id(topic, "topic id", TOPIC_ID_LENGTH, name, line),
        tuple(parsed),
        name,
        line,
    )


def read_answers(path: str | Path) -> list[Answer]:
    """Every answer of an answers file; one topic answered twice by a run is a FormatError."""
    name = str(path)
    default_run = Path(path).name.split(".", 1)[0]
    answers: list[Answer] = []
    seen: dict[tuple[str, str], int] = {}
    for number, record in _records(path):
        answer = _answer(record, name, number, default_run)
        key = (answer.run_id, answer.topic)
        if key in seen:
            raise FormatError(
                name, number, f"run {key[0]} answers topic {key[1]} again (line {seen[key]})"
            )
        seen[key] = number
        answers.append(answer)
    if not answers:
        raise FormatError(name, None, "holds no answer")
    return answers


def citation_resolver(segments: Mapping[str, Segment], documents: DocumentSource) -> Resolver:
    """What each citation cites: a segment's characters, else its whole document."""

    def resolve(identifier: str, file: str, line: int) -> Cited:
        segment = segments.get(identifier)
        if segment is not None:
            return segment_range(segment, documents, file, line)
        return identifier, 0, len(documents.document(identifier, file, line).text)

    return resolve


def answer_runs(answers: list[Answer], resolve: Resolver) -> list[Run]:
    """The answers as FOL runs, one per run id: each topic's cited ranges in the order of first
    citation (scores falling with the rank), so that pools hold what the answers cite."""
    runs: dict[str, Run] = {}
    for answer in answers:
        run = runs.setdefault(answer.run_id, Run(answer.run_id, answer.file, "fol"))
        cited = answer.cited_ids()
        results = run.topics.setdefault(answer.topic, [])
        for rank, identifier in enumerate(cited, start=1):
            article, start, end = resolve(identifier, answer.file, answer.line)
            results.append(
                Result(answer.topic, article, rank, float(len(cited) - rank + 1), answer.line,
                       start, end - start)
            )  # fmt: skip
    return list(runs.values())
