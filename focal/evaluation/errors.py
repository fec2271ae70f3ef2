"""Errors in input files, carrying the file, the line and what was expected."""

from __future__ import annotations

from pathlib import Path


class FormatError(ValueError):
    """A problem in an input file that a user can fix.

    >>> str(FormatError("runs/a.run", 12, "expected 8 fields, found 7"))
    'runs/a.run:12: expected 8 fields, found 7'
    >>> str(FormatError("topics.xml", None, "not well-formed"))
    'topics.xml: not well-formed'
    >>> import pickle
    >>> str(pickle.loads(pickle.dumps(FormatError("a.run", 3, "bad"))))
    'a.run:3: bad'
    """

    def __init__(self, file: str | Path, line: int | None, message: str) -> None:
        self.file = str(file)
        self.line = line
        self.message = message
        where = self.file if line is None else f"{self.file}:{line}"
        super().__init__(f"{where}: {message}")

    def __reduce__(self) -> tuple[type[FormatError], tuple[str, int | None, str]]:
        # Errors cross process boundaries (`focal eval -j`): rebuild from the three fields.
        return (type(self), (self.file, self.line, self.message))


class FormatWarning(UserWarning):
    """Input that is accepted but probably not what its author meant (e.g. split topic blocks)."""
