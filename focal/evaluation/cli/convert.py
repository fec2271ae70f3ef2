"""`focal convert`: rewrite runs in another INEX format.

Errors in the input are one line on stderr (`file:line: what was expected`) and exit code 2;
warnings (e.g. split topic blocks) go to stderr and do not change the exit code.
"""

from __future__ import annotations

import io
from pathlib import Path

import click

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.convert import to_fol
from focal.evaluation.formats.fol.runs import read_run, write_run
from focal.evaluation.output.files import atomic_write

INPUT_ERROR = 2


@click.group()
def convert() -> None:
    """Convert INEX files between formats."""


@convert.command("run")
@click.option(
    "--collection",
    type=click.Path(exists=True, path_type=Path),
    help="Folder of <article>.xml documents, or a collection in another format "
    "(docs/collections.md); needed for element, article and segment results.",
)
@click.option(
    "--segments",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Segment file (JSON Lines, start_char/end_char): RUN_FILE's ids are segment ids.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write here (atomically) instead of on stdout.",
)
@click.argument("run_file", type=click.Path(dir_okay=False, path_type=Path))
def convert_run(
    collection: Path | None, segments: Path | None, output: Path | None, run_file: Path
) -> None:
    """Write RUN_FILE (FOL, element, article, segment or INEX XML submission) as an 8-field
    FOL run."""
    from focal.evaluation.formats.collections.lookup import documents_at
    from focal.evaluation.formats.collections.segments import (
        read_segments,
        segment_ids,
        segment_run,
    )

    try:
        run = read_run(run_file)
        for warning in run.warnings:
            click.echo(f"focal convert: warning: {_one_line(warning)}", err=True)
        if run.kind != "fol":
            if collection is None:
                raise FormatError(
                    run_file, None, f"{run.kind} results need --collection to become FOL results"
                )
            if segments is not None:
                table = read_segments(segments, segment_ids(run))
                wanted = {segment.document for segment in table.values()}
                run = segment_run(run, table, documents_at(collection, wanted))
            else:
                run = to_fol(run, documents_at(collection, segment_ids(run)))
    except FormatError as error:
        click.echo(f"focal convert: {_one_line(str(error))}", err=True)
        raise click.exceptions.Exit(INPUT_ERROR) from None
    text = io.StringIO()
    write_run(run, text)
    if output is None:
        click.echo(text.getvalue(), nl=False)
    else:
        atomic_write(output, text.getvalue())


def _one_line(message: str) -> str:
    return " ".join(message.split())
