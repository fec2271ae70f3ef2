"""`focal serve`, `focal demo` and `focal worker`: the web app, and the worker of its queue.

`focal serve --workers N` serves a campaign with gunicorn: N worker processes, each with its
own app and database connections (PostgreSQL for more than a handful of assessors: SQLite
lets one process write at a time). Without `--workers`, Werkzeug's threaded server (for trying
things out and for tests).

`focal demo` prepares the database from the demo material (`focal.assessor.campaign.setup.demo`) and
serves it;
running it again keeps the judgements made so far.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from focal.assessor.cli.support import (
    CommandError,
    friendly_errors,
    make_app,
    refuse_unanswered_redis,
)
from focal.assessor.store import db

if TYPE_CHECKING:
    from flask import Flask
    from sqlalchemy.orm import Session


def _say_instance(app: Flask) -> None:
    """Print the instance folder, and where an earlier version kept its database."""
    from focal.assessor.web.app import earlier_instance_folder

    click.echo(f"instance folder (database, secret key, uploads): {app.instance_path}")
    earlier = earlier_instance_folder()
    if earlier is not None:
        click.echo(
            f"note: a database of an earlier Focal is in {earlier}; set FOCAL_INSTANCE={earlier} "
            "to keep using it",
            err=True,
        )


# A TCP port: the socket library would take 65536 + X as port X, and a negative number ends in
# a traceback, so anything else is refused on one line, as every bad option value is.
PORT = click.IntRange(1, 65535)


def _refuse_busy_port(host: str, port: int, command: str) -> None:
    """One line naming `--port` when `host:port` cannot be listened on (a busy port would
    otherwise end Werkzeug's server with a paragraph, and gunicorn's after retrying for
    seconds). The probe binds as the servers do (with SO_REUSEADDR on POSIX, so a port left
    in TIME_WAIT is not taken for busy) and closes at once."""
    import errno
    import socket

    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET  # as Werkzeug chooses
        socket.create_server((host, port), family=family).close()
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            make = " (make demo PORT=N)" if command == "demo" else ""
            raise CommandError(
                f"port {port} is in use: choose another with focal {command} --port N{make}"
            ) from None
        raise CommandError(
            f"cannot listen on {host}:{port} ({error.strerror or error}): choose another "
            f"--host or --port"
        ) from None


def _gunicorn() -> Callable[[str, int, int, int], None]:
    """`serve_with_gunicorn`, or one line where gunicorn cannot run: it needs a POSIX system
    (it imports `fcntl`), which Windows is not (README, "Platforms")."""
    try:
        from focal.assessor.cli.gunicorn_app import serve_with_gunicorn
    except ModuleNotFoundError as error:
        if error.name != "fcntl":
            raise
        raise CommandError(
            "--workers serves with gunicorn, which runs on POSIX systems only (Linux, macOS): "
            "on Windows, serve without --workers (Werkzeug's threaded server)"
        ) from None
    return serve_with_gunicorn


@click.command(
    "serve",
    short_help="Serve the assessor web app; with --workers, the production server "
    "(docs/deploy.md).",
)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=PORT, default=5000, show_default=True, help="A TCP port, 1 to 65535.")
@click.option(
    "--workers",
    type=click.IntRange(0, 64),
    default=0,
    show_default=True,
    help="Serve with gunicorn and this many worker processes (0: Werkzeug's threaded server).",
)
@click.option(
    "--keep-alive",
    type=click.IntRange(5, 3600),
    default=75,
    show_default=True,
    help="With --workers: seconds an idle keep-alive connection stays open.",
)
@friendly_errors
def serve(host: str, port: int, workers: int, keep_alive: int) -> None:
    """Serve the assessor web app; with --workers, the production server (behind an https
    proxy, as deploy/ sets it up: docs/deploy.md).

    Werkzeug's server (without --workers) answers every response with `Connection: close`, so
    no client waits on an idle connection it would close."""
    serve_with_gunicorn = _gunicorn() if workers else None
    _refuse_busy_port(host, port, "serve")
    refuse_unanswered_redis()
    app = make_app()  # checks the database once, before any worker starts
    _say_instance(app)
    if serve_with_gunicorn is None:
        app.run(host=host, port=port, threaded=True, debug=False, use_reloader=False)
        return
    db.engine_of(app).dispose()  # the workers open their own connections
    serve_with_gunicorn(host, port, workers, keep_alive)


def _double_judged(session: Session) -> str:
    """What the demo's double-judged topic holds, counted from the database: the articles both
    assessors judged and those where they differ (empty when no topic is double-judged)."""
    from focal.assessor.campaign.results.agreement import (
        compared_articles,
        disagrees,
        double_judged,
    )

    for item in double_judged(session):
        (name_a, name_b), topic = item.assessors[:2], item.topic.id
        articles = compared_articles(session, topic, name_a, name_b)
        both = [a for a in articles if "unjudged" not in (a.status_a, a.status_b)]
        differ = sum(1 for a in both if disagrees(a))
        return (
            f"  topic {topic} is judged twice: {name_a!r} and {name_b!r} both judged "
            f"{len(both)} of its articles and differ on {differ}; compare them on the "
            "organiser's Agreement page and decide on Adjudication"
        )
    return ""


@click.command("demo")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=PORT, default=5000, show_default=True, help="A TCP port, 1 to 65535.")
@click.option("--no-serve", is_flag=True, help="Prepare the database and stop.")
@friendly_errors
def demo(host: str, port: int, no_serve: bool) -> None:
    """Set up the demo (database, material, pools, users, assignments) and serve it."""
    from focal.assessor.campaign.setup.demo import DEMO_USERS, load_demo
    from focal.assessor.store import db, migrate

    if not no_serve:
        _refuse_busy_port(host, port, "demo")
    refuse_unanswered_redis()
    app = make_app(migrated=False)
    _say_instance(app)
    migrate.upgrade(db.engine_of(app))
    with db.session_scope(app) as session:
        counts = load_demo(session)
        double = _double_judged(session)
    click.echo(
        f"demo ready: {counts['documents']} documents, {counts['topics']} topics, "
        f"{counts['runs']} runs, {counts['pools']} pools"
    )
    for name, role, password in DEMO_USERS:
        click.echo(f"  log in as {name!r} with password {password!r} ({role})")
    if double:
        click.echo(double)
    if no_serve:
        return
    click.echo(f"open http://{host}:{port}/ (Ctrl+C stops)")
    make_app().run(host=host, port=port, threaded=True, debug=False, use_reloader=False)


@click.command(
    "worker",
    short_help="Run the queued import jobs when FOCAL_JOB_WORKER=external (docs/deploy.md).",
)
@click.option(
    "--threads",
    type=click.IntRange(1, 16),
    default=1,
    show_default=True,
    help="Jobs run at once (imports write the database: one is right for SQLite).",
)
@friendly_errors
def worker(threads: int) -> None:
    """Run the queued jobs (imports) of the configured database until stopped: the queue's
    service beside `focal serve` when FOCAL_JOB_WORKER=external (docs/deploy.md)."""
    import logging

    from focal.assessor.web.jobs import queue_of

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    # the queue's lines, not alembic's (its plugins and migration context, at every start)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    refuse_unanswered_redis()
    app = make_app()
    queue = queue_of(app, inline=False)
    _say_instance(app)
    click.echo(f"running the jobs of queue {queue.name} with {threads} thread(s)")
    queue.run_worker(threads)
