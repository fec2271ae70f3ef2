"""trec_eval's judgement groups (`-R qrels_jg`): several users' judgements of one topic.

A qrels_jg file is TREC qrels whose second field names the judgement group (the user):
`topic group doc grade` (`get_qrels_jg.c`), read by `formats.trec_eval_inputs.read_qrels_jg`;
this module only evaluates. Each group's judgements are a qrels of their own: the run is
evaluated against every group with the one article engine (`trec_run.evaluate_trec`), and a
topic's `map_avgjg`, `P_avgjg_k` and `Rprec_mult_avgjg_m` are the means over its groups of
`map`, `P_k` and `Rprec_mult_m` (`m_map_avgjg.c`, `m_P_avgjg.c`, `m_Rprec_mult_avgjg.c`: summed
group by group in group-name order, then divided by the number of groups). The `all` rows
average the topics as every other measure does.
"""

from __future__ import annotations

from dataclasses import replace

from focal.evaluation.formats.trec import TrecRun
from focal.evaluation.formats.trec_eval_inputs import JudgementGroups
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable
from focal.evaluation.measures.trec_eval.engine.run import (
    Number,
    TrecEvaluation,
    TrecOptions,
    Value,
    evaluate_trec,
)
from focal.evaluation.measures.trec_eval.families.declarations import GROUP_MEASURES, Selection
from focal.evaluation.measures.trec_eval.families.measure import Row


def _plain_selection(selection: Selection) -> Selection:
    """The plain measures behind the selected `*_avgjg` families, with their parameters."""
    inner = Selection(runid=selection.runid)
    for family, plain in GROUP_MEASURES.items():
        if family in selection.families:
            inner.families[plain] = selection.families[family]
    return inner


def _per_group(
    groups: JudgementGroups, run: TrecRun, inner: Selection, options: TrecOptions
) -> dict[str, TrecEvaluation]:
    """The run evaluated against each group's judgements alone, in group-name order."""
    per_group: dict[str, TrecEvaluation] = {}
    for group, judged in sorted(groups.grades.items()):
        table = GradeTable.from_mapping(judged, run.file)
        per_group[group] = evaluate_trec(table, run, inner, replace(options, complete=False))
    return per_group


def _group_means(
    groups: JudgementGroups,
    per_group: dict[str, TrecEvaluation],
    topics: list[str],
    rows: list[Row],
) -> dict[str, list[Value]]:
    """Row name -> per topic, the plain measure summed over the topic's groups in group-name
    order, then divided by their number (a group the run does not answer adds 0)."""
    values: dict[str, list[Value]] = {row.name: [] for row in rows}
    where = {g: {t: i for i, t in enumerate(e.topics)} for g, e in per_group.items()}
    for topic in topics:
        members = [g for g in sorted(per_group) if topic in groups.grades[g]]
        for row in rows:
            plain_name = GROUP_MEASURES[row.family] + row.name[len(row.family) :]
            total = 0.0
            for group in members:
                at = where[group].get(topic)
                if at is not None:
                    total += float(per_group[group].values[plain_name][at])
            values[row.name].append(total / len(members) if len(members) > 1 else total)
    return values


def _summary(
    topics: list[str], rows: list[Row], values: dict[str, list[Value]]
) -> dict[str, Number]:
    """The `all` rows: num_q, then each measure's mean over the topics."""
    summary: dict[str, Number] = {"num_q": len(topics)}
    for row in rows:
        column = values[row.name]
        total = 0.0
        for value in column:
            total += float(value)
        summary[row.name] = total / len(column) if column else 0.0
    return summary


def evaluate_groups(
    groups: JudgementGroups, run: TrecRun, selection: Selection, options: TrecOptions
) -> TrecEvaluation:
    """The run against every group; per topic the mean over its groups (topics the run does
    not answer score 0, as trec_eval's -c scores them; the caller decides whether they count)."""
    per_group = _per_group(groups, run, _plain_selection(selection), options)
    topics = groups.topics()
    answered = {topic for evaluation in per_group.values() for topic in evaluation.topics}
    if not options.complete:
        topics = [topic for topic in topics if topic in answered]
    rows = [row for row in selection.rows() if row.family in GROUP_MEASURES]
    values = _group_means(groups, per_group, topics, rows)
    summary = _summary(topics, rows, values)
    flags = [topic in answered for topic in topics]
    return TrecEvaluation(run.run_id, run.file, options, topics, values, summary, flags)
