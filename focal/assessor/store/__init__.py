"""Persistence: typed SQLAlchemy 2 models, engines and sessions, Alembic migrations, text cache.

The lowest layer of `assessor`: imports only SQLAlchemy, Alembic and `evaluation`;
`models` is the schema every other layer reads and writes.
"""
