"""Focal from Python, for notebooks and scripts: evaluate, compare, read and pool with pandas
DataFrames (docs/python.md).

A small facade over `evaluation`, `pooling` and `reliability`: inputs are paths, DataFrames in
ir_measures' columns (`query_id, doc_id, relevance` / `score`), dicts of dicts as pytrec_eval
takes them, or Focal's records; measures are names in any vocabulary (Focal's, trec_eval's,
ir_measures') or ir_measures' objects; results are tidy DataFrames (`run, measure, topic,
value`), `wide` making runs × measures of them. The names load on first use, and pandas with
them, so that importing `focal` costs nothing until a function is called.

`dir(focal)` lists the public functions, `__version__` and the submodules: `api`, `frames` and
`inputs` (this facade), `evaluation`, `pooling` and `reliability` (the lower-level API of their
`__all__`, docs/python.md) and `assessor` (the web app; internal). Everything else may change
between releases.

>>> import focal
>>> focal.evaluate is focal.api.evaluate
True
"""

import typing

from focal._version import __version__ as __version__

if typing.TYPE_CHECKING:  # the names as mypy and editors see them
    from focal import api as api
    from focal import assessor as assessor
    from focal import evaluation as evaluation
    from focal import frames as frames
    from focal import inputs as inputs
    from focal import pooling as pooling
    from focal import reliability as reliability
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
_SUBMODULES = ("api", "assessor", "evaluation", "frames", "inputs", "pooling", "reliability")
__all__ = [
    "compare", "evaluate", "leave_one_group_out", "pool", "pool_depths", "pool_sampling",
    "read_qrels", "read_run", "topic_swap_rates", "wide",
]  # fmt: skip


def __getattr__(name: str) -> object:
    """A public function or a submodule, imported on first use."""
    import importlib

    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'focal' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names, the submodules and the module's own dunder attributes: no helper."""
    own = [name for name in globals() if name.startswith("__") and name.endswith("__")]
    return sorted({*__all__, *_SUBMODULES, *own})


del typing  # used only for the names above; not part of the API
