"""`focal report`: the assessment analytics of spec section 10 (Piwowarski et al. 2008, §5)
from the database.

    focal report [--format text|tsv|json] [--plots DIR] [--topic T] [--assessor A] [--idle S]
                 [--raw-cells]

Every table of `campaign.report`, in order: `text` prints each under its title (`-` where a
value is undefined, an empty table says why); `tsv` writes `# name` before each table's header
and rows, ratios at full precision, text cells spreadsheet-safe unless `--raw-cells`; `json` is
`{"tables": [{name, title, columns, rows, empty}]}`. `--plots DIR` also writes each table's bar
charts as SVG files `NAME-COLUMN.svg`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from focal.assessor.cli.support import friendly_errors, transaction
from focal.evaluation.cli import numbers
from focal.evaluation.output.figures import drawing, write_figure
from focal.evaluation.output.spreadsheets import spreadsheet_cell
from focal.evaluation.output.tables import dump_json, table_lines

if TYPE_CHECKING:
    from focal.assessor.campaign.results.report.assessment_report import Report


def write_text(report: Report, stream: TextIO) -> None:
    """Each table under its title, columns aligned; an empty one says why."""
    for table in report.tables:
        stream.write(f"{table.title} ({table.source})\n" if table.source else f"{table.title}\n")
        if not table.rows:
            stream.write(f"  (empty: {table.empty})\n\n")
            continue
        for line in table_lines(table.columns, table.rows, "text", numbers_right=True):
            stream.write("  " + line)
        stream.write("\n")


def write_tsv(report: Report, stream: TextIO, raw: bool = False) -> None:
    """`# name`, the header and the rows of each table; an empty table's line says why. Text
    cells a spreadsheet would run as a formula get an apostrophe first unless `raw`
    (`focal.evaluation.output.spreadsheets`)."""
    for table in report.tables:
        stream.write(f"# {table.name}\n")
        rows = table.rows if raw else [_safe_row(row) for row in table.rows]
        stream.writelines(table_lines(table.columns, rows, "tsv"))
        if not table.rows:
            stream.write(f"# empty: {table.empty}\n")


def _safe_row(row: Sequence[object]) -> tuple[object, ...]:
    return tuple(spreadsheet_cell(cell) if isinstance(cell, str) else cell for cell in row)


def write_json(report: Report, stream: TextIO) -> None:
    """Every table as an object."""
    document = {
        "tables": [
            {
                "name": table.name,
                "title": table.title,
                "columns": list(table.columns),
                "rows": [list(row) for row in table.rows],
                "empty": table.empty,
            }
            for table in report.tables
        ]
    }
    dump_json(document, stream)


def write_plots(report: Report, directory: Path) -> list[Path]:
    """Every chart as an SVG file in `directory` (matplotlib, Agg); the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for table in report.tables:
        for chart in table.charts if table.rows else []:
            bars = table.bars(chart)
            with drawing(max(4.0, 0.35 * len(bars) + 2), 3.5) as (figure, axes):
                labels = [label for label, _value in bars]
                axes.bar(labels, [value or 0.0 for _label, value in bars], color="#1f5fbf")
                axes.set(
                    xlabel="/".join(chart.labels), ylabel=chart.value, ylim=(0, table.y_max(chart))
                )
                axes.set_title(chart.title, fontsize="medium")
                axes.tick_params(axis="x", labelrotation=45, labelsize="small")
                figure.tight_layout()
                path = directory / f"{table.name}-{chart.value}.svg"
                write_figure(figure, path)
                written.append(path)
    return written


WRITERS = {"text": write_text, "tsv": write_tsv, "json": write_json}


@click.command(
    "report",
    short_help="Assessment analytics (Piwowarski et al. 2008): times, passages, pooling rounds.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(list(WRITERS)),
    default="text",
    show_default=True,
)
@click.option(
    "--plots",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write the charts as SVG files into DIR.",
)
@click.option("--topic", help="Only this topic.")
@click.option("--assessor", help="Only this assessor's judgements.")
@click.option(
    "--idle",
    type=numbers.Real(min=0, min_open=True),
    default=600.0,
    show_default=True,
    help="Seconds without an event after which a pause is an idle gap (left out of times).",
)
@click.option(
    "--raw-cells",
    is_flag=True,
    help="tsv: write text cells as they are, without the apostrophe that keeps a spreadsheet "
    "from running one that starts with =, +, -, @ as a formula.",
)
@friendly_errors
def report(
    output_format: str,
    plots: Path | None,
    topic: str | None,
    assessor: str | None,
    idle: float,
    raw_cells: bool,
) -> None:
    """Assessment analytics: times (Table III), passages, BEPs, specificity, pooling rounds."""
    from focal.assessor.campaign.people import roster
    from focal.assessor.campaign.people.users import find_user
    from focal.assessor.campaign.results.report.assessment_report import build_report

    with transaction() as session:
        if assessor is not None:
            find_user(session, assessor)
        if topic is not None and not roster.has_topic(session, topic):
            raise LookupError(f"no topic {topic!r}")
        result = build_report(session, topic, assessor, idle)
    if output_format == "tsv":
        write_tsv(result, sys.stdout, raw=raw_cells)
    else:
        WRITERS[output_format](result, sys.stdout)
    if plots is not None:
        written = write_plots(result, plots)
        click.echo(f"{len(written)} plot(s) written to {plots}", err=True)
