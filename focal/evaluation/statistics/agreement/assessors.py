"""How far two assessors of the same topics agree (spec section 7; seed 003 §5.2.6-5.2.7).

For every topic that both assessors judged, from their FOL qrels (one `Judgement` per article):

- documents (seed 003 Table IX): the relevant articles (`rel_chars > 0`) of each, `docs_a` and
  `docs_b`, those relevant for both, `docs_both`, and `docs_agreement` = |A∩B| / |A∪B| (the TREC
  convention the seed follows); Cohen's `kappa` and Krippendorff's nominal `alpha` of the
  binary decision relevant / not relevant, over the articles BOTH judged (an article only one
  of them saw is no decision of the other's);
- text (seed 003 Table XI): the highlighted characters of each, `chars_a` (J1) and `chars_b`
  (J2), the characters both highlighted in the same article, `chars_both` (∩), and ∩/J1, ∩/J2,
  ∩/(J1 + J2 − ∩). With A as the reference, ∩/J1 is B's character recall and ∩/J2 its
  character precision; `char_f1` = 2∩/(J1 + J2) is their harmonic mean (symmetric in A and B).
  Characters of an article only one assessor found relevant count in that one's J and never in
  ∩, whether or not the other judged it;
- passages: Krippendorff's unitizing `alpha_u` (`unitizing`) over the articles BOTH judged,
  one continuum per topic; an article one found relevant and the other not puts all of the
  first's passages in the other's gap. The `all` row's α_U is not a mean: it is α_U of the
  articles of every topic as one continuum.

A ratio whose denominator is 0 is undefined (None, written `-`): so is kappa when the chance
agreement is 1 (both assessors gave every article of the topic the same single label), and
alpha when the articles hold fewer than two different values. The `all` row sums the six
counts and averages each ratio, kappa and alpha over the topics where it is defined, as the
"Mean" rows of seed 003 Tables X and XI do (a macro average: every topic weighs the same).

Krippendorff's alpha comes from the maintained `krippendorff` package.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from statistics import fmean

from focal.evaluation.formats.records import Judgement, Qrels
from focal.evaluation.statistics.agreement.characters import covered, overlap
from focal.evaluation.statistics.agreement.labels import cohen_kappa, nominal_alpha
from focal.evaluation.statistics.agreement.unitizing import (
    Continuum,
    ContinuumBuilder,
    UnitizedArticle,
    continuum_alpha,
    joined,
)

COLUMNS = (
    "topic",
    "docs_a",
    "docs_b",
    "docs_both",
    "docs_agreement",
    "kappa",
    "chars_a",
    "chars_b",
    "chars_both",
    "both_over_a",
    "both_over_b",
    "both_over_union",
    "char_f1",
    "alpha_u",
)
"""The columns of an agreement table, in order (spec section 7)."""

MEANINGS = {
    "docs_a": "articles a judged relevant",
    "docs_b": "articles b judged relevant",
    "docs_both": "articles both judged relevant",
    "docs_agreement": "docs_both / articles either judged relevant",
    "kappa": "Cohen's kappa of relevant or not over the articles both judged",
    "chars_a": "characters a highlighted",
    "chars_b": "characters b highlighted",
    "chars_both": "characters both highlighted",
    "both_over_a": "chars_both / chars_a",
    "both_over_b": "chars_both / chars_b",
    "both_over_union": "chars_both / characters either highlighted",
    "alpha": "Krippendorff's alpha",
}
"""What each column counts, for the legend under a text table (`output.tables.legend_line`)."""

Cell = str | int | float | None


class AgreementError(ValueError):
    """Two sets of judgements that cannot be compared as asked (no topic in common...)."""


@dataclass(frozen=True, slots=True)
class TopicAgreement:
    """One row of the agreement table: a topic, or `all`."""

    topic: str
    docs_a: int
    docs_b: int
    docs_both: int
    docs_agreement: float | None
    kappa: float | None
    chars_a: int
    chars_b: int
    chars_both: int
    both_over_a: float | None
    both_over_b: float | None
    both_over_union: float | None
    char_f1: float | None
    alpha_u: float | None
    judged_both: int  # articles judged by both: what kappa and alpha are computed over
    alpha: float | None

    def cells(self) -> dict[str, Cell]:
        """The row by column name: `COLUMNS` first, then `judged_both` and `alpha`."""
        return {field.name: getattr(self, field.name) for field in fields(self)}


def ratio(numerator: int, denominator: int) -> float | None:
    """`numerator / denominator`, None when the denominator is 0.

    >>> ratio(1, 4), ratio(3, 0)
    (0.25, None)
    """
    return numerator / denominator if denominator else None


def topic_agreement(
    topic: str,
    judged_a: Mapping[str, Judgement],
    judged_b: Mapping[str, Judgement],
    passages: Continuum | None = None,
) -> TopicAgreement:
    """The agreement of two assessors' judgements (article -> judgement) of one topic;
    `passages` is their `topic_continuum` when the caller has it already (to pool it)."""
    relevant_a = {article for article, line in judged_a.items() if line.relevant}
    relevant_b = {article for article, line in judged_b.items() if line.relevant}
    both = relevant_a & relevant_b
    shared = [article for article in judged_a if article in judged_b]
    labels_a = [judged_a[article].relevant for article in shared]
    labels_b = [judged_b[article].relevant for article in shared]
    chars_a = sum(covered(judged_a[article].passages) for article in relevant_a)
    chars_b = sum(covered(judged_b[article].passages) for article in relevant_b)
    chars_both = sum(
        overlap(judged_a[article].passages, judged_b[article].passages) for article in both
    )
    if passages is None:
        passages = topic_continuum(judged_a, judged_b)
    return TopicAgreement(
        topic=topic,
        docs_a=len(relevant_a),
        docs_b=len(relevant_b),
        docs_both=len(both),
        docs_agreement=ratio(len(both), len(relevant_a | relevant_b)),
        kappa=cohen_kappa(labels_a, labels_b),
        chars_a=chars_a,
        chars_b=chars_b,
        chars_both=chars_both,
        both_over_a=ratio(chars_both, chars_a),
        both_over_b=ratio(chars_both, chars_b),
        both_over_union=ratio(chars_both, chars_a + chars_b - chars_both),
        char_f1=ratio(2 * chars_both, chars_a + chars_b),
        alpha_u=_alpha_u(passages),
        judged_both=len(shared),
        alpha=nominal_alpha(labels_a, labels_b),
    )


def unitized(
    judged_a: Mapping[str, Judgement], judged_b: Mapping[str, Judgement]
) -> list[UnitizedArticle]:
    """The articles both judged, as continua for α_U: `unitized_length` and each side's
    passages."""
    out = []
    for article, line_a in judged_a.items():
        line_b = judged_b.get(article)
        if line_b is None:
            continue
        length = unitized_length(line_a, line_b)
        out.append(UnitizedArticle(length, (line_a.passages, line_b.passages)))
    return out


def unitized_length(line_a: Judgement, line_b: Judgement) -> int:
    """An article's length in α_U's continuum: the longer of the two lengths recorded, or the
    last passage's end when a qrels line gives no length."""
    length = max(line_a.article_chars, line_b.article_chars, 0)
    if line_a.passages or line_b.passages:
        return max(length, *(end for _, end in (*line_a.passages, *line_b.passages)))
    return length


