"""Write evaluations: the official program's layout (`inex`), tab-separated rows, JSON, or one
table of runs × measures (`table`, the default for several runs).

With `focal eval --ci LEVEL`, every `all` row that is a mean over the topics also gets its
confidence interval over the topics (Student's t, or scipy's BCa bootstrap;
`focal.evaluation.statistics.significance.effects`): rows `NAME.ci_low` and `NAME.ci_high` after the
`all` rows in the inex and tsv layouts, an `intervals` object in JSON."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from decimal import Decimal
from typing import TYPE_CHECKING, TextIO

from focal.evaluation.output.intervals import Intervals
from focal.evaluation.output.tables import dump_json

if TYPE_CHECKING:  # the writers import the measures when they write: `focal eval` loads this
    from focal.evaluation.measures.evaluate import RunEvaluation, Value  # module before its runs


FORMATS = ("inex", "tsv", "json", "table")
# The columns of `table` per task: the official ranking measure first, then its early points.
TABLE_COLUMNS = {
    "focused": ("MAiP", "iP[0.00]", "iP[0.01]", "iP[0.05]", "iP[0.10]"),
    "ric": ("MAgP", "gP[5]", "gP[10]", "gP[25]", "gP[50]"),
}
TABLE_COLUMNS["thorough"] = TABLE_COLUMNS["focused"]
TABLE_COLUMNS["bic"] = TABLE_COLUMNS["t2i"] = TABLE_COLUMNS["ric"]


def mean_intervals(
    evaluations: Sequence[RunEvaluation], confidence: float, method: str = "t",
    samples: int = 10_000, seed: int | None = None,
) -> Intervals:  # fmt: skip
    """The interval of every `all` row that is a mean over the topics (`AiP` for `MAiP`,
    `AgP` for `MAgP`), per run; none for sums, curves or a run with fewer than two topics."""
    import numpy as np

    from focal.evaluation.measures.registry.declarations import is_summed
    from focal.evaluation.statistics.significance.effects import bootstrap_intervals, t_intervals

    found: dict[str, dict[str, tuple[float, float]]] = {}
    for evaluation in evaluations:
        topics = evaluation.topics
        if len(topics) < 2:
            continue
        rows = [row for row in topics[0].values if not is_summed(row)]
        if not rows:
            continue
        matrix = np.array([[float(t.values[row]) for row in rows] for t in topics])
        if method == "bootstrap":
            intervals = bootstrap_intervals(matrix, confidence, samples, seed)
        else:
            intervals = t_intervals(matrix, confidence)
        names = {"AiP": "MAiP", "AgP": "MAgP"}
        found[evaluation.run_id] = {
            names.get(row, row): (i.low, i.high) for row, i in zip(rows, intervals, strict=True)
        }
    return Intervals(confidence, method, found)


def quoteattr(value: str) -> str:
    """`value` as a quoted XML attribute, as `xml.sax.saxutils.quoteattr` writes it.

    Kept here because importing `xml.sax.saxutils` pulls in urllib, http and ssl (~25 ms of a
    `focal eval` that should start fast).

    >>> print(quoteattr('run "a" & <b>'))
    'run "a" &amp; &lt;b&gt;'
    """
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    value = value.replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in value:
        return f'"{value}"'
    if "'" not in value:
        return f"'{value}'"
    return '"' + value.replace('"', "&quot;") + '"'


def format_value(value: Value) -> str:
    """A value as the official (Java) program prints it: counts as integers, doubles as Java's
    `Double.toString` (shortest digits; scientific `d.dddE-n` below 10⁻³ and from 10⁷).

    >>> [format_value(v) for v in (100, 0.57, 0.0, 0.00064, 7.843137254901961e-05, 12345678.0)]
    ['100', '0.57', '0.0', '6.4E-4', '7.843137254901961E-5', '1.2345678E7']
    """
    if isinstance(value, int):
        return str(value)
    if value != value or value in (float("inf"), float("-inf")):
        return {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}[repr(value)]
    magnitude = abs(value)
    if value == 0 or 1e-3 <= magnitude < 1e7:
        text = repr(value)
        return text if "e" not in text else format(Decimal(text), "f")
    sign, digits, exponent = Decimal(repr(value)).as_tuple()
    assert isinstance(exponent, int)  # finite, checked above
    shown = "".join(map(str, digits)).rstrip("0") or "0"
    mantissa = shown[0] + "." + (shown[1:] or "0")
    return f"{'-' if sign else ''}{mantissa}E{len(digits) - 1 + exponent}"


def _row(name: str, topic: str, value: Value, digits: int | None = None) -> str:
    """One line of the official layout; with `digits`, a double at that many decimals."""
    # The official program aligns the topic column to the second tab stop.
    gap = "\t\t" if len(name) < 8 else "\t"
    shown = f"{value:.{digits}f}" if digits is not None and isinstance(value, float) else None
    return f"{name}{gap}{topic}\t{shown or format_value(value)}\n"


def write_inex(
    evaluations: Sequence[RunEvaluation], stream: TextIO, per_topic: bool,
    intervals: Intervals | None = None,
) -> None:  # fmt: skip
    """The official program's output: one `<eval>` block per run, per-topic rows with `-q`.
    The passage tasks print doubles as the official program does (`format_value`); the element
    task, which no official program prints in this layout, at a table's 4 decimals (tsv and
    json keep every digit)."""
    from focal.evaluation.measures.evaluate import aggregate

    for evaluation in evaluations:
        digits = 4 if evaluation.settings.task == "elements" else None
        mode = ' mode="strict"' if evaluation.settings.strict else ""
        run_id, file = quoteattr(evaluation.run_id), quoteattr(evaluation.file)
        stream.write(f"<eval run-id={run_id} file={file}{mode}>\n")
        if per_topic:
            for topic in evaluation.topics:
                for name, value in topic.values.items():
                    stream.write(_row(name, topic.topic, value, digits))
        for name, value in aggregate(evaluation).items():
            stream.write(_row(name, "all", value, digits))
        for name, value in intervals.rows(evaluation.run_id) if intervals else ():
            stream.write(_row(name, "all", value, digits))
        stream.write("</eval>\n")


def write_tsv(
    evaluations: Sequence[RunEvaluation], stream: TextIO, per_topic: bool,
    intervals: Intervals | None = None,
) -> None:  # fmt: skip
    """One row per value: `run_id  measure  topic  value`, with a header."""
    from focal.evaluation.measures.evaluate import aggregate

    stream.write("run_id\tmeasure\ttopic\tvalue\n")
    for evaluation in evaluations:
        rows = [(n, t.topic, v) for t in evaluation.topics for n, v in t.values.items()]
        rows = rows if per_topic else []
        rows += [(n, "all", v) for n, v in aggregate(evaluation).items()]
        rows += [(n, "all", v) for n, v in (intervals.rows(evaluation.run_id) if intervals else ())]
        for name, topic, value in rows:
            stream.write(f"{evaluation.run_id}\t{name}\t{topic}\t{format_value(value)}\n")


def write_json(
    evaluations: Sequence[RunEvaluation], stream: TextIO, per_topic: bool,
    intervals: Intervals | None = None,
) -> None:  # fmt: skip
    """A list with one object per run: settings, averaging, per-topic values, `all`, warnings;
    with `intervals`, `intervals`: its level, method and each mean's [low, high]."""
    from focal.evaluation.measures.evaluate import aggregate

    document = [
        {
            "run_id": evaluation.run_id,
            "file": evaluation.file,
            "settings": asdict(evaluation.settings),
            "averaging": evaluation.averaging,
            "topics": (
                {t.topic: {**t.values, "answered": t.answered} for t in evaluation.topics}
                if per_topic
                else {}
            ),
            "all": aggregate(evaluation),
            "warnings": evaluation.warnings,
            "unknown_topics": evaluation.unknown_topics,
        }
        for evaluation in evaluations
    ]
    if intervals is not None:
        intervals.attach(document)
    dump_json(document, stream)


