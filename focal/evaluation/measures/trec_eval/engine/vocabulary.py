"""trec_eval's article measures for a `-m` list in any spelling (`trec_eval.names`): the
names read in the call's options go through one `trec_run.evaluate_trec`, and each name with
options of its own (`P(rel=2)@5`: `-l 2`; `RR@10`: `-M 10` on recip_rank) through one more
evaluation of its family alone; `Judged@k` (ir_measures' judged fraction of the top k, which
trec_eval lacks) is counted on the ranked run, and trectools' `RBP` and the compat provider's
`Compat` on the run's rows in file order (`ir_providers`). Every such row is named as typed, after
trec_eval's rows, so `P(rel=2)@5` and `P_5` may stand side by side.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from focal.evaluation.formats.arrow import numeric_array
from focal.evaluation.formats.trec import TrecRun, duplicate_error
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable, PreparedRun
from focal.evaluation.measures.trec_eval.engine.run import (
    Number,
    TrecEvaluation,
    TrecOptions,
    Value,
    evaluate_trec,
    rank_run,
)
from focal.evaluation.measures.trec_eval.families.declarations import Selection
from focal.evaluation.measures.trec_eval.families.measure import NONPOOL
from focal.evaluation.measures.trec_eval.families.top_ranks import gdeval
from focal.evaluation.measures.trec_eval.ir_names import COMPAT, TRECTOOLS_RBP
from focal.evaluation.measures.trec_eval.ir_providers import (
    Judged,
    Rows,
    compatibility,
    rank_biased_precision,
)
from focal.evaluation.measures.trec_eval.names import (
    GDEVAL_ERR,
    GDEVAL_NDCG,
    JUDGED,
    Definition,
    parse_trec,
)
from focal.evaluation.measures.trec_eval.selection import NamedSelection as NamedSelection
from focal.evaluation.measures.trec_eval.selection import merged as merged
from focal.evaluation.measures.trec_eval.selection import select as select


def evaluate_named(
    index: GradeTable, run: TrecRun | PreparedRun, selection: Selection, options: TrecOptions
) -> TrecEvaluation:
    """`evaluate_trec`, then each row apart with its own options, merged on the same topics.

    >>> from focal.evaluation.measures.trec_eval.engine.grades import GradeTable, PreparedRun
    >>> from focal.evaluation.formats.trec import run_from_pairs
    >>> index = GradeTable.from_mapping({"q": {b"a": 2, b"b": 1}})
    >>> run = run_from_pairs("r", "", {"q": {b"a": 0.5, b"b": 0.9, b"x": 0.1}}, [])
    >>> e = evaluate_named(index, run, select(["P@2", "P(rel=2)@2", "Judged@4"]), TrecOptions())
    >>> e.summary["P_2"], e.summary["P(rel=2)@2"], round(e.summary["Judged@4"], 4)
    (1.0, 0.5, 0.6667)
    """
    if not isinstance(selection, NamedSelection) or not selection.apart:
        return evaluate_trec(index, run, selection, options)
    evaluation = evaluate_trec(index, run, selection.plain(), options)
    for definition in selection.apart:
        if definition.family == JUDGED:
            values, summary = _judged(index, run, options, evaluation, definition)
        elif definition.family in (GDEVAL_NDCG, GDEVAL_ERR):
            values, summary = _gdeval(index, run, options, evaluation, definition)
        elif definition.family in (TRECTOOLS_RBP, COMPAT):
            values, summary = _provided(index, run, options, evaluation, definition)
        else:
            values, summary = _apart(index, run, options, evaluation, definition)
        evaluation.values[definition.text] = values
        evaluation.summary[definition.text] = summary
    return evaluation


def _apart(
    index: GradeTable, run: TrecRun | PreparedRun, options: TrecOptions, evaluation: TrecEvaluation,
    definition: Definition,
) -> tuple[list[Value], Number]:  # fmt: skip
    """One name's family evaluated alone with the options it carries: its relevance level,
    cut, `judged_only` (-J) and gains (the grades mapped, as ir_measures' pytrec_eval provider
    maps its qrels)."""
    own = replace(
        options,
        level=options.level if definition.level is None else definition.level,
        max_docs=definition.max_docs or options.max_docs,
        judged_only=options.judged_only or definition.judged_only,
    )
    alone = parse_trec([definition.trec_name])
    if definition.gains:
        index = index.with_gains(dict(definition.gains))
    result = evaluate_trec(index, run, alone, own)
    row = alone.rows()[0].name
    if result.topics != evaluation.topics:
        raise ValueError(f"measure {definition.text}: its topics differ from the run's")
    return list(result.values[row]), result.summary[row]


def _gdeval(
    index: GradeTable, run: TrecRun | PreparedRun, options: TrecOptions, evaluation: TrecEvaluation,
    definition: Definition,
) -> tuple[list[Value], Number]:  # fmt: skip
    """gdeval.pl's nDCG@k or ERR@k (`top_ranks.gdeval`) on the ranked run; a topic the run
    does not answer (with -c) scores 0, and the mean is over the evaluation's topics."""
    ranked, answered, _ = rank_run(index, run, options)
    ndcg, err = gdeval(ranked, int(definition.parameter or 0))
    chosen = ndcg if definition.family == GDEVAL_NDCG else err
    by_topic = dict(zip(answered, chosen.tolist(), strict=True))
    values: list[Value] = [by_topic.get(topic, 0.0) for topic in evaluation.topics]
    return values, _mean(values, index, options, evaluation)


