"""Every element measure stays within its bounds on random runs and qrels, under every
quantisation each scale defines, every alpha and both part weights; the ideal run scores 1."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.formats.elements.qrels import ElementJudgement, ElementScale, to_four_grades
from focal.evaluation.measures.elements.cutoffs import ElementKey
from focal.evaluation.measures.elements.quantisation import QUANTISATIONS, scales
from focal.evaluation.measures.elements.topic import (
    ElementOptions,
    ElementResult,
    PreparedTopic,
    evaluate_topic,
)
from focal.evaluation.measures.elements.xcg import maep, nxcg_at, run_gains
from focal.evaluation.measures.registry.names import element_selection

ROWS = element_selection(["P@k", "overlap@k", "inex_eval", "nxCG@k", "MAep"])
CUTS = (1, 2, 3, 5, 8, 13, 50)


def _path(steps: list[int]) -> str:
    return "/article[1]" + "".join(f"/sec[{n}]" for n in steps)


PATHS = st.lists(st.integers(1, 3), max_size=3).map(_path)
KEYS = st.tuples(st.sampled_from(["a", "b"]), PATHS)
GRADES_2004 = st.tuples(st.integers(1, 3), st.integers(1, 3)) | st.just((0, 0))
GRADES_2005 = st.tuples(st.sampled_from(["1", "2", "?"]), st.sampled_from([0.1, 0.5, 1.0])) | (
    st.just(("0", 0.0))
)


@st.composite
def qrels(
    draw: st.DrawFn, scale: ElementScale | None = None
) -> tuple[ElementScale, dict[ElementKey, ElementJudgement]]:
    scale = scale or draw(st.sampled_from(["2004", "2005"]))
    keys = draw(st.lists(KEYS, unique=True, max_size=14))
    judged = {}
    for line, (article, path) in enumerate(keys, start=1):
        if scale == "2004":
            e, s = draw(GRADES_2004)
            judged[article, path] = ElementJudgement("1", article, path, e, s, line)
        else:
            e5, s5 = draw(GRADES_2005)
            size = draw(st.integers(1, 500))
            e4, s4 = to_four_grades(e5, s5)
            judgement = ElementJudgement(
                "1", article, path, e4, s4, line, e5, s5, int(s5 * size), size
            )
            judged[article, path] = judgement
    return scale, judged


@settings(max_examples=300, deadline=None)
@given(
    qrels(),
    st.lists(KEYS, max_size=20),
    st.sampled_from([0.0, 0.25, 0.5, 1.0]),
    st.sampled_from(["size", "equal"]),
    st.data(),
)
def test_every_measure_stays_in_bounds(
    judged: tuple[ElementScale, dict[ElementKey, ElementJudgement]],
    keys: list[ElementKey],
    alpha: float,
    part_weights: str,
    data: st.DataObject,
) -> None:
    scale, judgements = judged
    quant = data.draw(st.sampled_from([q for q in QUANTISATIONS if scale in scales(q) or
                                       scale == "2005"]))  # fmt: skip
    options = ElementOptions(quant=quant, alpha=alpha, part_weights=part_weights)  # type: ignore[arg-type]
    topic = PreparedTopic(judgements, scale, quant, options.part_weights)
    results = [ElementResult(a, p, 1.0 / (i + 1), i) for i, (a, p) in enumerate(keys)]
    values = evaluate_topic(results, topic, scale, options, ROWS)
    for name, value in values.items():
        assert 0.0 <= value <= 1.0 + 1e-12, (name, value)
    # the cumulated gain itself never passes the ideal's at any rank (nxCG is not clamped
    # into bounds by the ratio only)
    base = topic.base
    gains = run_gains(keys, base, alpha)
    assert all(g >= 0 for g in gains)
    total, best = 0.0, 0.0
    for rank, gain in enumerate(gains):
        total += gain
        best += base.ideal_values[rank] if rank < len(base.ideal_values) else 0.0
        assert total <= best + 1e-9, (rank, gains, base.ideal_values)
    # and the ideal run scores 1 wherever there is an ideal
    if base.ideal:
        ideal_gains = run_gains(list(base.ideal), base, alpha)
        assert nxcg_at(ideal_gains, base.ideal_values, CUTS) == dict.fromkeys(CUTS, 1.0)
        assert abs(maep(ideal_gains, base.ideal_values) - 1.0) < 1e-12
