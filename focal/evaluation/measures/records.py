"""What an evaluation is asked (`Settings`) and what it gives (`TopicEvaluation`,
`RunEvaluation`), whichever engine computes it, and the `all` rows (`aggregate`), which every
engine's evaluation shares.

`Settings` is a frozen dataclass: it goes whole to the engines, to worker threads and (pickled)
to worker processes, and its measure names are checked by the registry's grammar
(`focal.evaluation.measures.registry.names`) in the vocabulary of its task.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from focal.evaluation.measures.elements import quantisation
from focal.evaluation.measures.elements import topic as element_topic
from focal.evaluation.measures.registry import declarations, names

Value = int | float


@dataclass(frozen=True)
class Settings:
    """How to evaluate: the task and the official program's switches."""

    task: str = "focused"
    complete: bool = False  # -c: average over every qrels topic, missing topics scoring 0
    beta: float = 0.25  # -beta: F weight of Relevant in Context
    n: int = 500  # -n: Best in Context distance window
    irr: int = 300  # -irr: T2I tolerance to irrelevance (characters)
    strict: bool = False  # corrected definitions instead of the official quirks
    measures: tuple[str, ...] = names.DEFAULTS["articles"]  # for task "articles"
    elements: element_topic.ElementOptions | None = None  # for task "elements"

    def __post_init__(self) -> None:
        if self.task not in declarations.TASKS:
            raise ValueError(f"unknown task {self.task!r}: one of {', '.join(declarations.TASKS)}")
        if self.task == "elements":
            _check_element_settings(self)
            return
        for name in self.measures:
            names.parse(name, "articles")
        if self.n < 1 or self.irr < 1 or self.beta < 0:
            raise ValueError("n and irr must be at least 1 and beta at least 0")


@dataclass(frozen=True)
class TopicEvaluation:
    """One topic's values, in printed order, and its interpolated precision curve."""

    topic: str
    values: dict[str, Value]
    curve: tuple[float, ...] = ()  # iP at 101 (focused) or 11 (in context) recall points
    answered: bool = True  # False: absent from the run, scored 0 (only with `complete`)


@dataclass
class RunEvaluation:
    """A run's per-topic evaluation and what was noticed on the way."""

    run_id: str
    file: str
    settings: Settings
    topics: list[TopicEvaluation]
    warnings: list[str] = field(default_factory=list)
    unknown_topics: list[str] = field(default_factory=list)  # in the run, not in the qrels
    # (num_rel, rel_size) summed over every qrels topic: the `all` rows of ric, bic and t2i
    qrels_relevant: tuple[int, int] | None = None

    @property
    def averaging(self) -> str:
        answered = sum(1 for t in self.topics if t.answered)
        if self.settings.complete:
            return f"averaged over all {len(self.topics)} qrels topics (-c; {answered} answered)"
        return f"averaged over the {answered} qrels topics the run answers (no -c)"


def aggregate(evaluation: RunEvaluation) -> dict[str, Value]:
    """The `all` rows: num_q, sums of counts, means of measures (sequential sums, as the
    official program), MAiP/MAgP, and the interpolated precision curve `ircl_prn.x`.

    For ric, bic and t2i, `num_rel` and `rel_size` are summed over every qrels topic even
    without -c, as the official program 3.1 prints them (checked on an INEX 2010 run that
    answers 50 of the 52 topics: 5471 and 17,641,119, the whole qrels)."""
    topics = evaluation.topics
    count = len(topics)
    task = evaluation.settings.task
    result: dict[str, Value] = {"num_q": count}
    if not topics:
        return result
    rows = list(topics[0].values)
    for row in rows:
        column = [t.values[row] for t in topics]
        if declarations.is_summed(row):
            result[row] = int(sum(column))
        elif row not in ("AiP", "AgP"):
            result[row] = sum(map(float, column)) / count
    if task in declarations.CONTEXT_TASKS and evaluation.qrels_relevant is not None:
        # The official program sums these two over every qrels topic, with or without -c, for
        # the in-context tasks (focused and thorough sum over the topics averaged).
        result["num_rel"], result["rel_size"] = evaluation.qrels_relevant
    if task in declarations.PASSAGE_TASKS:
        result = _insert_before(result, "iP[0.00]", {}, after={"MAiP": _mean(topics, "AiP")})
    elif task in declarations.CONTEXT_TASKS:
        result = _insert_before(result, "gP[1]", {"MAgP": _mean(topics, "AgP")})
    if task != "articles":
        points = len(topics[0].curve)
        # The curves' columns, each summed in topic order (as the official program sums them).
        for i, at_level in enumerate(zip(*(t.curve for t in topics), strict=True)):
            result[declarations.curve_name(i / (points - 1))] = sum(at_level) / count
    return result


def _mean(topics: Sequence[TopicEvaluation], row: str) -> float:
    return sum([float(t.values[row]) for t in topics]) / len(topics)


def _insert_before(
    rows: dict[str, Value],
    anchor: str,
    before: dict[str, Value],
    after: dict[str, Value] | None = None,
) -> dict[str, Value]:
    """Insert `before` ahead of `anchor`, or `after` at the end: the official `all` order."""
    ordered: dict[str, Value] = {}
    for name, value in rows.items():
        if name == anchor:
            ordered.update(before)
        ordered[name] = value
    ordered.update(after or {})
    return ordered


def _check_element_settings(settings: Settings) -> None:
    """Element task: its own default measures and options; every selection checked."""
    if settings.measures == names.DEFAULTS["articles"]:
        object.__setattr__(settings, "measures", names.DEFAULTS["elements"])
    if settings.elements is None:
        object.__setattr__(settings, "elements", element_topic.ElementOptions())
    object.__setattr__(settings, "complete", True)  # spec section 5: over the qrels topics
    for name in settings.measures:
        names.parse(name, "elements")
    options = settings.elements
    assert options is not None
    quantisation.canonical(options.quant)
    if options.ties not in ("score", "rank"):
        raise ValueError(f"unknown tie handling {options.ties!r}: score or rank")
    if options.nonrel not in ("indicator", "complement"):
        raise ValueError(f"unknown non-relevance {options.nonrel!r}: indicator or complement")
    if not 0.0 <= options.alpha <= 1.0:
        raise ValueError("alpha must be in [0, 1]")
    if options.part_weights not in ("size", "equal"):
        raise ValueError(f"unknown part weights {options.part_weights!r}: size or equal")