def _provided(
    index: GradeTable, run: TrecRun | PreparedRun, options: TrecOptions, evaluation: TrecEvaluation,
    definition: Definition,
) -> tuple[list[Value], Number]:  # fmt: skip
    """trectools' RBP or the compat provider's Compat (`ir_providers`) on the run's rows in file
    order, whatever the call's -l, -M and -J (the measure's own options say what counts); a
    topic the run does not answer (with -c) scores 0, the mean is over the evaluation's topics."""
    prepared = index.prepare(run)
    grades = index.grades_of(prepared.codes, prepared.docs)
    if grades is None:
        raise duplicate_error(prepared.file)
    p = definition.persistence
    compat = definition.family == COMPAT
    rows = Rows(prepared.codes.astype(np.int64), [*index.topics, *prepared.unknown],
                prepared.docs.to_pylist() if compat else [], prepared.score, grades)  # fmt: skip
    if compat:
        every = numeric_array(np.arange(len(index.codes), dtype=np.int64))
        judged = Judged(index.codes.astype(np.int64), index.pairs.docs.take(every).to_pylist(),
                        index.raw_grades)  # fmt: skip
        found = compatibility(rows, judged, p, definition.normalize)
        by_topic = {index.topics[code]: value for code, value in found.items()}
    else:
        depth = None if definition.parameter is None else int(definition.parameter)
        rbp = rank_biased_precision(rows, p, depth, definition.level)
        by_topic = dict(zip(index.topics, rbp.tolist(), strict=False))
    values: list[Value] = [by_topic.get(topic, 0.0) for topic in evaluation.topics]
    return values, _mean(values, index, options, evaluation)


def _mean(values: list[Value], index: GradeTable, options: TrecOptions,
          evaluation: TrecEvaluation) -> float:  # fmt: skip
    count = len(evaluation.topics) if options.version == 10 else sum(evaluation.answered)
    divisor = len(index.topics) if options.complete else count
    return sum(float(v) for v in values) / divisor if divisor else 0.0


def _judged(
    index: GradeTable, run: TrecRun | PreparedRun, options: TrecOptions, evaluation: TrecEvaluation,
    definition: Definition,
) -> tuple[list[Value], Number]:  # fmt: skip
    """Judged@k: documents of ranks 1..k present in the qrels, divided by the documents there
    are in ranks 1..k (k, or fewer when the run retrieved fewer; ir_measures' definition); a
    topic the run does not answer (with -c) scores 0. Ties are ordered as trec_eval orders
    them (document id descending), where ir_measures' own code sorts them ascending."""
    k = int(definition.parameter or 0)
    ranked, answered, _ = rank_run(index, run, options)
    ends = np.append(ranked.starts[1:], len(ranked.grades)) if len(answered) else np.zeros(0)
    by_topic = {}
    for topic, start, end in zip(answered, ranked.starts.tolist(), ends.tolist(), strict=True):
        top = ranked.grades[start : min(end, start + k)]
        by_topic[topic] = float(np.count_nonzero(top != NONPOOL)) / len(top) if len(top) else 0.0
    values: list[Value] = [by_topic.get(topic, 0.0) for topic in evaluation.topics]
    return values, _mean(values, index, options, evaluation)