def topic_continuum(
    judged_a: Mapping[str, Judgement], judged_b: Mapping[str, Judgement]
) -> Continuum:
    """The articles both judged (`unitized`) as one continuum: what α_U needs of a topic, and
    what the `all` row pools (`unitizing.joined`). Built article by article, without the
    intermediate `UnitizedArticle`s (the agreement overview computes 52 topics at once)."""
    builder = ContinuumBuilder()
    add, find = builder.add, judged_b.get
    for article, line_a in judged_a.items():
        line_b = find(article)
        if line_b is not None:
            add(unitized_length(line_a, line_b), (line_a.passages, line_b.passages))
    return builder.build()


def _alpha_u(passages: Continuum) -> float | None:
    result = continuum_alpha(passages)
    return None if result is None else result.alpha


def mean_defined(values: Iterable[float | None]) -> float | None:
    """The mean of the values that are not None (None when there are none)."""
    defined = [value for value in values if value is not None]
    return fmean(defined) if defined else None


def summary(rows: Sequence[TopicAgreement], alpha_u: float | None = None) -> TopicAgreement:
    """The `all` row: counts summed, ratios averaged over the topics where they are defined.

    `alpha_u` is α_U of every topic's articles as one continuum (`agreement` computes it).
    """

    def total(name: str) -> int:
        return sum(getattr(row, name) for row in rows)

    def mean(name: str) -> float | None:
        return mean_defined(getattr(row, name) for row in rows)

    return TopicAgreement(
        topic="all",
        docs_a=total("docs_a"),
        docs_b=total("docs_b"),
        docs_both=total("docs_both"),
        docs_agreement=mean("docs_agreement"),
        kappa=mean("kappa"),
        chars_a=total("chars_a"),
        chars_b=total("chars_b"),
        chars_both=total("chars_both"),
        both_over_a=mean("both_over_a"),
        both_over_b=mean("both_over_b"),
        both_over_union=mean("both_over_union"),
        char_f1=mean("char_f1"),
        alpha_u=alpha_u,
        judged_both=total("judged_both"),
        alpha=mean("alpha"),
    )


