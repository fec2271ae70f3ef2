"""trec_eval's judgement groups (`-R qrels_jg`): several users' judgements of one topic.

A qrels_jg file is TREC qrels whose second field names the judgement group (the user):
`topic group doc grade` (`get_qrels_jg.c`; `#` starts a comment line). Each group's judgements
are a qrels of their own: the run is evaluated against every group with the one article engine
(`trec_run.evaluate_trec`), and a topic's `map_avgjg`, `P_avgjg_k` and `Rprec_mult_avgjg_m` are
the means over its groups of `map`, `P_k` and `Rprec_mult_m` (`m_map_avgjg.c`, `m_P_avgjg.c`,
`m_Rprec_mult_avgjg.c`: summed group by group in group-name order, then divided by the number
of groups). The `all` rows average the topics as every other measure does.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from focal.evaluation.errors import FormatError
from focal.evaluation.formats._source import read_bytes
from focal.evaluation.formats.trec import DuplicateDocument, TrecRun
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable
from focal.evaluation.measures.trec_eval.engine.run import (
    Number,
    TrecEvaluation,
    TrecOptions,
    Value,
    evaluate_trec,
)
from focal.evaluation.measures.trec_eval.families.declarations import GROUP_MEASURES, Selection

Groups = dict[str, dict[str, dict[bytes, int]]]  # group -> topic -> document -> grade


def read_qrels_jg(path: str | Path) -> Groups:
    """A qrels_jg file; a line of other than 4 fields, a grade that is not an integer, or a
    document twice in one topic's group is a FormatError naming the line."""
    name = str(path)
    groups: Groups = {}
    seen: dict[tuple[bytes, bytes, bytes], int] = {}
    for number, line in enumerate(read_bytes(path).split(b"\n"), 1):
        words = line.split()
        if not words or words[0].startswith(b"#"):
            continue
        if len(words) != 4:
            message = f"expected 4 fields `topic group doc grade` (qrels_jg), found {len(words)}"
            raise FormatError(name, number, message)
        try:
            grade = int(words[3])
        except ValueError:
            message = f"expected an integer grade, found {words[3]!r}"
            raise FormatError(name, number, message) from None
        key = (words[0], words[1], words[2])
        if key in seen:
            raise DuplicateDocument(
                name, number, f"document {words[2].decode(errors='replace')!r} is judged twice "
                f"in group {words[1].decode(errors='replace')!r} (also line {seen[key]})",
            )  # fmt: skip
        seen[key] = number
        topic = words[0].decode(errors="replace")
        group = groups.setdefault(words[1].decode(errors="replace"), {})
        group.setdefault(topic, {})[words[2]] = grade
    return groups


def topics_of(groups: Groups) -> list[str]:
    """Every topic some group judged, in trec_eval's (byte) order."""
    return sorted({topic for judged in groups.values() for topic in judged})


def evaluate_groups(
    groups: Groups, run: TrecRun, selection: Selection, options: TrecOptions
) -> TrecEvaluation:
    """The run against every group; per topic the mean over its groups (topics the run does
    not answer score 0, as trec_eval's -c scores them; the caller decides whether they count)."""
    inner = Selection(runid=selection.runid)
    for family, plain in GROUP_MEASURES.items():
        if family in selection.families:
            inner.families[plain] = selection.families[family]
    per_group: dict[str, TrecEvaluation] = {}
    for group, judged in sorted(groups.items()):
        table = GradeTable.from_mapping(judged, run.file)
        per_group[group] = evaluate_trec(table, run, inner, replace(options, complete=False))
    topics = topics_of(groups)
    answered = {topic for evaluation in per_group.values() for topic in evaluation.topics}
    if not options.complete:
        topics = [topic for topic in topics if topic in answered]
    rows = [row for row in selection.rows() if row.family in GROUP_MEASURES]
    values: dict[str, list[Value]] = {row.name: [] for row in rows}
    where = {g: {t: i for i, t in enumerate(e.topics)} for g, e in per_group.items()}
    for topic in topics:
        members = [g for g in sorted(per_group) if topic in groups[g]]
        for row in rows:
            plain_name = GROUP_MEASURES[row.family] + row.name[len(row.family) :]
            total = 0.0
            for group in members:
                at = where[group].get(topic)
                if at is not None:
                    total += float(per_group[group].values[plain_name][at])
            values[row.name].append(total / len(members) if len(members) > 1 else total)
    summary: dict[str, Number] = {"num_q": len(topics)}
    for row in rows:
        column = values[row.name]
        total = 0.0
        for value in column:
            total += float(value)
        summary[row.name] = total / len(column) if column else 0.0
    flags = [topic in answered for topic in topics]
    return TrecEvaluation(run.run_id, run.file, options, topics, values, summary, flags)
