"""The lines of a collection file, streamed: gzip read as is, UTF-8 decoded line by line.

A collection can be far larger than memory (docs/collections.md, "Memory"), so its readers take
one line at a time from here rather than the whole file (`formats.source.read_bytes`).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.source import UTF8_BOM, check_regular_file

GZIP_MAGIC = b"\x1f\x8b"


@contextmanager
def opened(path: str | Path) -> Iterator[BinaryIO]:
    """The file's bytes as a stream, decompressed when it is gzip (by its first two bytes)."""
    try:
        check_regular_file(path)
        raw = Path(path).open("rb")  # noqa: SIM115 (closed by the `with` below)
    except OSError as error:
        raise FormatError(path, None, f"cannot read the file ({error.strerror})") from error
    with raw:
        if raw.read(2) == GZIP_MAGIC:
            raw.seek(0)
            with gzip.GzipFile(fileobj=raw, mode="rb") as unpacked:
                yield unpacked  # type: ignore[misc]
        else:
            raw.seek(0)
            yield raw


def head(path: str | Path, size: int = 4096) -> bytes:
    """The first `size` bytes of the (decompressed) file, for telling its format."""
    with opened(path) as stream:
        try:
            return stream.read(size)
        except (OSError, EOFError) as error:
            raise FormatError(path, None, f"cannot read the file ({error})") from error


def numbered_lines(path: str | Path) -> Iterator[tuple[int, str]]:
    """`(line number, line)` for every line, its line end kept (`\\n` or `\\r\\n`).

    A line that is not UTF-8 is a FormatError naming it; a UTF-8 byte-order mark is dropped.
    """
    name = str(path)
    with opened(path) as stream:
        number = 0
        try:
            for number, raw in enumerate(stream, start=1):
                data = raw.removeprefix(UTF8_BOM) if number == 1 else raw
                try:
                    yield number, data.decode("utf-8")
                except UnicodeDecodeError as error:
                    raise FormatError(
                        name, number, f"expected UTF-8 text, found byte {data[error.start]:#04x}"
                    ) from None
        except (OSError, EOFError, gzip.BadGzipFile) as error:
            raise FormatError(name, number + 1, f"cannot read the file ({error})") from error


def file_text(path: str | Path) -> str:
    """A whole (small) document file as UTF-8 text, nothing normalised."""
    return "".join(line for _, line in numbered_lines(path))


def json_objects(path: str | Path) -> Iterator[tuple[int, dict[str, object]]]:
    """`(line number, object)` for every non-blank line of a JSON Lines file (documents,
    segments): a line that is not a JSON object is a FormatError naming it."""
    name = str(path)
    for number, line in numbered_lines(path):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise FormatError(name, number, f"expected a JSON object, {error.msg}") from None
        if not isinstance(record, dict):
            raise FormatError(name, number, "expected a JSON object, found another value")
        yield number, record