def topic_key(identifier: str) -> tuple[int, int, str]:
    """Topics in natural order: numeric ids numerically, then the others as strings."""
    return (0, int(identifier), "") if identifier.isdigit() else (1, 0, identifier)


def common_topics(
    qrels_a: Qrels, qrels_b: Qrels, topic: str | None = None, names: tuple[str, str] = ("A", "B")
) -> list[str]:
    """The topics both judged, in natural order (only `topic` when given).

    AgreementError when there is none, or when `topic` is not judged by both (`names` name the
    two sides in the message: file names or assessors).
    """
    name_a, name_b = names
    shared = sorted(set(qrels_a) & set(qrels_b), key=topic_key)
    if topic is not None:
        if topic not in shared:
            missing = " and ".join(
                side for side, qrels in ((name_a, qrels_a), (name_b, qrels_b)) if topic not in qrels
            )
            raise AgreementError(f"topic {topic} is not judged by {missing}")
        return [topic]
    if not shared:
        raise AgreementError(
            f"no topic in common: {name_a} judged {_listed(qrels_a)}, "
            f"{name_b} judged {_listed(qrels_b)}"
        )
    return shared


def _listed(qrels: Qrels, shown: int = 5) -> str:
    topics = sorted(qrels, key=topic_key)
    if not topics:
        return "no topic"
    more = f" and {len(topics) - shown} more" if len(topics) > shown else ""
    return "topics " + ", ".join(topics[:shown]) + more


def agreement(
    qrels_a: Qrels,
    qrels_b: Qrels,
    topic: str | None = None,
    names: tuple[str, str] = ("A", "B"),
) -> tuple[list[TopicAgreement], TopicAgreement]:
    """The per-topic rows of the topics both judged, and the `all` row."""
    topics = common_topics(qrels_a, qrels_b, topic, names)
    continua = [topic_continuum(qrels_a[name], qrels_b[name]) for name in topics]
    rows = [
        topic_agreement(name, qrels_a[name], qrels_b[name], passages)
        for name, passages in zip(topics, continua, strict=True)
    ]
    return rows, summary(rows, _alpha_u(joined(continua)))
