"""JSON Lines collections: one JSON object a line (docs/collections.md, "JSON Lines").

The id is the first of `docid`, `_id`, `id` the record has, the title `title`, the text the
first of `text`, `contents`, `body` (`Fields` changes the names: the corpora of BEIR, Pyserini
and MS MARCO name them differently). Other fields are ignored. Blank lines are skipped; a line
that is not a JSON object, or lacks an id or a text, is a FormatError naming the line.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.collections.documents import SourceDocument, build_tree, checked_id
from focal.evaluation.formats.collections.lines import json_objects


@dataclass(frozen=True, slots=True)
class Fields:
    """Which fields of a record are its id, title and text: the first one present counts."""

    id: tuple[str, ...] = ("docid", "_id", "id")
    title: tuple[str, ...] = ("title",)
    text: tuple[str, ...] = ("text", "contents", "body")

    @classmethod
    def parse(cls, id: str | None, title: str | None, text: str | None) -> Fields:
        """Fields from comma-separated names (None keeps the default of that field)."""
        default = cls()

        def names(value: str | None, fallback: tuple[str, ...]) -> tuple[str, ...]:
            if value is None:
                return fallback
            found = tuple(name.strip() for name in value.split(",") if name.strip())
            if not found:
                raise ValueError(f"expected field names separated by commas, found {value!r}")
            return found

        return cls(names(id, default.id), names(title, default.title), names(text, default.text))


def _first(record: Mapping[str, object], names: tuple[str, ...]) -> object:
    return next((record[name] for name in names if name in record), None)


def read_jsonl(path: str | Path, fields: Fields | None = None) -> Iterator[SourceDocument]:
    """The documents of a JSON Lines file (gzip read as is), one at a time."""
    fields = fields or Fields()
    name = str(path)
    for number, record in json_objects(path):
        identifier = _first(record, fields.id)
        if identifier is None:
            raise FormatError(name, number, f"expected an id field ({', '.join(fields.id)})")
        text = _first(record, fields.text)
        if not isinstance(text, str):
            raise FormatError(
                name, number, f"expected a text field holding a string ({', '.join(fields.text)})"
            )
        title = _first(record, fields.title)
        if title is not None and not isinstance(title, str):
            raise FormatError(name, number, f"expected the title as a string, found {title!r}")
        yield SourceDocument(checked_id(identifier, name, number), build_tree(title, text),
                             name, number)  # fmt: skip
