"""`focal init-db`: create or upgrade the database schema (Alembic, `assessor.store.migrate`).

Every assessor command works on the database of `create_app()` (`FOCAL_DATABASE_URL`, default a
SQLite file in the instance folder). Input errors become one line on stderr and exit code 2.
"""

from __future__ import annotations

import os

import click

from assessor.cli.support import friendly_errors, make_app


@click.command("init-db")
@friendly_errors
def init_db() -> None:
    """Create or upgrade the database schema (Alembic `upgrade head`)."""
    from assessor.store import db, migrate

    app = make_app(migrated=False)
    engine = db.engine_of(app)
    migrate.upgrade(engine)
    url = engine.url.render_as_string(hide_password=True)
    click.echo(f"database {url} at revision {migrate.current_revision(engine)}")
    if not os.environ.get("FOCAL_DATABASE_URL"):
        click.echo("(the default location; set FOCAL_DATABASE_URL to use another database)")
