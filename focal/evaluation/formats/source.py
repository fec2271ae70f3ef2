"""Reading a text input file once, with errors that name the file and line.

This is the public way for any part of Focal to read an input file once: `read_bytes` (its
bytes without a UTF-8 byte-order mark; a FIFO, a device or an unreadable file is a
`FormatError`), `decode_lines` (UTF-8 lines, numbered as an editor shows them),
`check_regular_file` (before a file is opened some other way) and `columnar_source` (what
pyarrow's CSV reader should read). `collector_paused` is the one pause of the garbage collector
while records are built.

Turning the lines of a file into records is the format readers' work, and they all live in
`focal.evaluation.formats` (docs/architecture.md, "Import rules and how they are enforced"): a
module elsewhere may read the bytes of a file to hand them to a reader, never split its lines
itself (tests/evaluation/formats/test_lines_in_formats.py).
"""

from __future__ import annotations

import gc
import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from focal.evaluation.errors import FormatError

UTF8_BOM = b"\xef\xbb\xbf"


def check_regular_file(path: str | Path) -> None:
    """FormatError unless `path` is a regular file (or a link to one): a FIFO named like a run
    or qrels would block the reader forever, a device never end. Checked before any input file
    is opened; `stat` itself never blocks. An OSError (no such file) is the caller's to word.
    """
    if not stat.S_ISREG(Path(path).stat().st_mode):
        raise FormatError(path, None, "is not a regular file (a FIFO, device or folder)")


def read_bytes(path: str | Path) -> bytes:
    """The bytes of `path` without a UTF-8 byte-order mark; an unreadable file is a FormatError.

    Only a regular file is read (a FIFO named like a run would block forever).
    """
    try:
        check_regular_file(path)
        data = Path(path).read_bytes()
    except OSError as error:
        raise FormatError(path, None, f"cannot read the file ({error.strerror})") from error
    return data.removeprefix(UTF8_BOM)


SMALL_FILE = 8 << 20  # read whole into memory below this size; scanned, then read by path above
_PIECES = threading.local()  # each thread's 1 MiB buffer for scanning a large file


def columnar_source(path: str | Path, absent: bytes) -> bytes | str | None:
    """What a columnar reader should read of `path`: its bytes (a small file), its path (a
    large one), or None when the file is empty, starts with a byte-order mark or holds any of
    the bytes `absent` (the careful line reader takes those). A large file is scanned in 1 MiB
    pieces into one buffer (one per thread, kept) and left for pyarrow to read itself: a whole
    copy in memory would cost a fresh page every 4 KiB, dear on a virtual machine, where the
    scan and the second read from the page cache are cheap. An unreadable file is a
    FormatError."""
    try:
        check_regular_file(path)
        with Path(path).open("rb", buffering=0) as stream:
            if os.fstat(stream.fileno()).st_size <= SMALL_FILE:
                data = stream.readall()
                plain = data and not data.startswith(UTF8_BOM) and _lacks(data, len(data), absent)
                return data if plain else None
            piece = getattr(_PIECES, "buffer", None)
            if piece is None:
                piece = _PIECES.buffer = bytearray(1 << 20)
            size = stream.readinto(piece)
            if piece.startswith(UTF8_BOM):
                return None
            while size:
                if not _lacks(piece, size, absent):
                    return None
                size = stream.readinto(piece)
    except OSError as error:
        raise FormatError(path, None, f"cannot read the file ({error.strerror})") from error
    return str(path)


def _lacks(data: bytes | bytearray, size: int, absent: bytes) -> bool:
    return all(data.find(bytes([byte]), 0, size) < 0 for byte in absent)


def decode_lines(data: bytes, name: str | Path) -> list[str]:
    """The lines of UTF-8 `data`, split on `\\n` only (callers treat a `\\r` as whitespace).

    Splitting on `\\n` rather than `str.splitlines` keeps line numbers equal to what an editor
    shows even if a field contains an exotic Unicode line separator.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise FormatError(name, line, "expected UTF-8 text (found an invalid byte)") from error
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line does not start another
    return lines


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a file becomes records, or runs become a pool:
    allocating 10^5 records (or split lines, pool rows, contributor tuples) would trigger it
    often for nothing (they hold no cycles), which doubles the parse time; next to runs that
    hold tens of millions of references (INEX 2006 scale) it more than doubled a top-n pool's.

    When it resumes, what was allocated meanwhile joins the oldest generation at once
    (`gc.freeze` then `gc.unfreeze`, which also resets the count of new objects): otherwise the
    first young collection after the pause would go through all of it (20 ms for the records of
    a large qrels file) before they age there anyway."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def first_fields(path: str | Path) -> int:
    """The number of fields of the first line that is neither blank nor a `#` comment (0 if
    none in the first 64 KiB; -1 for XML): 4 means TREC qrels, 6 a TREC run; FOL qrels have 5
    or more fields, FOL runs 8, and an INEX XML submission starts with `<`."""
    try:
        check_regular_file(path)
        with Path(path).open("rb") as stream:
            head = stream.read(1 << 16).removeprefix(UTF8_BOM)
    except OSError as error:
        raise FormatError(path, None, f"cannot read the file ({error.strerror})") from error
    for line in head.split(b"\n"):
        words = line.split()
        if words and not words[0].startswith(b"#"):
            return -1 if words[0].startswith(b"<") else len(words)
    return 0
