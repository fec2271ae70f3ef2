"""The agreement table of two assessors: the rows every front end prints (spec section 7).

One row per topic both judged and an `all` row, with the columns of `agreement.COLUMNS`; when
asked, Mathet et al.'s `gamma` (module `gamma`, the optional extra) follows them; with element
records, the columns of `element_agreement.ELEMENT_COLUMNS` and Krippendorff's `alpha` follow.
`focal agreement` (files or database) and the organiser's agreement page both build it here,
so they show the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from focal.evaluation.formats.exports import ArticleElements
from focal.evaluation.formats.records import Qrels
from focal.evaluation.statistics.agreement.assessors import (
    COLUMNS,
    Cell,
    TopicAgreement,
    agreement,
    unitized,
)
from focal.evaluation.statistics.agreement.elements import (
    ELEMENT_COLUMNS,
    ElementAgreement,
    element_agreement,
    element_summary,
)

ElementsByTopic = Mapping[str, Sequence[ArticleElements]]
"""One assessor's element records, per topic (relevant articles; others have none)."""


@dataclass(frozen=True, slots=True)
class AgreementTable:
    """Per-topic rows, the `all` row, and the element level when it was asked for."""

    names: tuple[str, str]
    rows: list[TopicAgreement]
    total: TopicAgreement
    element_rows: list[ElementAgreement] | None = None
    element_total: ElementAgreement | None = None
    gammas: tuple[float | None, ...] | None = None  # one per row, then the `all` row

    @property
    def has_gamma(self) -> bool:
        return self.gammas is not None

    @property
    def has_elements(self) -> bool:
        return self.element_rows is not None

    def columns(self) -> tuple[str, ...]:
        """The column names, in order."""
        gamma = ("gamma",) if self.has_gamma else ()
        return COLUMNS + gamma + ((*ELEMENT_COLUMNS, "alpha") if self.has_elements else ())

    def records(self) -> list[dict[str, Cell]]:
        """Every row (the topics, then `all`) as column -> value, in column order."""
        element_rows: list[ElementAgreement | None] = [None] * (len(self.rows) + 1)
        if self.element_rows is not None and self.element_total is not None:
            element_rows = [*self.element_rows, self.element_total]
        gammas = self.gammas or (None,) * (len(self.rows) + 1)
        out = []
        rows = zip([*self.rows, self.total], element_rows, gammas, strict=True)
        for row, elements, gamma in rows:
            cells = row.cells()
            cells["gamma"] = gamma
            if elements is not None:
                cells.update(elements.cells())
            out.append({column: cells[column] for column in self.columns()})
        return out


def agreement_table(
    qrels_a: Qrels,
    qrels_b: Qrels,
    *,
    topic: str | None = None,
    names: tuple[str, str] = ("A", "B"),
    elements: tuple[ElementsByTopic, ElementsByTopic] | None = None,
    gamma: bool = False,
) -> AgreementTable:
    """The table of two assessors' qrels; with `elements`, the element level too; with
    `gamma`, γ per topic and of all topics as one continuum (`gamma.GammaUnavailableError`
    when the optional package is missing).

    Raises `agreement.AgreementError` when they have no topic in common, or `topic` is not
    judged by both. Worked: A highlights characters 0-10 of article x, B characters 5-10; both
    call it relevant, they share 5 characters, half of A's and all of B's:

    >>> from focal.evaluation.formats.records import Judgement
    >>> a = {"1": {"x": Judgement("1", "x", 10, 100, 0, ((0, 10),), 1)}}
    >>> b = {"1": {"x": Judgement("1", "x", 5, 100, 5, ((5, 10),), 1)}}
    >>> row = agreement_table(a, b).rows[0]
    >>> row.docs_both, row.chars_both, row.both_over_a, row.both_over_b, row.both_over_union
    (1, 5, 0.5, 1.0, 0.5)
    """
    rows, total = agreement(qrels_a, qrels_b, topic, names)
    gammas = None
    if gamma:
        from focal.evaluation.statistics.agreement.gamma import gamma as gamma_of

        continua = [unitized(qrels_a[row.topic], qrels_b[row.topic]) for row in rows]
        pooled = [article for articles in continua for article in articles]
        gammas = (*(gamma_of(articles) for articles in continua), gamma_of(pooled))
    if elements is None:
        return AgreementTable(names, rows, total, gammas=gammas)
    by_topic_a, by_topic_b = elements
    element_rows = [
        element_agreement(row.topic, by_topic_a.get(row.topic, ()), by_topic_b.get(row.topic, ()))
        for row in rows
    ]
    return AgreementTable(
        names, rows, total, element_rows, element_summary(element_rows), gammas=gammas
    )


HEADINGS: dict[str, tuple[str, str]] = {
    "topic": ("Topic", "the topic both assessors judged, or all of them"),
    "docs_a": ("Relevant for A", "articles assessor A found relevant"),
    "docs_b": ("Relevant for B", "articles assessor B found relevant"),
    "docs_both": ("Relevant for both", "articles both found relevant"),
    "docs_agreement": (
        "Article agreement",
        "relevant for both / relevant for either (Piwowarski, Trotman & Lalmas 2008)",
    ),
    "kappa": (
        "Cohen's κ",
        "chance-corrected agreement on relevant or not, over the articles both judged",
    ),
    "chars_a": ("Characters A", "characters A highlighted"),
    "chars_b": ("Characters B", "characters B highlighted"),
    "chars_both": ("Characters both", "characters both highlighted in the same article"),
    "both_over_a": (
        "Share of A's",
        "characters both / A's characters: B's character recall with A as reference",
    ),
    "both_over_b": (
        "Share of B's",
        "characters both / B's characters: B's character precision with A as reference",
    ),
    "both_over_union": ("Overlap", "characters both / characters either highlighted"),
    "char_f1": ("Character F1", "2 × characters both / (A's + B's characters)"),
    "alpha_u": (
        "Unitizing α_U",
        "Krippendorff's agreement on where passages begin and end, corrected for chance, over "
        "the articles both judged (1 = the same passages; 0 = no better than chance)",
    ),
    "gamma": (
        "γ",
        "Mathet et al.'s γ: passages aligned, their position disagreement corrected for chance",
    ),
    "elements_a": ("Elements A", "elements relevant for A"),
    "elements_b": ("Elements B", "elements relevant for B"),
    "elements_both": ("Elements both", "elements relevant for both"),
    "elements_agreement": ("Element agreement", "relevant for both / relevant for either"),
    "exact": ("Same values", "same exhaustivity and specificity class / relevant for either"),
    "same_exhaustivity": ("Same exhaustivity", "same exhaustivity / relevant for either"),
    "spec_within_0.1": ("Specificity ±0.1", "specificities less than 0.1 apart / either"),
    "spec_within_0.5": ("Specificity ±0.5", "specificities less than 0.5 apart / either"),
    "spec_within_0.9": ("Specificity ±0.9", "specificities less than 0.9 apart / either"),
    "alpha": ("Krippendorff's α", "nominal α of relevant or not, over the articles both judged"),
}
"""Every column in words and its definition, as the agreement pages head and explain them."""
