"""Files that appear whole or not at all: write a temporary file beside the target, then rename.

A reader (another process, a user's `tail`) never sees half a file, and a failure leaves the
target as it was and no temporary file behind. The temporary file is created by `os.open` with
mode 0666 (0600 when `private`), which the kernel narrows by the process's umask: the result
has the mode any new file of the user gets (0644 under umask 022), where `tempfile.mkstemp`
would have made it 0600, and no thread has to change the umask to read it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

PUBLIC_MODE = 0o666
PRIVATE_MODE = 0o600


@contextmanager
def replacing(path: str | Path, *, private: bool = False) -> Iterator[Path]:
    """A new empty file beside `path` to write; on leaving, it replaces `path` (`os.replace`).

    If the block raises, the temporary file is removed and `path` is left untouched.
    """
    target = Path(path)
    temporary = _new_file(target, PRIVATE_MODE if private else PUBLIC_MODE)
    try:
        yield temporary
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def atomic_write(path: str | Path, text: str | Iterable[str], *, private: bool = False) -> None:
    """Write `text` (one string, or lines that carry their own newlines) to `path` as UTF-8
    through `replacing`; `private` keeps it to its owner (mode 0600: secrets)."""
    with (
        replacing(path, private=private) as temporary,
        temporary.open("w", encoding="utf-8", newline="\n") as stream,
    ):
        if isinstance(text, str):
            stream.write(text)
        else:
            stream.writelines(text)


def _new_file(target: Path, mode: int) -> Path:
    """Create a file named `.NAME.RANDOM.tmp` beside `target` that did not exist before."""
    import secrets  # (when first used: 6 ms of every command's start)

    while True:
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode))
        except FileExistsError:
            continue  # 2^32 names: another writer's file, try the next
        return temporary
