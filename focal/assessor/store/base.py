"""The declarative base every table of the assessor's database derives from.

Constraint names follow the MetaData naming convention, so that Alembic migrations name them the
same on SQLite and PostgreSQL; timestamps are naive UTC, stored the same on both; JSON columns
are written by `json_text`, which refuses what PostgreSQL refuses (NaN, Infinity), so that SQLite
never stores JSON that other readers reject.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, MetaData
from sqlalchemy.orm import DeclarativeBase

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def json_text(value: Any) -> str:
    """The JSON of a column value, strict (RFC 8259): a NaN or infinite number is a ValueError,
    never the `NaN`/`Infinity` that Python writes and PostgreSQL and strict parsers refuse.

    Every engine writes its JSON columns with it (`db.make_engine`); event payloads are checked
    earlier, with the key named (`event_log.payload_of`).
    """
    return json.dumps(value, allow_nan=False)


def utcnow() -> datetime:
    """The current time in UTC, without tzinfo (stored the same on SQLite and PostgreSQL)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[list[int]]: JSON}