def write_table(
    evaluations: Sequence[RunEvaluation],
    stream: TextIO,
    per_topic: bool,
    intervals: Intervals | None = None,
) -> None:
    """Runs × measures: the `all` values of the task's main measures (the chosen ones for
    articles), the best of each column marked (`focal.evaluation.output.leaderboard`)."""
    from focal.evaluation.measures.evaluate import aggregate
    from focal.evaluation.output.leaderboard import leaderboard_lines

    if per_topic:
        raise ValueError("--format table shows the `all` rows: -q with inex, tsv or json")
    if intervals is not None:
        raise ValueError("--format table shows the means: --ci with inex, tsv or json")
    if not evaluations:
        return
    settings = evaluations[0].settings
    columns: Sequence[str] = TABLE_COLUMNS.get(settings.task, settings.measures)
    if settings.task == "elements":
        from focal.evaluation.measures.registry.names import element_rows

        columns = element_rows(settings.measures)
    values = {
        e.run_id: {name: float(v) for name, v in aggregate(e).items() if name in columns}
        for e in evaluations
    }
    lower = [name for name in columns if name.startswith("overlap@")]  # less overlap is better
    stream.writelines(
        line + "\n" for line in leaderboard_lines(values, columns, lower_better=lower)
    )


WRITERS = {"inex": write_inex, "tsv": write_tsv, "json": write_json, "table": write_table}
