"""The assessor's `focal` commands: database, imports, pools, users, assignments, serve, export.

Every command works on the database of `create_app()` (`FOCAL_DATABASE_URL`, default a SQLite
file in the instance folder). Input errors become one line on stderr and exit code 2.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import cast

import click

from assessor.cli_support import CommandError, friendly_errors, make_app, transaction
from assessor.commands_users import assign, users
from assessor.demo import demo

__all__ = [
    "CommandError",
    "assign",
    "demo",
    "export_qrels",
    "import_group",
    "init_db",
    "pool_build",
    "serve",
    "users",
]


@click.command("init-db")
@friendly_errors
def init_db() -> None:
    """Create or upgrade the database schema (Alembic `upgrade head`)."""
    from assessor import db, migrate

    app = make_app(migrated=False)
    engine = db.engine_of(app)
    migrate.upgrade(engine)
    url = engine.url.render_as_string(hide_password=True)
    click.echo(f"database {url} at revision {migrate.current_revision(engine)}")


@click.group("import")
def import_group() -> None:
    """Import a collection, topics or runs into the database."""


@import_group.command("collection")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--name", help="Collection name (default: the directory name).")
@friendly_errors
def import_collection_command(directory: Path, name: str | None) -> None:
    """Import every *.xml file of DIRECTORY (all or nothing)."""
    from assessor.importing import import_collection

    with transaction() as session:
        count = import_collection(session, directory, name)
    click.echo(f"imported {count} documents from {directory}")


def _register_qrels_import() -> None:
    """`focal import qrels` lives in assessor/qrels_import.py (issue 6)."""
    from assessor.qrels_import import import_qrels_command

    import_group.add_command(import_qrels_command, "qrels")


_register_qrels_import()


@import_group.command("topics")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@friendly_errors
def import_topics_command(file: Path) -> None:
    """Import the topics of an INEX topics file."""
    from assessor.importing import import_topics

    with transaction() as session:
        count = import_topics(session, file)
    click.echo(f"imported {count} topics from {file}")


@import_group.command("runs")
@click.argument("runs", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@friendly_errors
def import_runs_command(runs: tuple[Path, ...]) -> None:
    """Import runs (FOL, element, article, INEX XML); a run id replaces its earlier run."""
    from assessor.importing import import_runs

    with transaction() as session:
        summary = import_runs(session, list(runs))
    for run_id, count in summary:
        click.echo(f"imported run {run_id}: {count} results")


@click.command("pool-build")
@click.option("--method", type=click.Choice(["topn", "depth"]), default="topn", show_default=True)
@click.option(
    "--size",
    type=click.IntRange(min=1),
    default=500,
    show_default=True,
    help="n (top-n), k (depth).",
)
@click.option(
    "--order",
    type=click.Choice(["article", "rank", "random"]),
    default="article",
    show_default=True,
    help="Display order shown to assessors.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of --order random.")
@click.option("--topic", "topics", multiple=True, help="Only these topics (repeatable).")
@friendly_errors
def pool_build(method: str, size: int, order: str, seed: int, topics: tuple[str, ...]) -> None:
    """Build the pools of the imported topics from the imported runs (replaces old pools)."""
    from assessor.pools import Method, Order, build_pools

    with transaction() as session:
        summaries = build_pools(
            session, cast(Method, method), size, cast(Order, order), seed, list(topics) or None
        )
    for summary in summaries:
        note = f" ({len(summary.missing)} pooled articles not in the collection)"
        click.echo(
            f"topic {summary.topic}: {summary.size} articles" + (note if summary.missing else "")
        )


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=5000, show_default=True)
@friendly_errors
def serve(host: str, port: int) -> None:
    """Serve the assessor web app (Werkzeug's threaded server; put a proxy in front for the web)."""
    make_app().run(host=host, port=port, threaded=True, debug=False, use_reloader=False)


@click.command("export-qrels")
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
    "--assessor", help="Only this assessor's judgements (needed for doubly assessed topics)."
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
@friendly_errors
def export_qrels(
    format_: str,
    topic: str | None,
    assessor: str | None,
    xml: bool,
    offset_unit: str,
    graded: bool,
    all_elements: bool,
    output: Path | None,
) -> None:
    """Write every judged article as qrels: FOL (default; not relevant ones as 0 lines),
    per-element relevance (tab-separated or INEX XML), or TREC article qrels."""
    from assessor.export import collect_qrels, qrels_text, write_atomically
    from assessor.qrels_export import export_text

    with transaction() as session:
        if (format_, offset_unit, xml, graded, all_elements) == (
            "fol",
            "codepoint",
            False,
            False,
            False,
        ):
            text = qrels_text(collect_qrels(session, topic, assessor))
        else:  # issue 6 formats and options
            text = export_text(
                session,
                format_=format_,
                topic=topic,
                assessor=assessor,
                xml=xml,
                offset_unit=offset_unit,
                graded=graded,
                all_elements=all_elements,
            )
    if output is None:
        sys.stdout.write(text)
    else:
        write_atomically(output, text)
