"""Focal's evaluation core: XML text model, INEX file formats, measures, relevance rules and
statistics.

Pure Python plus numpy/scipy: nothing here imports Flask, SQLAlchemy, `pooling` or `assessor`.
Layers, lowest first: `processes` <- `output` <- `text` <- `formats` <- `measures | relevance |
baseline | statistics` <- `running` <- `cli` <- `api`; `errors` is shared by all
(docs/architecture.md).

Public, as the lower-level API beneath `focal`'s: the names in `__all__` (`focal.evaluation.api`,
documented in docs/python.md, "The packages underneath") are what a script or notebook may call;
every other module is internal and may move between releases. The names load on first use, so
that importing a module of the package does not load the measures.

>>> import focal.evaluation
>>> focal.evaluation.evaluate is focal.evaluation.api.evaluate
True
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as mypy and editors see them
    from focal.evaluation.api import (
        Evaluation,
        Judgement,
        Result,
        Run,
        compare,
        effect_sizes,
        evaluate,
        read_qrels,
        read_run,
    )

__all__ = [
    "Evaluation", "Judgement", "Result", "Run", "compare", "effect_sizes", "evaluate",
    "read_qrels", "read_run",
]  # fmt: skip


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(import_module("focal.evaluation.api"), name)
    raise AttributeError(f"module 'focal.evaluation' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
