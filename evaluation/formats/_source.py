"""Reading a text input file once, with errors that name the file and line."""

from __future__ import annotations

import gc
import mmap
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


def mapped_bytes(path: str | Path) -> bytes | mmap.mmap:
    """`read_bytes` for a large file read by a columnar reader: the file mapped into memory,
    read-only, rather than copied (a copy costs a fresh page of memory for every 4 KiB, and on
    a virtual machine a fresh page is dear). Bytes-like for `find`, slicing and pyarrow; not for
    `in` (an mmap's `in` looks for one byte). Unmapped when the last reference goes. An empty
    file, or one that starts with a byte-order mark, is read as bytes instead."""
    try:
        check_regular_file(path)
        with Path(path).open("rb") as stream:
            if stream.read(len(UTF8_BOM)) in (UTF8_BOM, b""):
                return read_bytes(path)
            return mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError as error:
        raise FormatError(path, None, f"cannot read the file ({error.strerror})") from error


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
