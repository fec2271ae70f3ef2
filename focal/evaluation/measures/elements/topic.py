"""One topic's element measures: the values of the printed rows a selection asks for.

Rows (spec section 5): `P@k` and `overlap@k` (k = 5, 10, 20, 30, 100, 200, 1500, or one
`P@10`), `inex_eval` (mean precall over 100 recall levels) and `inex_eval[x]` (the 100 levels),
`inex_eval_ng` and `inex_eval_ng[x]`, `nxCG@k` (k = 5, 10, 25, 50, or one `nxCG@7`), `MAep`;
the selection's names are read, and expanded into rows, by
`focal.evaluation.measures.registry.names`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from focal.evaluation.formats.elements.qrels import ElementJudgement, ElementScale
from focal.evaluation.measures.elements import cutoffs, overlap_ng, precall, quantisation, xcg
from focal.evaluation.measures.elements.cutoffs import ElementKey
from focal.evaluation.measures.elements.quantisation import Grades5

_CUT_FAMILIES = ("P", "overlap", "nxCG")  # rows `P@5`, `overlap@5`, `nxCG@5`


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
    wanted: Sequence[str],
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
    out: dict[str, float] = dict.fromkeys(wanted, 0.0)
    cut = {
        name: [int(r.split("@")[1]) for r in wanted if r.startswith(name + "@")]
        for name in _CUT_FAMILIES
    }
    for k, value in cutoffs.precision_at(gains, cut["P"]).items():
        out[f"P@{k}"] = value
    if cut["overlap"]:
        for k, value in cutoffs.overlap_at(keys, cut["overlap"]).items():
            out[f"overlap@{k}"] = value
    if any(r.startswith("inex_eval[") or r == "inex_eval" for r in wanted):
        curve = precall.precall_curve(
            gains, [r.score for r in results], sum(values.values()), options.ties, options.nonrel
        )
        _put_curve(out, "inex_eval", curve)
    if any(r.startswith("inex_eval_ng") for r in wanted):
        total_e = sum(dimensions(j, quant)[0] for j in topic.judged.values())
        spans = []
        for r in results:
            if r.span is None:
                raise ValueError("inex_eval_ng needs element spans (--collection)")
            e, s = dimensions(topic.judged.get((r.article, r.path)), quant)
            spans.append(overlap_ng.SpanResult(r.article, r.span[0], r.span[1], e, s))
        _put_curve(out, "inex_eval_ng", overlap_ng.inex_eval_ng(spans, total_e)[1])
    if cut["nxCG"] or "MAep" in out:
        base = topic.base
        run = xcg.run_gains(keys, base, options.alpha)
        for k, value in xcg.nxcg_at(run, base.ideal_values, cut["nxCG"]).items():
            out[f"nxCG@{k}"] = value
        if "MAep" in out:
            out["MAep"] = xcg.maep(run, base.ideal_values)
    return {name: out[name] for name in wanted}


def _put_curve(out: dict[str, float], stem: str, curve: Sequence[float]) -> None:
    if stem in out:
        out[stem] = sum(curve) / len(curve)
    for level, value in zip(precall.LEVELS, curve, strict=True):
        name = f"{stem}[{level:.2f}]"
        if name in out:
            out[name] = value
