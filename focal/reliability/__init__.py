"""Can this test collection be trusted? Reliability studies of pools, judgements and topic sets.

Seed 004 (Pal, Mitra & Kamps) and seed 003 §5.2.1 shrink the judgements, sample the topics or
leave a group of runs out of the pool, and watch how the ranking of the runs and its
significance change (spec section 9). Each study is one function here and one sub-command of
`focal reliability` (`focal.reliability.cli.commands`).

A package of its own above `pooling` and `evaluation` (it rebuilds pools and re-evaluates runs),
beside `assessor` and independent of it; the pure statistics it reports (rank correlation, swap
rates, paired tests) live in `focal.evaluation.statistics`.

- `scores`: runs × topics matrices of one measure, every qrels topic counting (as `focal eval -c`).
- `judgements`: qrels reduced by sampling, by a pool, or by leaving a group's articles out.
- `studies`: the four studies, returning plain rows for the command to print.

Public, as the lower-level API beneath `focal`'s: `__all__` (`focal.reliability.api`, documented
in docs/python.md, "The packages underneath"): `pool_sampling`, `pool_depths`, `topic_swap_rates`,
`topic_sampling`, `leave_one_group_out`, on qrels and runs given as files or in memory; the
other modules are internal and may change between releases. The names load on first use, so that
importing a module of the package does not load them all.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as mypy and editors see them
    from focal.reliability.api import (
        leave_one_group_out,
        pool_depths,
        pool_sampling,
        topic_sampling,
        topic_swap_rates,
    )

__all__ = [
    "leave_one_group_out", "pool_depths", "pool_sampling", "topic_sampling", "topic_swap_rates",
]  # fmt: skip


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(import_module("focal.reliability.api"), name)
    raise AttributeError(f"module 'focal.reliability' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
