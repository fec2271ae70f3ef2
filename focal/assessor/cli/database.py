"""`focal init-db`, `focal backup FILE` and `focal restore FILE`: the campaign's database itself.

`init-db` creates or upgrades the schema (Alembic, `focal.assessor.store.migrate`). Every assessor
command works on the database of `create_app()` (`FOCAL_DATABASE_URL`, default a SQLite file in the
instance folder). Input errors become one line on stderr and exit code 2.

A backup is a consistent copy. SQLite: the copy is taken with SQLite's online backup API and may be
made while `focal serve` runs; a restore refuses while another process has the database open
(unless `--force`) and keeps a copy of what it replaces. PostgreSQL: Focal prints the
`pg_dump` / `pg_restore` commands to use instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from focal import settings
from focal.assessor.cli import support
from focal.assessor.cli.support import CommandError, friendly_errors, make_app

if TYPE_CHECKING:
    from sqlalchemy import Engine


@click.command("init-db")
@friendly_errors
def init_db() -> None:
    """Create or upgrade the database schema (Alembic `upgrade head`)."""
    from focal.assessor.store import db, migrate

    app = make_app(migrated=False)
    engine = db.engine_of(app)
    migrate.upgrade(engine)
    url = engine.url.render_as_string(hide_password=True)
    click.echo(f"database {url} at revision {migrate.current_revision(engine)}")
    if settings.value("FOCAL_DATABASE_URL") is None:
        click.echo("(the default location; set FOCAL_DATABASE_URL to use another database)")


def _engine_or_guidance() -> tuple[Engine, str]:
    from sqlalchemy.engine import make_url

    from focal.assessor.store import backup, db

    configured = str(settings.value("FOCAL_DATABASE_URL") or "")
    if configured and not db.normalise_url(configured).startswith("sqlite"):
        url = make_url(db.normalise_url(configured))
        raise CommandError(f"use PostgreSQL's own tools: {backup.pg_dump_command(url)}")
    engine = db.engine_of(support.make_app())
    return engine, engine.url.render_as_string(hide_password=True)


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@friendly_errors
def backup_command(file: Path) -> None:
    """Write a consistent copy of the database to FILE (safe while the server runs)."""
    from focal.assessor.store import backup

    engine, shown = _engine_or_guidance()
    try:
        backup.backup_sqlite(engine, file)
    except backup.BackupError as error:
        raise CommandError(str(error)) from None
    click.echo(f"database {shown} copied to {file}")


@click.command(
    "restore",
    short_help="Replace the database by a backup FILE and upgrade it (the old one kept beside).",
)
@click.argument("file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--yes", is_flag=True, help="Replace the current database without asking.")
@click.option(
    "--force",
    is_flag=True,
    help="Restore even while another process (a running server) has the database open.",
)
@friendly_errors
def restore_command(file: Path, yes: bool, force: bool) -> None:
    """Replace the database by the backup FILE (stop the server first), then upgrade it; what
    it replaced is kept beside it as `NAME.before-restore-STAMP`."""
    from focal.assessor.store import backup, migrate

    engine, shown = _engine_or_guidance()
    if not yes:
        click.confirm(f"Replace everything in {shown} by {file}?", abort=True)
    try:
        kept = backup.restore_sqlite(engine, file, force=force)
    except backup.BackupError as error:
        raise CommandError(str(error)) from None
    migrate.upgrade(engine)  # a backup of an older Focal is brought to this version's schema
    click.echo(f"database {shown} restored from {file} (what it replaced is kept in {kept})")
