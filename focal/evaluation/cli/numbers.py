"""Numeric options, bounded alike in every command: counts, ranks, seeds, processes, reals.

A number a command takes is checked by click before the command runs, so that an absurd one is
one line (`Error: Invalid value for '--trials': 100000000000000000000 is not in the range
1<=x<=100000.`, exit 2) instead of a command silent for hours or a traceback from deep inside:
`--repeats 10**20` would replay for ever, a depth of 10**20 overflows the 32-bit rank columns
(`formats.bounds`), and `nan` passes click's own ranges (every comparison with NaN is false), so
reals go through `Real`, which also refuses infinities. The refusal is one line, without the
usage lines click adds to its own (`OutOfBounds`).
"""

from __future__ import annotations

import math
from typing import Any, NoReturn

import click

from focal.evaluation.formats.bounds import MAX_COUNT

MAX_TRIALS = 100_000
"""Repeats, trials, replays: a study's spread is settled long before (seconds per thousand)."""
MAX_SAMPLES = 10_000_000
"""Resamples of a randomisation or bootstrap test (its p-value's resolution, 10^-7)."""
MAX_JOBS = 1024
"""Worker processes (0: every usable core)."""
SEED_BITS = 64
"""Seeds are 64-bit integers, negative or not, as numpy and `random` take them."""


class OutOfBounds(click.ClickException):
    """A number outside its option's bounds: one line on stderr, exit status 2."""

    exit_code = 2


class _OneLine(click.ParamType[Any, Any]):
    def fail(
        self, message: str, param: click.Parameter | None = None, ctx: click.Context | None = None
    ) -> NoReturn:
        name = param.get_error_hint(ctx) if param is not None and ctx is not None else "value"
        raise OutOfBounds(f"Invalid value for {name}: {message}")


class Integer(_OneLine, click.IntRange):
    """An integer in a closed range."""

    name = "integer"


class Real(_OneLine, click.FloatRange):
    """A finite real in a range: click's `FloatRange`, refusing NaN and infinities too."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


TRIALS = Integer(1, MAX_TRIALS)
SAMPLES = Integer(1, MAX_SAMPLES)
RANK = Integer(1, MAX_COUNT)
"""Sizes, depths, budgets, cut-offs: ranks, which fit the 32-bit columns of runs and pools."""
COUNT = Integer(0, MAX_COUNT)
"""A count that may be 0 (a constant, a number of fused runs)."""
SEED = Integer(-(2 ** (SEED_BITS - 1)), 2**SEED_BITS - 1)
JOBS = Integer(0, MAX_JOBS)
