"""`focal measures`: the measure registry (`measures.registry.vocabulary.listing`), every name
with its other spellings, the tasks that evaluate it, the paper behind it and its definition;
narrowed by `--task` and `--vocabulary`. As text, each measure is a line of aligned columns and
its definition and reference under it, wrapped to the terminal's width; as tsv, one line a measure
(docs/measures.md has the same table)."""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections.abc import Sequence
from typing import Literal

import click

from focal.evaluation.measures.tasks import TASKS

VOCABULARIES = ("focal", "trec_eval", "ir_measures")
PASSAGE_TASKS = ("focused", "thorough", "ric", "bic", "t2i")


@click.command(
    "measures",
    short_help="List the measures: their names in each vocabulary, definitions and papers.",
)
@click.option(
    "--task",
    type=click.Choice(TASKS),
    default=None,
    help="Only the measures this `focal eval --task` evaluates.",
)
@click.option(
    "--vocabulary",
    type=click.Choice(VOCABULARIES),
    default=None,
    help="Only the measures this vocabulary spells: Focal's (MAP, P@k, MAiP), trec_eval's "
    "(map, P.k) or ir_measures' (AP, nDCG@k).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "tsv"]),
    default="text",
    show_default=True,
    help="text: a measure's columns, its definition under them, wrapped to the terminal; "
    "tsv: one line a measure.",
)
def measures_command(
    task: str | None, vocabulary: str | None, output_format: Literal["text", "tsv"]
) -> None:
    """Print the measure registry: every name, its other spellings (Focal's, trec_eval's,
    ir_measures'), the tasks that evaluate it, its definition and reference (docs/measures.md
    has the same table)."""
    from focal.evaluation.measures.registry.vocabulary import listing
    from focal.evaluation.output.tables import aligned_lines, table_lines

    entries = [
        e
        for e in listing()
        if (task is None or task in e.tasks)
        and (vocabulary is None or vocabulary in e.vocabularies)
    ]
    if output_format == "tsv":
        columns = ["name", "aliases", "definition", "reference", "tasks"]
        rows = [[e.name, e.aliases or "-", e.definition, e.reference, ",".join(e.tasks)]
                for e in entries]  # fmt: skip
        sys.stdout.writelines(table_lines(columns, rows, "tsv"))
        return
    heads = [["name", "aliases", "tasks", "definition (reference)"]]
    heads += [[e.name, e.aliases or "-", task_cell(e.tasks), ""] for e in entries]
    width = max(shutil.get_terminal_size((100, 24)).columns - 4, 40)
    lines = aligned_lines(heads)
    sys.stdout.write(next(lines) + "\n")
    for line, entry in zip(lines, entries, strict=True):
        sys.stdout.write(line + "\n")
        text = f"{entry.definition} ({entry.reference})"
        sys.stdout.writelines(f"    {part}\n" for part in textwrap.wrap(text, width))


def task_cell(tasks: Sequence[str]) -> str:
    """The tasks of a measure, the five passage tasks of INEX 2007-2010 as one word."""
    if all(name in tasks for name in PASSAGE_TASKS):
        tasks = ["passages", *(name for name in tasks if name not in PASSAGE_TASKS)]
    return ",".join(tasks)
