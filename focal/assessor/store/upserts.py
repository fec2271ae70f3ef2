"""First writes of rows that exist once per key: insert-or-update and insert-if-absent.

Reading a row, finding none and inserting it races with every other request doing the same:
on PostgreSQL the second insert is a unique violation (a 500), on SQLite a "database is locked"
wait and then the same error. These statements ask the database to settle the race itself
(`INSERT ... ON CONFLICT`, PostgreSQL 9.5 and SQLite 3.24, through SQLAlchemy's dialect
inserts; `RETURNING`, SQLite 3.35, says whether a row was inserted): one of the writers
inserts, the others update (or leave the row), and none fails. They run on the session's
connection in its transaction, like any write; ORM objects of the table already in the
session are expired, so that they are read again as stored.

The tables written so (tests/assessor/store/test_first_writes.py races each): the campaign's
settings, notes, topic modes, keywords, adjudicators, assignments and 2005 element values.
Judgements retry instead (`judging.persist`): their version check needs the row read first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from focal.assessor.store.base import Base


def _insert(session: Session, model: type[Base]) -> Any:
    """The dialect's INSERT of `model`'s table (the two backends Focal runs on)."""
    name = session.get_bind().dialect.name
    table = cast(Table, model.__table__)  # Core, not an ORM bulk insert: rowcount is counted
    if name == "postgresql":
        return postgresql.insert(table)
    if name == "sqlite":
        return sqlite.insert(table)
    raise NotImplementedError(f"no insert-or-update for the {name} dialect")


def _expire(session: Session, model: type[Base]) -> None:
    for instance in list(session.identity_map.values()):
        if isinstance(instance, model):
            session.expire(instance)


def upsert(
    session: Session, model: type[Base], rows: Sequence[Mapping[str, Any]], key: Sequence[str]
) -> None:
    """Store `rows` (dicts of the same columns) in `model`'s table: each inserted when no row
    holds its unique `key` columns' values, else that row's other columns updated to its values
    (whoever inserted it meanwhile). One statement, whatever the number of rows."""
    if not rows:
        return
    session.flush()
    statement = _insert(session, model).values([dict(row) for row in rows])
    update = {column: statement.excluded[column] for column in rows[0] if column not in key}
    if update:
        statement = statement.on_conflict_do_update(index_elements=list(key), set_=update)
    else:
        statement = statement.on_conflict_do_nothing(index_elements=list(key))
    session.execute(statement)
    _expire(session, model)


def insert_absent(
    session: Session, model: type[Base], row: Mapping[str, Any], key: Sequence[str]
) -> bool:
    """Insert `row` unless a row with the same unique `key` columns exists; whether it was
    inserted (False: it was there, or another writer inserted it meanwhile)."""
    session.flush()
    statement = _insert(session, model).values(dict(row))
    statement = statement.on_conflict_do_nothing(index_elements=list(key)).returning(
        *(statement.table.c[column] for column in key)
    )
    inserted = session.execute(statement).first() is not None  # no row: none was inserted
    _expire(session, model)
    return inserted
