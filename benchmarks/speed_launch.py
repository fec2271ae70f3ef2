"""The plumbing of benchmarks/speed_goals.py: its rows, its launcher and its table cells.

Commands run through benchmarks/passages.py's launcher (`measured`: wall time from fork to exit,
CPU time of the command and its workers, peak resident memory of its largest process, from
`wait4`). A row whose feature or peer is missing on the code measured says "n/a (reason)"
rather than stopping the other rows.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FOCAL = [sys.executable, "-P", "-c", "import sys; from focal.assessor.cli.main import main; main()"]
Figures = tuple[float, float, float]  # wall s, CPU s, peak MiB


class NotAvailable(Exception):
    """The row's feature or peer is missing: the row prints n/a with the reason."""


@dataclass
class Row:
    job: str
    focal: str = "n/a"
    peer: str = "-"
    ratio: float | None = None
    cpu_ratio: float | None = None
    goal: str = "-"
    met: bool | None = None
    memory: str = "-"
    values: str = "-"


def sibling(name: str) -> ModuleType:
    """Another benchmark by path (`-P` keeps benchmarks/ off sys.path; and there, its
    evaluation.py would shadow the package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PASSAGES = sibling("passages")  # the launcher (`measured`) and `compile_focal`


def run(command: list[str], output: Path) -> Figures:
    try:
        seconds, cpu, mib = PASSAGES.measured(command, output)
    except SystemExit as failure:
        tail = output.read_text()[-300:] if output.exists() else ""
        raise NotAvailable(f"{failure} {tail}".strip()) from None
    return seconds, cpu, mib


def said(figures: Figures) -> str:
    return f"{figures[0]:.2f} s (CPU {figures[1]:.2f} s)"


def per_unit(small: tuple[int, Figures], large: tuple[int, Figures]) -> tuple[float, float]:
    """Cost per unit and fixed cost (wall seconds) from two sizes: a straight line."""
    (n1, f1), (n2, f2) = small, large
    slope = (f2[0] - f1[0]) / (n2 - n1)
    return slope, f1[0] - slope * n1


def optional(job: str, build: Callable[[], Any]) -> Any:
    """A row, or "n/a (reason)" when its feature or peer is missing on this code."""
    try:
        return build()
    except Exception as why:  # whatever the code lacks: the other rows still run
        text = " ".join(str(why).split())[:160]
        reason = text if isinstance(why, NotAvailable) else f"{type(why).__name__}: {text}"
        return Row(job, f"n/a ({reason})")


def show(row: Row) -> str:
    ratio = "-" if row.ratio is None else f"**{row.ratio:.2f}**"
    if row.cpu_ratio is not None:
        cpu = f"CPU {row.cpu_ratio:.2f}"
        ratio = f"**{cpu}**" if row.ratio is None else f"{ratio} ({cpu})"
    met = {None: "-", True: "met", False: "NOT met"}[row.met]
    if row.values.startswith("DIFFER"):  # a ratio on different values does not count
        met = "NOT met (values)"
    cells = (row.job, row.focal, row.peer, ratio, row.goal, met, row.memory, row.values)
    return "| " + " | ".join(cells) + " |"
