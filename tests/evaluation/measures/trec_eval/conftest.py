"""The engines' tests, against the installed C part or, with `FOCAL_TEST_KERNEL=PATH` (`make
sanitize`), against the build at PATH: put in the installed module's place before any test
module imports it, so that the engines themselves call it too (kernel_build.py)."""

from __future__ import annotations

import os
import sys

import pytest

from .kernel_build import NAME, load

_given = os.environ.get("FOCAL_TEST_KERNEL")
if _given:
    _present = sys.modules.get(NAME)
    if _present is not None and getattr(_present, "__file__", None) != _given:
        raise pytest.UsageError(f"FOCAL_TEST_KERNEL: {NAME} was imported before the conftest")
    if not os.path.isfile(_given):
        raise pytest.UsageError(f"FOCAL_TEST_KERNEL={_given}: no such file (a built module)")
    import focal.evaluation.measures.trec_eval.kernel as _package

    sys.modules[NAME] = _present or load(_given)
    _package._article_kernel = sys.modules[NAME]
