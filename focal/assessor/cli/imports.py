"""`focal import collection|topics|runs|answers|qrels`: material into the database, all or nothing.

The use cases are `focal.assessor.campaign.setup.importing` and
`focal.assessor.campaign.setup.qrels_import`; each import
is parsed first and written in one transaction, so a bad file changes nothing.
"""

from __future__ import annotations

from pathlib import Path

import click

from focal.assessor.cli.support import friendly_errors, transaction
from focal.evaluation.formats.collections.detect import FORMATS


@click.group("import")
def import_group() -> None:
    """Import a collection, topics or runs into the database."""


@import_group.command("collection")
@click.argument("directory", metavar="PATH", type=click.Path(path_type=Path))
@click.option("--name", help="Collection name (default: the directory name).")
@click.option(
    "--profile",
    help="Display profile (default: detected from the root elements; see `focal collection "
    "profile`).",
)
@click.option(
    "--format",
    "format_name",
    type=click.Choice(FORMATS),
    help="The collection's format (default: from PATH's name or content; docs/collections.md).",
)
@click.option(
    "--pool",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A pool file: store only its documents (the others are read and checked).",
)
@click.option("--id-field", help="JSON Lines: the id field(s), comma-separated.")
@click.option("--title-field", help="JSON Lines: the title field(s), comma-separated.")
@click.option("--text-field", help="JSON Lines: the text field(s), comma-separated.")
@friendly_errors
def import_collection_command(
    directory: Path,
    name: str | None,
    profile: str | None,
    format_name: str | None,
    pool: Path | None,
    id_field: str | None,
    title_field: str | None,
    text_field: str | None,
) -> None:
    """Import a collection, all or nothing: a folder of *.xml articles, .html pages or .txt
    files, or a JSON Lines, TSV or TREC SGML file (gzip read as is)."""
    from focal.assessor.campaign.setup.converted.options import converted_source
    from focal.assessor.campaign.setup.importing import import_collection
    from focal.assessor.cli.support import make_app

    app = make_app()
    source = converted_source(
        directory, format_name, pool, app.instance_path, (id_field, title_field, text_field)
    )
    with transaction(app) as session:
        imported = import_collection(session, directory, name, profile, source=source)
    shown = imported.display_profile or "detected per document"
    click.echo(
        f"imported {imported.documents} documents from {directory} (display profile: {shown})"
    )


@import_group.command("topics")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@friendly_errors
def import_topics_command(file: Path) -> None:
    """Import the topics of an INEX topics file."""
    from focal.assessor.campaign.setup.importing import import_topics

    with transaction() as session:
        count = import_topics(session, file)
    click.echo(f"imported {count} topics from {file}")


SEGMENTS = click.option(
    "--segments",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Segment file (JSON Lines, start_char/end_char): the ids are segment ids "
    "(docs/collections.md).",
)


@import_group.command("runs")
@click.argument("runs", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@SEGMENTS
@friendly_errors
def import_runs_command(runs: tuple[Path, ...], segments: Path | None) -> None:
    """Import runs (FOL, element, article, segment, INEX XML); a run id replaces its earlier run."""
    from focal.assessor.campaign.setup.importing import import_runs

    with transaction() as session:
        summary = import_runs(session, list(runs), segments=segments)
    for run_id, count in summary:
        click.echo(f"imported run {run_id}: {count} results")


@import_group.command("answers")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@SEGMENTS
@friendly_errors
def import_answers_command(file: Path, segments: Path | None) -> None:
    """Import RAG answers with citations as runs of what they cite (docs/collections.md)."""
    from focal.assessor.campaign.setup.converted.runs import answers_as_runs
    from focal.assessor.campaign.setup.importing import store_runs

    with transaction() as session:
        summary = store_runs(session, answers_as_runs(session, file, segments))
    for run_id, count in summary:
        click.echo(f"imported answers {run_id}: {count} cited results")


@import_group.command("qrels")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--assessor", help="Whose judgements these become (default: the file's stem).")
@friendly_errors
def import_qrels_command(file: Path, assessor: str | None) -> None:
    """Import FOL qrels FILE as one assessor's judgements (all or nothing)."""
    from focal.assessor.campaign.setup.qrels_import import import_qrels

    with transaction() as session:
        summary = import_qrels(session, file, assessor)
    click.echo(
        f"imported {summary.judgements} judgements ({summary.relevant} relevant) of "
        f"{summary.topics} topics as {summary.assessor}; {summary.new_topics} new topics, "
        f"{summary.new_documents} articles known only by id and length"
    )
