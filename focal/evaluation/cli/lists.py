"""List options, alike in every command: a list is given comma-separated, by repeating the
option, or both (`--policy mtf --policy thompson` is `--policy mtf,thompson`).

`list_option` declares one; the command receives the values joined by commas (None when the
option is not given and has no default), so that the parsers of comma lists
(`focal.reliability.tables.parse_integers`, a policy list's split) read every spelling; a
repeatable option whose command takes a tuple (`--topic`) splits its values with `split`. `-m`
is the one list that is only repeated: a comma is part of a trec_eval measure's parameters
(`-m P.5,10`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def split(_: click.Context, __: click.Parameter, values: Sequence[str] | None) -> tuple[str, ...]:
    """The values of a repeated option, each comma list split (`--topic 1,2 --topic 3`)."""
    given = (part.strip() for value in values or () for part in value.split(","))
    return tuple(part for part in given if part)


def joined(_: click.Context, __: click.Parameter, values: Sequence[str] | None) -> str | None:
    """The values of a repeated option as one comma list (None: not given)."""
    return ",".join(split(_, __, values)) or None


def list_option(
    *declarations: str, default: str | None = None, **settings: Any
) -> Callable[[F], F]:
    """A click option that takes a comma list, repeated or not (`joined`)."""
    return click.option(
        *declarations,
        multiple=True,
        default=(default,) if default is not None else (),
        callback=joined,
        **settings,
    )
