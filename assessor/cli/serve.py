"""`focal serve` and `focal demo`: the assessor web app, on the configured or the demo database.

`focal demo` prepares the database from the demo material (`assessor.campaign.demo`) and serves it;
running it again keeps the judgements made so far.
"""

from __future__ import annotations

import click

from assessor.cli.support import friendly_errors, make_app


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=5000, show_default=True)
@friendly_errors
def serve(host: str, port: int) -> None:
    """Serve the assessor web app (Werkzeug's threaded server; put a proxy in front for the web)."""
    make_app().run(host=host, port=port, threaded=True, debug=False, use_reloader=False)


@click.command("demo")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=5000, show_default=True)
@click.option("--no-serve", is_flag=True, help="Prepare the database and stop.")
@friendly_errors
def demo(host: str, port: int, no_serve: bool) -> None:
    """Set up the demo (database, material, pools, users, assignments) and serve it."""
    from assessor.campaign.demo import DEMO_USERS, load_demo
    from assessor.store import db, migrate

    app = make_app(migrated=False)
    migrate.upgrade(db.engine_of(app))
    with db.session_scope(app) as session:
        counts = load_demo(session)
    click.echo(
        f"demo ready: {counts['documents']} documents, {counts['topics']} topics, "
        f"{counts['runs']} runs, {counts['pools']} pools"
    )
    for name, role, password in DEMO_USERS:
        click.echo(f"  log in as {name!r} with password {password!r} ({role})")
    click.echo(
        "  the first topic is judged twice, by 'assessor' and 'assessor2': compare them on the "
        "organiser's Agreement page or with `focal agreement --assessors assessor,assessor2`"
    )
    if no_serve:
        return
    click.echo(f"open http://{host}:{port}/ (Ctrl+C stops)")
    make_app().run(host=host, port=port, threaded=True, debug=False, use_reloader=False)
