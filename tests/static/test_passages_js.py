"""The browser's copy of the passage rules answers as the server's (H-Rule ATOM, spec section 4).

The assessment screen shows a queued highlight before the server answers, so
`static/assess/passages.js` merges passages itself; the server's one implementation is
`evaluation.formats.records.merge_passages` (and `assessor.judging.spans.remove_span`
for removal). Node runs the ES module as it is (passages_harness.mjs) on one table of cases
and every answer must equal Python's.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from assessor.judging.spans import remove_span
from evaluation.formats.records import merge_passages

HARNESS = Path(__file__).with_name("passages_harness.mjs")

Span = tuple[int, int]

# (name, passages, a removal applied to the merged passages or None)
CASES: list[tuple[str, list[Span], Span | None]] = [
    ("empty", [], None),
    ("one", [(3, 9)], None),
    ("touching", [(0, 5), (5, 10)], None),
    ("overlapping", [(0, 6), (4, 10)], None),
    ("nested", [(0, 20), (5, 8)], None),
    ("nested, inner first", [(5, 8), (0, 20)], None),
    ("adjacent with a gap", [(0, 5), (6, 10)], None),
    ("unsorted", [(30, 40), (0, 5), (10, 12), (11, 20)], None),
    ("chain of touching", [(4, 6), (0, 2), (2, 4), (6, 8)], None),
    ("duplicates", [(1, 4), (1, 4), (1, 4)], None),
    ("same start, different ends", [(2, 3), (2, 9), (2, 5)], None),
    ("empty passages dropped", [(5, 5), (0, 2), (9, 9)], None),
    ("empty passage touching another", [(2, 2), (2, 6)], None),
    ("remove from the middle", [(0, 10)], (3, 5)),
    ("remove everything", [(0, 10)], (0, 10)),
    ("remove across two passages", [(0, 4), (6, 10)], (2, 8)),
    ("remove only touching", [(0, 4)], (4, 9)),
    ("remove from unsorted input", [(6, 10), (0, 4)], (3, 7)),
    ("remove nothing", [], (1, 2)),
]


def python_answers() -> list[dict[str, list[list[int]] | None]]:
    answers: list[dict[str, list[list[int]] | None]] = []
    for _name, passages, remove in CASES:
        merged = merge_passages(passages)
        removed = None if remove is None else remove_span(merged, *remove)
        answers.append(
            {
                "merged": [list(p) for p in merged],
                "removed": None if removed is None else [list(p) for p in removed],
            }
        )
    return answers


def test_the_browser_merges_and_removes_as_the_server_does() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: `make system-packages` installs Debian's nodejs")
    cases = [{"passages": passages, "remove": remove} for _name, passages, remove in CASES]
    run = subprocess.run(
        [node, str(HARNESS)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    browser = json.loads(run.stdout)
    for (name, _passages, _remove), ours, theirs in zip(
        CASES, python_answers(), browser, strict=True
    ):
        assert theirs == ours, name
