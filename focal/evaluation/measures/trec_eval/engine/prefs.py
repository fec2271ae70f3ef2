"""trec_eval's preference judgements (`-R prefs`, `-R qrels_prefs`) evaluated on a run.

    topic group sub_group doc level        prefs (5 fields, `get_prefs.c`)
    topic group doc grade                  qrels read as prefs (`get_qrels_prefs.c`: one
                                           sub-group per group, the grade as the level)

The files are read by `formats.trec_eval_inputs.read_preferences` (levels with C's `atof`,
`trec_eval.c_numbers.c_atof`); this module only evaluates. Each topic's run is ranked by the
article engine (`trec_run.rank_run`: score, then document id, `-M`), the judged documents it
retrieved are numbered in that order, and `articles.preferences` counts and
`articles.preference_measures` scores them. A topic the run does not answer is an empty ranking
(with -c; without it the caller stops as trec_eval does).
"""

from __future__ import annotations

from dataclasses import replace

from focal.evaluation.formats.trec import TrecRun
from focal.evaluation.formats.trec_eval_inputs import Preferences
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable
from focal.evaluation.measures.trec_eval.engine.run import (
    Number,
    TrecEvaluation,
    TrecOptions,
    Value,
    rank_run,
)
from focal.evaluation.measures.trec_eval.families.declarations import COUNTS, Selection
from focal.evaluation.measures.trec_eval.families.measure import Row
from focal.evaluation.measures.trec_eval.families.preference_measures import preference_value
from focal.evaluation.measures.trec_eval.families.preferences import (
    Preference,
    PreferenceError,
    count,
)


def _retrieved(
    numbers: dict[str, dict[bytes, int]], run: TrecRun, options: TrecOptions
) -> tuple[dict[str, list[bytes]], list[str]]:
    """Topic -> the judged documents the run retrieved, in its ranking; and the judged topics
    the run answers."""
    table = GradeTable.from_mapping(numbers, run.file)
    # form_prefs_counts.c breaks score ties by document id ascending (form_res_rels.c: descending)
    ranked, answered, _ = rank_run(table, run, replace(options, judged_only=False), "ascending")
    starts = ranked.starts.tolist()
    ends = [*starts[1:], len(ranked.grades)] if starts else []  # (no judged topic answered)
    retrieved: dict[str, list[bytes]] = {}
    for topic, start, end in zip(answered, starts, ends, strict=True):
        names = sorted(numbers[topic])
        retrieved[topic] = [names[g] for g in ranked.grades[start:end].tolist() if g >= 0]
    return retrieved, answered


def _topic_values(
    file: str,
    judgements: dict[str, list[Preference]],
    retrieved: dict[str, list[bytes]],
    topics: list[str],
    rows: list[Row],
) -> dict[str, list[Value]]:
    """Row name -> each topic's value; an inconsistent topic stops with the file and topic."""
    values: dict[str, list[Value]] = {row.name: [] for row in rows}
    for topic in topics:
        try:
            counts = count(judgements[topic], retrieved.get(topic, []))
        except PreferenceError as error:
            raise PreferenceError(f"{file}: topic {topic}: {error}", topic) from None
        for row in rows:
            measured = preference_value(row.family, counts)
            values[row.name].append(int(measured) if row.name in COUNTS else measured)
    return values


def _summary(
    topics: list[str], rows: list[Row], values: dict[str, list[Value]]
) -> dict[str, Number]:
    """The `all` rows: num_q, counts summed, the rest averaged over the topics."""
    summary: dict[str, Number] = {"num_q": len(topics)}
    for row in rows:
        total = 0.0
        for value in values[row.name]:
            total += float(value)
        if row.name in COUNTS:
            summary[row.name] = int(total)
        else:
            summary[row.name] = total / len(topics) if topics else 0.0
    return summary


def evaluate_preferences(
    preferences: Preferences, run: TrecRun, selection: Selection, options: TrecOptions
) -> TrecEvaluation:
    """The run's preference measures per judged topic (topics the run lacks: an empty
    ranking), and the `all` rows: counts summed, the rest averaged."""
    judgements = {
        topic: [Preference(line.group, line.sub_group, line.level, line.doc) for line in lines]
        for topic, lines in preferences.topics.items()
    }
    numbers = {
        topic: {doc: i for i, doc in enumerate(sorted({p.doc for p in prefs}))}
        for topic, prefs in judgements.items()
    }
    retrieved, answered = _retrieved(numbers, run, options)
    topics = sorted(judgements) if options.complete else [t for t in answered]
    rows = [row for row in selection.rows() if row.family.startswith("prefs_")]
    values = _topic_values(preferences.file, judgements, retrieved, topics, rows)
    summary = _summary(topics, rows, values)
    flags = [topic in retrieved for topic in topics]
    return TrecEvaluation(run.run_id, run.file, options, topics, values, summary, flags)
