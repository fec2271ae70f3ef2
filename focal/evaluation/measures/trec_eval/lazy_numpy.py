"""numpy for trec_eval's measure families, imported when a family first computes.

The families declare every measure (`families.declarations`), and the declarations are what
`focal trec_eval` reads its `-m` list with; on plain files the C part computes the measures, so
that the command never needs numpy (0.1 s of import: docs/trec_eval.md, "The C part"). A family
module imports numpy as

    if TYPE_CHECKING:
        import numpy as np
    else:
        from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np

so that mypy sees numpy itself, and at run time `np` is `numpy` below: a module that imports
numpy at its first attribute look-up and then holds numpy's names as its own (later look-ups cost
what a module's do).
"""

from __future__ import annotations

import importlib
from types import ModuleType


class OnFirstUse(ModuleType):
    """A stand-in for a module, imported at the first attribute asked of it."""

    def __getattr__(self, attribute: str) -> object:
        module = importlib.import_module(self.__name__)
        self.__dict__.update(vars(module))  # (names the module makes later still come here)
        return getattr(module, attribute)


numpy = OnFirstUse("numpy")
