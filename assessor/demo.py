"""`focal demo`: a ready-to-judge database from the demo material, then the server.

Running it again keeps the judgements made so far: imports update, pools are rebuilt, users get
their demo passwords back, assignments are kept.
"""

from __future__ import annotations

from pathlib import Path

import click

from assessor import REPOSITORY_DIR
from assessor.cli_support import CommandError, friendly_errors

DEMO_DIR = REPOSITORY_DIR / "demo"
DEMO_USERS = (
    ("organiser", "organiser", "organiser"),
    ("assessor", "assessor", "assessor"),
    ("assessor2", "assessor", "assessor2"),
)  # (name, role, password)
POOL_SIZE = 20


def demo_material(directory: Path) -> tuple[Path, Path, list[Path]]:
    """The collection folder, topics file and runs of the demo (CommandError when absent)."""
    collection, topics = directory / "collection", directory / "topics.xml"
    runs = sorted((directory / "runs").glob("*.run"))
    missing = [str(p) for p in (collection, topics) if not p.exists()]
    if not runs:
        missing.append(str(directory / "runs" / "*.run"))
    if missing:
        raise CommandError(f"demo material missing: {', '.join(missing)}")
    return collection, topics, runs


def prepare_demo(directory: Path = DEMO_DIR) -> dict[str, int]:
    """Initialise the configured database with the demo material; returns counts."""
    from sqlalchemy import select

    from assessor import db, migrate
    from assessor.cli_support import make_app
    from assessor.commands_users import add_user, assign_topic
    from assessor.importing import import_collection, import_runs, import_topics
    from assessor.models import Topic
    from assessor.pools import build_pools
    from pooling.records import natural_key

    collection, topics_file, runs = demo_material(directory)
    app = make_app(migrated=False)
    migrate.upgrade(db.engine_of(app))
    with db.session_scope(app) as session:
        documents = import_collection(session, collection, "demo")
        topics = import_topics(session, topics_file)
        import_runs(session, runs)
        pools = build_pools(session, "topn", POOL_SIZE)
        for name, role, password in DEMO_USERS:
            add_user(session, name, role, password)
        topic_ids = sorted(session.scalars(select(Topic.id)), key=natural_key)
        for topic_id in topic_ids:
            assign_topic(session, topic_id, "assessor")
        if topic_ids:
            assign_topic(session, topic_ids[0], "assessor2")
    return {"documents": documents, "topics": topics, "runs": len(runs), "pools": len(pools)}


@click.command("demo")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=5000, show_default=True)
@click.option("--no-serve", is_flag=True, help="Prepare the database and stop.")
@friendly_errors
def demo(host: str, port: int, no_serve: bool) -> None:
    """Set up the demo (database, material, pools, users, assignments) and serve it."""
    counts = prepare_demo()
    click.echo(
        f"demo ready: {counts['documents']} documents, {counts['topics']} topics, "
        f"{counts['runs']} runs, {counts['pools']} pools"
    )
    for name, role, password in DEMO_USERS:
        click.echo(f"  log in as {name!r} with password {password!r} ({role})")
    if no_serve:
        return
    from assessor.cli_support import make_app

    click.echo(f"open http://{host}:{port}/ (Ctrl+C stops)")
    make_app().run(host=host, port=port, threaded=True, debug=False, use_reloader=False)
