"""One topic's element measures: the values of the printed rows a selection asks for.

Rows (spec section 5): `P@k` and `overlap@k` (k = 5, 10, 20, 30, 100, 200, 1500, or one
`P@10`), `inex_eval` (mean precall over 100 recall levels) and `inex_eval[x]` (the 100 levels),
`inex_eval_ng` and `inex_eval_ng[x]`, `nxCG@k` (k = 5, 10, 25, 50, or one `nxCG@7`), `MAep`;
the selection's names are read, and expanded into `rows.ElementRow`s with their cut-offs and
levels, by `focal.evaluation.measures.registry.names.element_selection`: the computations here
read those parameters, never the rows' names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from focal.evaluation.formats.elements.qrels import ElementJudgement, ElementScale
from focal.evaluation.measures.elements import cutoffs, overlap_ng, precall, quantisation, xcg
from focal.evaluation.measures.elements.cutoffs import ElementKey
from focal.evaluation.measures.elements.quantisation import Grades5
from focal.evaluation.measures.elements.rows import (
    ElementRow,
    asks,
    cut_offs,
    put_curve,
    put_cut_offs,
)


@dataclass(frozen=True)
class ElementOptions:
    """How to score elements: the quantisation and the choices the papers leave open."""

    quant: str = "generalised"
    ties: precall.Ties = "score"  # inex_eval blocks: equal scores, or every rank its own
    nonrel: precall.NonRelevance = "indicator"  # inex_eval: f = 0 counts, or 1 - f
    alpha: float = 1.0  # XCG: a seen element gains (1 - alpha) * x
    part_weights: xcg.PartWeights = "size"  # XCG, seen in part: children weighed by size


@dataclass(frozen=True, slots=True)
class ElementResult:
    """A run's element result: its key, score, source line and span (with a collection)."""

    article: str
    path: str
    score: float
    line: int
    span: tuple[int, int] | None = None


def needs_spans(selection: Sequence[str]) -> bool:
    """Whether the selection needs element spans (inex_eval_ng: characters seen)."""
    return any(name.startswith("inex_eval_ng") for name in selection)


def gain(judgement: ElementJudgement | None, quant: str, scale: ElementScale) -> float:
    """The quantised value of an assessment; an element not listed is (0, 0). With qrels of
    the 2005/2006 layout a function with a 2005 definition reads e and s as they are, a
    four-grade one the mapped grades; a 2005-only function on four-grade qrels is a
    ValueError naming the scale."""
    if judgement is None:
        return 0.0
    key = (judgement.article, judgement.path)
    return quantised_values({key: judgement}, quant, scale)[key]


def quantised_values(
    judged: Mapping[ElementKey, ElementJudgement], quant: str, scale: ElementScale
) -> dict[ElementKey, float]:
    """Every assessed element's value under `quant` (see `gain`)."""
    key = quantisation.canonical(quant)
    if quantisation.definition_for(key, scale) == "2004":  # one table look-up an element
        table = quantisation.TABLES_2004[key]
        return {k: table.get((j.e4, j.s4), 0.0) for k, j in judged.items()}
    function = quantisation.FUNCTIONS_2005[key]
    values = {}
    for k, j in judged.items():
        if j.e5 is None or j.s5 is None:
            raise ValueError(f"quantisation {quant} needs 2005/2006 element qrels")
        values[k] = function(Grades5(j.e5, j.s5))
    return values


def dimensions(judgement: ElementJudgement | None, quant: str) -> tuple[float, float]:
    """(e-part, s-part) of an assessment for inex_eval_ng."""
    if judgement is None:
        return 0.0, 0.0
    if judgement.e5 is not None and judgement.s5 is not None:
        return quantisation.dimensions_2005(quant, judgement.e5, judgement.s5)
    return quantisation.dimensions_2004(quant, judgement.e4, judgement.s4)


@dataclass
class PreparedTopic:
    """One topic's judgements under one quantisation: the values and XCG's recall base, worked
    out once and shared by every run evaluated against them."""

    judged: Mapping[ElementKey, ElementJudgement]
    scale: ElementScale
    quant: str
    part_weights: xcg.PartWeights = "size"
    values: dict[ElementKey, float] = field(init=False)
    _base: xcg.RecallBase | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.values = quantised_values(self.judged, self.quant, self.scale)

    @property
    def base(self) -> xcg.RecallBase:
        """XCG's recall base (built on first use)."""
        if self._base is None:
            sizes = {k: j.size for k, j in self.judged.items() if j.size is not None}
            self._base = xcg.RecallBase(self.values, sizes, self.part_weights)
        return self._base


def evaluate_topic(
    results: Sequence[ElementResult],
    judged: Mapping[ElementKey, ElementJudgement] | PreparedTopic,
    scale: ElementScale,
    options: ElementOptions,
    wanted: Sequence[ElementRow],
) -> dict[str, float]:
    """The values of the printed rows `wanted` for one topic's results in rank order."""
    quant = options.quant
    topic = (
        judged
        if isinstance(judged, PreparedTopic)
        else PreparedTopic(judged, scale, quant, options.part_weights)
    )
    values = topic.values
    keys = [(r.article, r.path) for r in results]
    gains = [values.get(key, 0.0) for key in keys]
    out: dict[str, float] = dict.fromkeys((row.name for row in wanted), 0.0)
    put_cut_offs(out, wanted, "P@k", cutoffs.precision_at(gains, cut_offs(wanted, "P@k")))
    if asks(wanted, "overlap@k"):
        overlaps = cutoffs.overlap_at(keys, cut_offs(wanted, "overlap@k"))
        put_cut_offs(out, wanted, "overlap@k", overlaps)
    if asks(wanted, "inex_eval"):
        curve = precall.precall_curve(
            gains, [r.score for r in results], sum(values.values()), options.ties, options.nonrel
        )
        put_curve(out, wanted, "inex_eval", curve)
    if asks(wanted, "inex_eval_ng"):
        total_e = sum(dimensions(j, quant)[0] for j in topic.judged.values())
        spans = []
        for r in results:
            if r.span is None:
                raise ValueError("inex_eval_ng needs element spans (--collection)")
            e, s = dimensions(topic.judged.get((r.article, r.path)), quant)
            spans.append(overlap_ng.SpanResult(r.article, r.span[0], r.span[1], e, s))
        put_curve(out, wanted, "inex_eval_ng", overlap_ng.inex_eval_ng(spans, total_e)[1])
    if asks(wanted, "nxCG@k") or asks(wanted, "MAep"):
        base = topic.base
        run = xcg.run_gains(keys, base, options.alpha)
        found = xcg.nxcg_at(run, base.ideal_values, cut_offs(wanted, "nxCG@k"))
        put_cut_offs(out, wanted, "nxCG@k", found)
        if asks(wanted, "MAep"):
            out["MAep"] = xcg.maep(run, base.ideal_values)
    return {row.name: out[row.name] for row in wanted}
