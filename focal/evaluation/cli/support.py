"""`focal support QRELS ANSWERS`: how much of what RAG answers cite supports them.

docs/collections.md, "Support of RAG answers". QRELS are FOL qrels of the supporting characters
of the cited documents (what the assessor's export gives after support judging); ANSWERS a file
of answers with citations (`formats.collections.answers`). `--collection` finds the cited
documents (their length, the start of their body for segments), `--segments` the segment file
that defines segment ids. The measures are `measures.support`. `--level` picks the rows:
`sentence` (a row per sentence), `answer` (a row per answer, the default) or `run` (a row per
run). Errors are one line on stderr and exit code 2.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Literal

import click

from focal.evaluation.errors import FormatError
from focal.evaluation.output.tables import table_lines

LEVELS = ("sentence", "answer", "run")
MEANINGS = {
    "cited": "characters cited",
    "supported": "cited characters that are supporting",
    "supporting": "supporting characters (of the cited documents for a sentence, of the topic "
    "for an answer)",
}


@click.command(
    "support",
    short_help="How much of what RAG answers cite supports them: per sentence, answer or run.",
)
@click.argument("qrels", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("answers", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--collection",
    required=True,
    type=click.Path(exists=True, path_type=Path),
    help="The collection of the cited documents (any format of docs/collections.md).",
)
@click.option(
    "--segments",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Segment file (JSON Lines, start_char/end_char) defining cited segment ids.",
)
@click.option("--level", type=click.Choice(LEVELS), default="answer", show_default=True)
@click.option("--format", "output_format", type=click.Choice(["text", "tsv"]), default="text")
def support_command(
    qrels: Path,
    answers: Path,
    collection: Path,
    segments: Path | None,
    level: str,
    output_format: str,
) -> None:
    """Support of RAG answers: cited characters that are supporting, per sentence, answer, run."""
    from focal.evaluation.formats.collections.answers import citation_resolver, read_answers
    from focal.evaluation.formats.collections.lookup import documents_at
    from focal.evaluation.formats.collections.segments import read_segments
    from focal.evaluation.formats.fol.qrels import read_qrels
    from focal.evaluation.measures.support import answer_support, run_support

    try:
        judged = read_qrels(qrels)
        read = read_answers(answers)
        ids = {c for answer in read for c in answer.cited_ids()}
        table = read_segments(segments, ids) if segments is not None else {}
        wanted = {table[c].document if c in table else c for c in ids}
        resolve = citation_resolver(table, documents_at(collection, wanted))
        scored = [answer_support(a, resolve, judged.get(a.topic, {})) for a in read]
    except FormatError as error:
        click.echo(f"focal support: {' '.join(str(error).split())}", err=True)
        raise click.exceptions.Exit(2) from None
    fmt: Literal["text", "tsv"] = "tsv" if output_format == "tsv" else "text"
    if level == "run":
        columns = ["run", "topics", "precision", "recall"]
        rows: list[list[object]] = [
            [r.run_id, r.topics, r.precision, r.recall] for r in run_support(scored)
        ]
        meanings = None
    else:
        columns = ["run", "topic", *(["sentence"] if level == "sentence" else [])]
        columns += ["precision", "recall", "cited", "supported", "supporting"]
        rows = []
        for answer in scored:
            parts = (
                [([answer.run_id, answer.topic, i], s) for i, s in enumerate(answer.sentences, 1)]
                if level == "sentence"
                else [([answer.run_id, answer.topic], answer.answer)]
            )
            for key, value in parts:
                rows.append(
                    [*key, value.precision, value.recall, value.cited, value.supported,
                     value.supporting]
                )  # fmt: skip
        meanings = MEANINGS if fmt == "text" else None
    sys.stdout.writelines(table_lines(columns, rows, fmt, meanings=meanings))
