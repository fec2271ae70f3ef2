"""Fixtures for the assessor: apps on SQLite and on a throw-away PostgreSQL, and seeded data.

PostgreSQL: `FOCAL_TEST_POSTGRES_URL` names a server to use (a fresh database is created per
test module); otherwise, when running as root with PostgreSQL installed, a cluster is created as
the `postgres` user on a free port on 127.0.0.1 and removed after the session. Tests that need
it are skipped (saying why) only when neither is possible.
"""

from __future__ import annotations

import functools
import os
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from focal.assessor.campaign.people.users import hash_password, issue_token
from focal.assessor.judging import judgements
from focal.assessor.store import db, migrate, texts
from focal.assessor.store.models import (
    Assignment,
    Collection,
    Document,
    Pool,
    PoolEntry,
    Topic,
    User,
)
from focal.assessor.web.app import create_app
from focal.evaluation.text.document import Document as ParsedDocument

PG_BIN = Path("/usr/lib/postgresql/15/bin")

# Three small articles; 1003 has astral characters (offsets count code points).
ARTICLES = {
    "1001": "<article><title>Alpha</title><bdy><p>The quick brown fox.</p>"
    "<p>Jumps <b>over</b> the lazy dog.</p></bdy></article>",
    "1002": "<article><title>Beta</title><bdy><sec><p>Second article text.</p></sec></bdy>"
    "</article>",
    "1003": "<article><title>G\U0001d538mma</title><bdy><p>Astral \U0001f600 here.</p></bdy>"
    "</article>",
}
PASSWORD = "correct horse"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_postgres(command: str) -> None:
    subprocess.run(["su", "postgres", "-c", command], check=True, capture_output=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a PostgreSQL server (without database name) for the whole test session."""
    given = os.environ.get("FOCAL_TEST_POSTGRES_URL")
    if given:
        yield db.normalise_url(given)
        return
    if os.geteuid() != 0 or not (PG_BIN / "initdb").exists():
        pytest.skip(
            "PostgreSQL tests need root (to start a throw-away cluster as `postgres`) and "
            f"{PG_BIN}/initdb, or FOCAL_TEST_POSTGRES_URL naming a server"
        )
    data = Path(tempfile.mkdtemp(prefix="focal-pg-"))
    shutil.chown(data, "postgres", "postgres")
    port = _free_port()
    try:
        _as_postgres(f"{PG_BIN}/initdb -D {data} -A trust -U focal")
        options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off"
        _as_postgres(f"{PG_BIN}/pg_ctl -D {data} -o '{options}' -l {data}/log -w start")
        yield f"postgresql+psycopg://focal@127.0.0.1:{port}"
    finally:
        subprocess.run(
            ["su", "postgres", "-c", f"{PG_BIN}/pg_ctl -D {data} -m fast -w stop"],
            capture_output=True,
        )
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="module")
def pg_url(pg_server: str) -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test module."""
    name = f"focal_test_{secrets.token_hex(4)}"
    admin = create_engine(f"{pg_server}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{pg_server}/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def empty_postgres(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()


def make_test_app(
    tmp_path: Path,
    url: str | None = None,
    template: Path | None = None,
    config: dict[str, Any] | None = None,
) -> Flask:
    """A migrated app on `url` (default: a SQLite file in tmp_path, copied from `template`)."""
    texts.clear_cache()
    if url is None:
        database = tmp_path / "focal.sqlite"
        if template is not None:
            shutil.copyfile(template, database)
        url = f"sqlite:///{database}"
    settings: dict[str, Any] = {"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE_URL": url}
    app = create_app({**settings, **(config or {})})
    app.instance_path = str(tmp_path / "instance")
    migrate.upgrade(db.engine_of(app))
    return app


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite database at the head revision, copied by every SQLite app (saves time)."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite"
    engine = db.make_engine(f"sqlite:///{path}")
    migrate.upgrade(engine)
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    return path


@pytest.fixture
def app(tmp_path: Path, migrated_sqlite: Path) -> Iterator[Flask]:
    """An app on a fresh SQLite database."""
    application = make_test_app(tmp_path, template=migrated_sqlite)
    yield application
    db.engine_of(application).dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def any_app(
    request: pytest.FixtureRequest, tmp_path: Path, migrated_sqlite: Path
) -> Iterator[Flask]:
    """An app on a fresh database of each backend."""
    url = None
    if request.param == "postgresql":
        url = request.getfixturevalue("pg_url")
        empty_postgres(url)
    application = make_test_app(tmp_path, url, template=migrated_sqlite)
    yield application
    db.engine_of(application).dispose()


@pytest.fixture
def session(app: Flask) -> Iterator[Session]:
    factory = db.session_factory(app)
    with factory() as current:
        yield current


@dataclass
class Seeded:
    app: Flask
    collection: Path
    alice: int  # assignment ids: alice and bob both assess topic 1; alice also topic 2
    bob: int
    alice_topic2: int
    tokens: dict[str, str]

    def text(self, article: str) -> str:
        return ParsedDocument.from_file(self.collection / f"{article}.xml").text


@functools.cache
def _password_hash() -> str:
    return hash_password(PASSWORD)  # scrypt is slow on purpose: hash once per session


def write_collection(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for article, xml in ARTICLES.items():
        (directory / f"{article}.xml").write_text(xml, encoding="utf-8")
    return directory


def seed(app: Flask, tmp_path: Path) -> Seeded:
    """Rows built directly (independently of the import code): 3 documents, 2 topics, pools."""
    collection = write_collection(tmp_path / "collection")
    with db.session_scope(app) as session:
        rows = Collection(name="test", directory=str(collection))
        session.add(rows)
        session.flush()
        for article in ARTICLES:
            parsed = ParsedDocument.from_file(collection / f"{article}.xml")
            session.add(
                Document(
                    id=article,
                    collection_id=rows.id,
                    file=str(collection / f"{article}.xml"),
                    text_length=len(parsed.text),
                    text_sha256=texts.text_sha256(parsed.text),
                )
            )
        for topic in ("1", "2"):
            session.add(Topic(id=topic, title=f"topic {topic}", description="d", narrative="n"))
            pool = Pool(topic_id=topic, method="test", parameters={})
            for position, article in enumerate(ARTICLES):
                pool.entries.append(PoolEntry(article=article, position=position, pool_rank=1))
            session.add(pool)
        users = {
            name: User(name=name, role=role, password_hash=_password_hash())
            for name, role in (("alice", "assessor"), ("bob", "assessor"), ("olga", "organiser"))
        }
        session.add_all(users.values())
        session.flush()
        assignments = [
            Assignment(topic_id="1", user_id=users["alice"].id),
            Assignment(topic_id="1", user_id=users["bob"].id),
            Assignment(topic_id="2", user_id=users["alice"].id),
        ]
        session.add_all(assignments)
        session.flush()
        tokens = {name: issue_token(session, user) for name, user in users.items()}
        ids = [assignment.id for assignment in assignments]
    return Seeded(app, collection, ids[0], ids[1], ids[2], tokens)


@pytest.fixture
def seeded(app: Flask, tmp_path: Path) -> Seeded:
    return seed(app, tmp_path)


@pytest.fixture
def any_seeded(any_app: Flask, tmp_path: Path) -> Seeded:
    return seed(any_app, tmp_path)


def csrf_of(client: FlaskClient) -> str:
    """The CSRF token of the client's session (read from the login page's meta tag)."""
    page = client.get("/login").get_data(as_text=True)
    found = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def login(client: FlaskClient, name: str, password: str = PASSWORD) -> str:
    """Log `client` in; returns the session's CSRF token."""
    token = csrf_of(client)
    response = client.post("/login", data={"name": name, "password": password, "csrf_token": token})
    assert response.status_code == 302, response.get_data(as_text=True)
    return csrf_of(client)


@pytest.fixture
def log_in() -> Any:
    """`log_in(client, name)` logs a test client in and returns its CSRF token."""
    return login


@pytest.fixture
def csrf() -> Any:
    """`csrf(client)` returns the CSRF token of the client's session."""
    return csrf_of


def double_judge(seeded: Seeded) -> None:
    """Alice and Bob judge topic 1 through the judging operations (texts: tests/assessor/conftest).

    1001 "Alpha" [0,5) "The quick brown fox." [5,25) "Jumps over the lazy dog." [25,49);
    1002 "Beta" [0,4) "Second article text." [4,24); 1003 "G𝔸mma" [0,5) "Astral 😀 here." [5,19).
    """
    with db.session_scope(seeded.app) as session:
        alice = session.get_one(Assignment, seeded.alice)
        bob = session.get_one(Assignment, seeded.bob)
        judgements.highlight(session, alice, "1001", "a1", 5, 25, "The quick brown fox.")
        judgements.mark_nonrelevant(session, alice, "1002", "a2")
        judgements.highlight(session, alice, "1003", "a3", 5, 11, "Astral")
        judgements.highlight(session, bob, "1001", "b1", 9, 35, "quick brown fox.Jumps over")
        judgements.highlight(session, bob, "1002", "b2", 4, 10, "Second")
        judgements.set_bep(session, alice, "1001", "a4", 5)
        judgements.set_bep(session, bob, "1001", "b3", 12)
