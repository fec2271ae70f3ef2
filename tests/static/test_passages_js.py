"""The browser's copy of the passage rules answers as the server's (H-Rule ATOM, spec section 4).

The assessment screen shows a queued highlight before the server answers, so
`static/assess/passages.js` merges passages itself; the server's one implementation is
`focal.evaluation.formats.records.merge_passages` (and `focal.assessor.judging.spans.remove_span`
for removal). Node runs the ES module as it is (passages_harness.mjs) on one table of cases
and every answer must equal Python's: without the text (plain ATOM) and with it (ends trimmed of
whitespace; gaps of whitespace and punctuation closed unless the campaign switched that off).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from focal.assessor.judging.spans import remove_span
from focal.evaluation.formats.records import merge_passages

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

LAMP = "It came from the lamp, which would glow\u00a0all night \u2014 «quietly».\n\tEnd"
# (name, passages, removal, campaign merges across punctuation), on the text LAMP: offsets
# worked from LAMP ("lamp" [17, 21), "," 21, "which" [23, 28), "glow" [35, 39), NBSP 39,
# "all" [40, 43), "night" [44, 49), "—" 50, "«" 52, "quietly" [53, 60), "»" 60, "." 61,
# "End" [64, 67)).
TEXT_CASES: list[tuple[str, list[Span], Span | None, bool]] = [
    ("comma left out between two drags", [(0, 21), (23, 39)], None, True),
    ("the same, setting off", [(0, 21), (23, 39)], None, False),
    ("a drag that ends with a space", [(13, 23)], None, True),
    ("whitespace only is dropped", [(21, 23), (28, 29)], None, True),
    ("no-break space and dash between", [(35, 39), (40, 49), (53, 60)], None, True),
    ("guillemets, full stop, newline, tab", [(53, 60), (64, 67)], None, True),
    ("a word between stays a gap", [(17, 21), (29, 34)], None, True),
    ("removal leaves spaces at both ends", [(0, 39)], (13, 16), True),
    ("removal of a comma closes again", [(0, 39)], (21, 22), True),
    ("removal of a comma, setting off", [(0, 39)], (21, 22), False),
]


def all_cases() -> list[tuple[str, list[Span], Span | None, str | None, bool]]:
    """The cases without text, then those on LAMP: (name, passages, removal, text, across)."""
    plain = [(name, passages, remove, None, True) for name, passages, remove in CASES]
    on_text = [(n, p, r, LAMP, across) for n, p, r, across in TEXT_CASES]
    return [*plain, *on_text]


def python_answers() -> list[dict[str, list[list[int]] | None]]:
    answers: list[dict[str, list[list[int]] | None]] = []
    for _name, passages, remove, text, across in all_cases():
        merged = merge_passages(passages, text, across_punctuation=across)
        removed = (
            None
            if remove is None
            else remove_span(merged, *remove, text, across_punctuation=across)
        )
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
    cases = [
        {"passages": passages, "remove": remove, "text": text, "across": across}
        for _name, passages, remove, text, across in all_cases()
    ]
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
    for (name, *_rest), ours, theirs in zip(all_cases(), python_answers(), browser, strict=True):
        assert theirs == ours, name


def test_the_text_cases_are_worked_as_the_comments_say() -> None:
    """Hand-worked answers of some cases, so that both copies cannot agree on a wrong one."""
    assert LAMP[17:21] == "lamp" and LAMP[21] == "," and LAMP[23:28] == "which"
    assert merge_passages([(0, 21), (23, 39)], LAMP) == [(0, 39)]
    assert merge_passages([(0, 21), (23, 39)], LAMP, across_punctuation=False) == [
        (0, 21),
        (23, 39),
    ]
    assert merge_passages([(13, 23)], LAMP) == [(13, 22)]  # "the lamp, ": the comma stays
    assert merge_passages([(35, 39), (40, 49), (53, 60)], LAMP) == [(35, 60)]
    assert remove_span([(0, 39)], 13, 16, LAMP) == [(0, 12), (17, 39)]
