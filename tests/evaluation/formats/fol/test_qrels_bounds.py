"""Qrels out of the bounds of `focal.evaluation.formats.bounds`: the first judgement out of bounds
is named by line, whether the bounds are checked on whole columns or judgement by judgement."""

from __future__ import annotations

from pathlib import Path

import pytest

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.qrels import read_qrels

GOOD = "1 Q0 10 5 900 0 0:5\n1 Q0 11 0 800\n"
BAD = {
    "article length": ("2 Q0 12 0 2147483648\n", "article length between 0 and"),
    "passage end": ("2 Q0 12 10 900 2147483640 2147483640:10\n", "passage end between 0 and"),
    "best entry point": ("2 Q0 12 5 900 2147483648 0:5\n", "best entry point between 0 and"),
    "topic id": ("2" * 51 + " Q0 12 0 800\n", "topic id of at most 50 characters"),
    "article id": ("2 Q0 " + "1" * 201 + " 0 800\n", "article id of at most 200"),
}


@pytest.mark.parametrize("case", BAD)
def test_first_judgement_out_of_bounds_is_named(tmp_path: Path, case: str) -> None:
    line, message = BAD[case]
    path = tmp_path / "q.qrels"
    path.write_text(GOOD + line + GOOD.replace("1 Q0", "3 Q0"))
    with pytest.raises(FormatError) as error:
        read_qrels(path)
    assert f"{path}:3" in str(error.value) and message in str(error.value)


def test_within_bounds(tmp_path: Path) -> None:
    path = tmp_path / "q.qrels"
    path.write_text(GOOD + "2 Q0 12 0 2147483647\n")
    assert read_qrels(path)["2"]["12"].article_chars == 2**31 - 1
