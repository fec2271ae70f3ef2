"""The `--ci` intervals of `focal eval` and `focal trec_eval`: one value both layouts print
(`NAME.ci_low` and `NAME.ci_high` rows after the `all` rows, an `intervals` object in JSON), so
it lives below both commands (docs/statistics.md, "How big a difference is")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Intervals:
    """The `--ci` intervals: run id -> `all` row name -> (low, high)."""

    confidence: float
    method: str
    runs: Mapping[str, Mapping[str, tuple[float, float]]] = field(default_factory=dict)

    def rows(self, run_id: str) -> list[tuple[str, float]]:
        """`NAME.ci_low` and `NAME.ci_high` of every interval of the run, in order."""
        found = self.runs.get(run_id, {})
        return [(f"{n}.ci_{side}", b) for n, (lo, hi) in found.items()
                for side, b in (("low", lo), ("high", hi))]  # fmt: skip

    def attach(self, document: list[dict[str, Any]]) -> None:
        """Add each run's `intervals` object to its JSON object (`run_id` names the run)."""
        for run in document:
            found = self.runs.get(str(run["run_id"]), {})
            run["intervals"] = {
                "confidence": self.confidence, "method": self.method,
                **{name: [low, high] for name, (low, high) in found.items()},
            }  # fmt: skip
