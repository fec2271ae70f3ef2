"""INEX element paths and XPath points with a character offset.

An element path is `/step/step...` with `step = name[n]`: `name` the qualified name as written in
the file (`mml:math`, or the local name for an element in a default namespace) and `n` its 1-based
position among the siblings written with the same name. `[n]` may be left out and means `[1]`;
the canonical form (what `Document.elements` holds) always writes it.

A *point* (a position in the text) extends a path:

    point := path [ "/text()" [ "[" k "]" ] ] [ "." N ]

- `path` alone is the start of the element;
- `path.N` is N code points into the element's text (N may equal the element's size);
- `path/text()[k]` is the start of the element's k-th child text node and `path/text()[k].N` N
  code points into it (XPath data model: a text node is a maximal run of character data between
  child elements, comments and processing instructions; CDATA sections belong to the run).
The `.N` suffix is only read after `]` or `)`: write `[n]` when a name itself contains a dot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_STEP = re.compile(r"^([^\s/\[\]()]+)(?:\[(\d+)\])?$")
_POINT = re.compile(
    r"^(?P<path>.*?)(?P<text>/text\(\)(?:\[(?P<node>\d+)\])?)?(?:(?<=[\])])\.(?P<offset>\d+))?$"
)


class PathError(KeyError):
    """A path or point that is malformed or names nothing in the document (a KeyError)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "bad path"


def normalise_path(path: str) -> str:
    """The canonical form of an element path: every step with its `[n]`.

    >>> normalise_path(" /article/bdy[1]/mml:math ")
    '/article[1]/bdy[1]/mml:math[1]'
    """
    stripped = path.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        raise PathError(f"{path!r} is not an absolute element path like /article[1]/p[2]")
    steps = []
    for step in stripped[1:].split("/"):
        match = _STEP.match(step)
        if match is None or match.group(2) == "0":
            raise PathError(f"{path!r}: step {step!r} is not name[n] with n >= 1")
        steps.append(f"{match.group(1)}[{match.group(2) or 1}]")
    return "/" + "/".join(steps)


@dataclass(frozen=True, slots=True)
class Point:
    """A parsed point: an element path, an optional text node (1-based), an optional offset."""

    path: str
    text_node: int | None
    offset: int | None


def parse_point(point: str) -> Point:
    """Parse `path[/text()[k]][.N]`.

    >>> parse_point("/article[1]/p[2]/text()[3].14")
    Point(path='/article[1]/p[2]', text_node=3, offset=14)
    >>> parse_point("/article[1]/p[2].5")
    Point(path='/article[1]/p[2]', text_node=None, offset=5)
    >>> parse_point("/article/p/text()")
    Point(path='/article[1]/p[1]', text_node=1, offset=None)
    """
    stripped = point.strip()
    match = _POINT.match(stripped)
    if match is None:  # pragma: no cover - the pattern accepts every string
        raise PathError(f"{point!r} is not a point")
    node = match.group("node")
    text_node = None if match.group("text") is None else int(node or 1)
    if text_node == 0:
        raise PathError(f"{point!r}: text nodes are counted from 1")
    offset = None if match.group("offset") is None else int(match.group("offset"))
    return Point(normalise_path(match.group("path")), text_node, offset)
