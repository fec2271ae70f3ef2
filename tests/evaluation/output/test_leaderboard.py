"""The runs × measures table: the best value of each column marked, the smallest where less is
better (overlap), a missing value shown as `-`."""

from __future__ import annotations

from focal.evaluation.output.leaderboard import leaderboard_lines


def test_the_best_of_each_column_is_marked_and_lower_is_better_where_said() -> None:
    values = {"a": {"P@5": 0.6, "overlap@5": 0.4}, "b": {"P@5": 0.4, "overlap@5": 0.2}, "c": {}}
    lines = list(leaderboard_lines(values, ["P@5", "overlap@5"], lower_better=["overlap@5"]))
    cells = [line.split() for line in lines]
    assert cells[0] == ["run", "P@5", "overlap@5"]
    assert cells[1] == ["a", "0.6000*", "0.4000"]
    assert cells[2] == ["b", "0.4000", "0.2000*"]
    assert cells[3] == ["c", "-", "-"]


def test_one_run_has_no_mark() -> None:
    assert list(leaderboard_lines({"a": {"AP": 0.5}}, ["AP"]))[1] == "a    0.5000"
