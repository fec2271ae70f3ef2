"""The one table layout: aligned text for reading, TSV and JSON for programs."""

from __future__ import annotations

import io

from focal.evaluation.output.tables import dump_json, table_lines, titled_tables


def test_text_aligns_the_columns_and_trims_trailing_spaces() -> None:
    rows = [["alpha", 0.5, None], ["b", 12, True]]
    left = "".join(table_lines(["run", "mean", "note"], rows, "text"))
    assert left == "run    mean    note\nalpha  0.5000  -\nb      12      yes\n"
    right = "".join(table_lines(["run", "mean", "note"], rows, "text", numbers_right=True))
    assert right == "run      mean  note\nalpha  0.5000     -\nb          12   yes\n"


def test_tsv_keeps_full_precision() -> None:
    lines = list(table_lines(["p"], [[1 / 3], [float("inf")], [False]], "tsv"))
    assert lines == ["p\n", "0.3333333333333333\n", "inf\n", "no\n"]


def test_titled_tables_separate_tables_by_a_blank_line() -> None:
    tables = {"a": ["x\n"], "b": [], "c": ["z\n"]}
    assert "".join(titled_tables(tables)) == "# a\nx\n\n# b\n\n# c\nz\n"


def test_json_ends_in_a_newline() -> None:
    stream = io.StringIO()
    dump_json({"a": [1, None]}, stream, indent=None)
    assert stream.getvalue() == '{"a": [1, null]}\n'


def test_counts_print_as_integers_and_a_legend_follows_the_text_table() -> None:
    from focal.evaluation.output.tables import table_lines

    # "judged" holds counts (floats, as a mean over samples of equal sizes gives them); "kept"
    # holds ratios that happen to be whole; "tau" a ratio.
    rows = [[10, 4374.0, 1.0, 0.5], [20, 12.0, 0.0, 0.25]]
    lines = list(
        table_lines(
            ["depth", "judged", "kept", "tau"], rows, "text", meanings={"judged": "articles judged"}
        )
    )
    assert lines[1].split() == ["10", "4374", "1.0000", "0.5000"]
    assert lines[-1] == "judged: articles judged\n"
    tsv = list(table_lines(["depth", "judged"], [[10, 4374.0]], "tsv", meanings={"judged": "x"}))
    assert tsv == ["depth\tjudged\n", "10\t4374.0\n"]  # programs get the values as they are
