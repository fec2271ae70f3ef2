"""`focal import collection|topics|runs|qrels`: material into the database, all or nothing.

The use cases are `focal.assessor.campaign.setup.importing` and
`focal.assessor.campaign.setup.qrels_import`; each import
is parsed first and written in one transaction, so a bad file changes nothing.
"""

from __future__ import annotations

from pathlib import Path

import click

from focal.assessor.cli.support import friendly_errors, transaction


@click.group("import")
def import_group() -> None:
    """Import a collection, topics or runs into the database."""


@import_group.command("collection")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--name", help="Collection name (default: the directory name).")
@click.option(
    "--profile",
    help="Display profile (default: detected from the root elements; see `focal collection "
    "profile`).",
)
@friendly_errors
def import_collection_command(directory: Path, name: str | None, profile: str | None) -> None:
    """Import every *.xml file of DIRECTORY (all or nothing)."""
    from focal.assessor.campaign.setup.importing import import_collection

    with transaction() as session:
        imported = import_collection(session, directory, name, profile)
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


@import_group.command("runs")
@click.argument("runs", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@friendly_errors
def import_runs_command(runs: tuple[Path, ...]) -> None:
    """Import runs (FOL, element, article, INEX XML); a run id replaces its earlier run."""
    from focal.assessor.campaign.setup.importing import import_runs

    with transaction() as session:
        summary = import_runs(session, list(runs))
    for run_id, count in summary:
        click.echo(f"imported run {run_id}: {count} results")


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
