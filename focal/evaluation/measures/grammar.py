"""The grammar every measure name follows, whatever vocabulary reads it, and its two refusals.

A name is a base, then optionally ir_measures' arguments `(rel=2)`, a parameter after `@`
(`P@10`, `nxCG@k`, `IPrec@0.5`), a curve `[x]` (`inex_eval[x]`), or trec_eval's parameters after
the first dot (`P.5,10`, `iprec_at_recall.0.1,0.5`, `set_F.0.5`). `split` reads that syntax into
a `Term`; a vocabulary then finds the declaration the term stands for and gives a `Request`
(`registry.names` for Focal's article and the element measures, `trec_eval.names` for
trec_eval's families). It lies below both, so that each reads names without the other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Vocabulary = Literal["articles", "trec", "elements"]
VOCABULARIES: tuple[Vocabulary, ...] = ("articles", "trec", "elements")
_TERM = re.compile(
    r"^(?P<base>[A-Za-z0-9_]+)(?:\((?P<arguments>[^()]*)\))?(?:@(?P<at>[A-Za-z0-9_.]+))?"
    r"(?P<curve>\[x\])?(?:\.(?P<dotted>.*))?$",
    re.DOTALL,
)


class UnknownMeasure(ValueError):
    """A name no declaration of the vocabulary answers to."""


class NotProvided(ValueError):
    """A declared name that no engine computes (yet)."""


@dataclass(frozen=True)
class Term:
    """A name split by the grammar (`split`), before any vocabulary reads it."""

    text: str
    base: str
    arguments: tuple[tuple[str, str], ...] = ()  # ir_measures' `(rel=2)`
    at: str | None = None  # after `@`
    curve: bool = False  # `[x]`
    dotted: str | None = None  # after the first `.`

    @property
    def bare(self) -> bool:
        return not self.arguments and self.at is None and not self.curve and self.dotted is None


@dataclass(frozen=True)
class Request:
    """What a name asks for: the declaration (`measure`, its name in `vocabulary`) and the
    parameters given (None: the declared defaults; `printable`: as typed, for row names)."""

    text: str
    vocabulary: Vocabulary
    measure: str
    parameters: tuple[float, ...] | None = None
    curve: bool = False
    printable: str | None = None


def split(text: str) -> Term | None:
    """The grammar: None when `text` is no measure name at all.

    >>> split("P(rel=2)@5")
    Term(text='P(rel=2)@5', base='P', arguments=(('rel', '2'),), at='5', curve=False, dotted=None)
    >>> split("iprec_at_recall.0.1,0.5").dotted
    '0.1,0.5'
    >>> split("nDCG(gains={0:0,1:1},judged_only=True)@10").arguments
    (('gains', '{0:0,1:1}'), ('judged_only', 'True'))
    """
    match = _TERM.match(text)
    if match is None:
        return None
    arguments: list[tuple[str, str]] = []
    for pair in filter(None, _commas(match["arguments"] or "")):
        key, equals, value = pair.partition("=")
        if not equals:
            return None
        arguments.append((key.strip(), value.strip()))
    return Term(text, match["base"], tuple(arguments), match["at"], bool(match["curve"]),
                match["dotted"])  # fmt: skip


def _commas(text: str) -> list[str]:
    """`text` split at its commas outside braces (ir_measures' `gains={0:0,1:1},rel=2`)."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]
