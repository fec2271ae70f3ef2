"""Focal from Python, for notebooks and scripts: evaluate, compare, read and pool with pandas
DataFrames (docs/python.md).

A small facade over `evaluation`, `pooling` and `reliability`: inputs are paths, DataFrames in
ir_measures' columns (`query_id, doc_id, relevance` / `score`), dicts of dicts as pytrec_eval
takes them, or Focal's records; measures are names in any vocabulary (Focal's, trec_eval's,
ir_measures') or ir_measures' objects; results are tidy DataFrames (`run, measure, topic,
value`), `wide` making runs × measures of them. The names load on first use, and pandas with
them, so that importing `focal` costs nothing until a function is called.

>>> import focal
>>> focal.evaluate is focal.api.evaluate
True
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as mypy and editors see them
    from focal.api import compare, evaluate, pool, read_qrels, read_run
    from focal.frames import wide
    from focal.reliability.api import (
        leave_one_group_out,
        pool_depths,
        pool_sampling,
        topic_swap_rates,
    )

_HOMES = {
    "evaluate": "focal.api", "compare": "focal.api", "read_qrels": "focal.api",
    "read_run": "focal.api", "pool": "focal.api", "wide": "focal.frames",
    "pool_sampling": "focal.reliability.api", "pool_depths": "focal.reliability.api",
    "topic_swap_rates": "focal.reliability.api", "leave_one_group_out": "focal.reliability.api",
}  # fmt: skip
__all__ = [
    "compare", "evaluate", "leave_one_group_out", "pool", "pool_depths", "pool_sampling",
    "read_qrels", "read_run", "topic_swap_rates", "wide",
]  # fmt: skip


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'focal' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
