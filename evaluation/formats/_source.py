"""Reading a text input file once, with errors that name the file and line."""

from __future__ import annotations

import gc
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from evaluation.errors import FormatError

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


def plain_file(path: str | Path, absent: bytes) -> bool:
    """Whether a columnar reader may read `path` itself: a regular, non-empty file without a
    byte-order mark and without any of the bytes `absent`. Scanned in 1 MiB pieces into one
    buffer, so the check costs no memory: the reader that follows reads the file again (the
    copy from the page cache is cheap; a fresh copy of a large file in memory is not, on a
    virtual machine where every new page is a fault). An unreadable file is a FormatError."""
    piece = bytearray(1 << 20)
    try:
        check_regular_file(path)
        with Path(path).open("rb", buffering=0) as stream:
            size = stream.readinto(piece)
            if not size or piece.startswith(UTF8_BOM):
                return False
            while size:
                if any(piece.find(byte, 0, size) >= 0 for byte in (bytes([b]) for b in absent)):
                    return False
                size = stream.readinto(piece)
    except OSError as error:
        raise FormatError(path, None, f"cannot read the file ({error.strerror})") from error
    return True


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
