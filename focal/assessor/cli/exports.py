"""`focal export qrels`: judgements as FOL, element or TREC qrels (`campaign.results.exporting`,
which the organiser's Export page calls too), and with `--notes FILE` the assessors' flags and
notes beside them (`campaign.results.notes_export`). `focal export` mirrors `focal import`;
`focal export-qrels`, the name of earlier versions, is kept as a hidden alias.

An unknown topic or assessor is an error (exit code 2). Nothing judged yet is not: the file is
written (empty) and a warning on stderr says so, exit code 0, so that a nightly export of a
campaign that has not started does not fail (docs/assessor.md, "Export").
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from focal.assessor.cli.support import friendly_errors, transaction


@click.group("export")
def export_group() -> None:
    """Export judgements from the database: qrels (with flags and notes)."""


@export_group.command("qrels")
@click.option(
    "--format",
    "format_",
    type=click.Choice(["fol", "elements", "trec"]),
    default="fol",
    show_default=True,
    help="fol: INEX 2009/2010 qrels; elements: per-element relevance; trec: article qrels.",
)
@click.option("--topic", help="Only this topic.")
@click.option(
    "--assessor",
    help="Only this assessor's judgements (a topic judged by two needs a choice); "
    "an unknown name is an error.",
)
@click.option(
    "--choose",
    "choices",
    multiple=True,
    metavar="TOPIC=NAME",
    help="The assessor of one topic judged by two (repeatable; overrides --assessor there).",
)
@click.option(
    "--with-assessors",
    is_flag=True,
    help="fol: every assessor's judgements, the assessor's name in column two instead of Q0.",
)
@click.option(
    "--adjudicated",
    is_flag=True,
    help="fol: gold judgements where adjudicated; elsewhere the topic's first assessor by name.",
)
@click.option("--xml", is_flag=True, help="elements: the INEX 2005/2006 assessment XML.")
@click.option(
    "--offset-unit",
    type=click.Choice(["codepoint", "utf16", "utf8"]),
    default="codepoint",
    show_default=True,
    help="fol: unit of offsets and lengths (utf16/utf8 need the collection's texts).",
)
@click.option("--graded", is_flag=True, help="trec: grades 0-3 by highlighted share, not 0/1.")
@click.option("--all-elements", is_flag=True, help="elements: also elements without highlight.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write to FILE (atomically) instead of standard output.",
)
@click.option(
    "--notes",
    "notes_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the flags and notes (of --topic, --assessor) to FILE, tab-separated "
    "(docs/formats.md).",
)
@click.option(
    "--raw-cells",
    is_flag=True,
    help="Write the notes file's cells as they are, without the apostrophe that keeps a "
    "spreadsheet from running one that starts with =, +, -, @ as a formula.",
)
@friendly_errors
def export_qrels(
    format_: str,
    topic: str | None,
    assessor: str | None,
    choices: tuple[str, ...],
    with_assessors: bool,
    adjudicated: bool,
    xml: bool,
    offset_unit: str,
    graded: bool,
    all_elements: bool,
    output: Path | None,
    notes_file: Path | None,
    raw_cells: bool,
) -> None:
    """Write every judged article as qrels: FOL (default; not relevant ones as 0 lines),
    per-element relevance (tab-separated or INEX XML), or TREC article qrels."""
    from focal.assessor.campaign.results.exporting import (
        ExportRequest,
        export_qrels,
        parse_choices,
    )
    from focal.assessor.campaign.results.notes_export import notes_text
    from focal.evaluation.output.files import atomic_write

    wanted = ExportRequest(
        format=format_,
        topic=topic,
        assessor=assessor,
        choices=parse_choices(choices),
        with_assessors=with_assessors,
        adjudicated=adjudicated,
        xml=xml,
        offset_unit=offset_unit,
        graded=graded,
        all_elements=all_elements,
    )
    with transaction() as session:
        text = export_qrels(session, wanted)
        notes = None if notes_file is None else notes_text(session, topic, assessor, raw=raw_cells)
    if not text.strip():
        narrowed = "".join(
            f" {option} {value}"
            for option, value in (("--topic", topic), ("--assessor", assessor))
            if value is not None
        )
        click.echo(f"focal: warning: nothing judged yet{narrowed}: the qrels are empty", err=True)
    if notes_file is not None and notes is not None:
        atomic_write(notes_file, notes)
    if output is None:
        sys.stdout.write(text)
    else:
        atomic_write(output, text)


export_qrels_alias = click.Command(
    "export-qrels",
    callback=export_qrels.callback,
    params=export_qrels.params,
    help=export_qrels.help,
    hidden=True,
)
