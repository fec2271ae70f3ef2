"""One table of the assessment report and the bar chart drawn from it (no Flask)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

Cell = str | int | float | None


@dataclass(frozen=True, slots=True)
class Chart:
    """Bars of `value` per `label` (columns of the table; several are joined by "/");
    `y_max` None: the largest value."""

    value: str
    title: str
    label: str | tuple[str, ...]
    y_max: float | None

    @property
    def labels(self) -> tuple[str, ...]:
        return (self.label,) if isinstance(self.label, str) else self.label


PAPER = "Piwowarski, Trotman & Lalmas (2008)"
"""The INEX 2005-2006 assessment study the report repeats (docs/references.md, seed 003)."""
SOURCES = {
    "times": f"{PAPER}, Table III",
    "pooling_rounds": f"{PAPER}, Fig. 2",
    "passages": f"{PAPER}, Fig. 6",
    "elemental": f"{PAPER}, Table VIII",
    "bep_distance": f"{PAPER}, Fig. 7",
    "specificity": f"{PAPER}, Fig. 4",
    "specificity_by_category": f"{PAPER}, Table VII",
    "too_small": f"{PAPER}, Fig. 5 and §5.2.3",
    "relevant_elements": f"{PAPER}, Table IV",
    "behaviour": f"{PAPER}, §5.1.2",
}
"""Each table's source in the literature: the titles say what a table shows, a page's
"Method" note (and `focal report`'s titles) say where the analysis comes from."""


@dataclass(frozen=True, slots=True)
class ReportTable:
    """A named table: columns, rows, and `empty` (why there are no rows) when it has none."""

    name: str
    title: str
    columns: tuple[str, ...]
    rows: Sequence[tuple[object, ...]]
    empty: str | None = None
    charts: list[Chart] = field(default_factory=list)

    @property
    def source(self) -> str:
        """Where the analysis comes from, by author and year ("" for Focal's own)."""
        return SOURCES.get(self.name, "")

    def records(self) -> list[dict[str, object]]:
        """The rows as column -> value."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]

    def bars(self, chart: Chart) -> list[tuple[str, float | None]]:
        """(label, value) of every row but `all`, for `chart`."""
        labels = [self.columns.index(name) for name in chart.labels]
        value = self.columns.index(chart.value)
        out: list[tuple[str, float | None]] = []
        for row in self.rows:
            if row[labels[0]] == "all":
                continue
            number = row[value]
            label = "/".join(str(row[i]) for i in labels)
            out.append((label, float(number) if isinstance(number, int | float) else None))
        return out

    def y_max(self, chart: Chart) -> float:
        """The top of the chart's scale."""
        if chart.y_max is not None:
            return chart.y_max
        values = [value for _label, value in self.bars(chart) if value is not None]
        return max(values, default=0.0) or 1.0
