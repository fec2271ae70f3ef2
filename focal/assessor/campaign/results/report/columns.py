"""The assessment report's columns in words: a header and a one-line definition for each.

The tables keep short code names (`relevant_mean_s`), which the CSV downloads and `focal report`
use as they are; the Report page shows each column under its header here and lists the
definitions under the table, and shows a column measured in seconds (a name ending in `_s`) as
minutes and seconds. A column missing here is shown under its code name.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Column:
    """How the Report page names a column and what it says the column counts."""

    header: str
    definition: str


COLUMNS: dict[str, Column] = {
    "topic": Column("Topic", "the topic's id; 'all' sums or averages the rows above"),
    "assessor": Column("Assessor", "who judged"),
    "relevant": Column("Relevant articles", "articles judged relevant (with a time)"),
    "relevant_mean_s": Column(
        "Time per relevant article", "mean time from showing a relevant article to leaving it"
    ),
    "nonrelevant": Column("Not relevant articles", "articles judged not relevant (with a time)"),
    "nonrelevant_mean_s": Column(
        "Time per not relevant article", "mean time spent on an article judged not relevant"
    ),
    "topic_s": Column(
        "Time for the topic", "all the time the assessor spent on the topic ('all': the mean)"
    ),
    "idle_gaps": Column("Idle gaps", "pauses longer than the idle limit, left out of the times"),
    "idle_s": Column("Idle time left out", "the length of those pauses together"),
    "passages": Column("Passages in the article", "how many passages one relevant article has"),
    "articles": Column("Articles", "how many articles"),
    "share": Column("Share", "the fraction of all the rows' articles or elements"),
    "elemental": Column(
        "Elemental passages", "passages whose text is exactly the text of one element"
    ),
    "nonelemental": Column("Other passages", "passages that are no element's whole text"),
    "total": Column("All passages", "elemental and other passages together"),
    "share_elemental": Column("Share elemental", "elemental passages as a fraction of all"),
    "distance": Column(
        "Distance (characters)", "from the best entry point to a passage's start, in ranges"
    ),
    "first": Column("To the first passage", "articles whose first passage is that far"),
    "largest": Column("To the largest passage", "articles whose largest passage is that far"),
    "nearest": Column("To the nearest passage", "articles whose nearest passage is that far"),
    "specificity": Column(
        "Specificity", "the share of an element's text that is highlighted, in ranges"
    ),
    "elements": Column("Elements", "how many relevant elements"),
    "category": Column("Element category", "the kind of element"),
    "mean_specificity": Column("Mean specificity", "mean highlighted share of those elements"),
    "relative_to_paragraph": Column(
        "Relative to paragraphs", "mean specificity divided by that of paragraphs"
    ),
    "exhaustivity": Column("Exhaustivity", "the element's 2005 exhaustivity value"),
    "mean_size": Column("Mean size (characters)", "mean length of those elements' text"),
    "median_size": Column("Median size (characters)", "median length of those elements' text"),
    "round": Column("Pooling round", "the top-n round in which an article entered the pool"),
    "relevant_share_so_far": Column(
        "Relevant found so far", "the share of the topic's relevant articles pooled by then"
    ),
    "passages_share_so_far": Column(
        "Passages found so far", "the share of the topic's highlighted passages pooled by then"
    ),
    "relevant_elements": Column(
        "Relevant elements", "elements derived relevant from the highlights ('all': the mean)"
    ),
    "what": Column("Finding", "what was counted in the event log"),
    "count": Column("Times", "how often it happened"),
    "of": Column("Out of", "how often it could have happened"),
    "article": Column("Article", "the article's id"),
    "assessors": Column("Assessors", "the two assessors who disagreed"),
    "decision": Column("Decision", "whose judgement the gold took, or how the two were combined"),
    "gold": Column("Gold", "the gold judgement after the decision"),
    "gold_chars": Column("Gold characters", "characters highlighted in the gold after it"),
    "by": Column("By", "the organiser who decided"),
    "at": Column("When", "date and time of the decision (UTC)"),
    "characters": Column("Characters edited", "the stretch of text a hand edit changed"),
    "gold_before": Column("Gold before", "the gold judgement before the decision"),
    "gold_before_chars": Column("Gold characters before", "characters highlighted before it"),
}


def column(name: str) -> Column:
    """The header and definition of column `name` (its code name when it has none here)."""
    if name in COLUMNS:
        return COLUMNS[name]
    if name.startswith("share_under_"):
        limit = name.removeprefix("share_under_")
        return Column(f"Share under {limit} characters", f"elements shorter than {limit}")
    return Column(name, "")


def in_seconds(name: str) -> bool:
    """Whether the column holds seconds (shown as minutes and seconds)."""
    return name.endswith("_s")


def minutes_seconds(value: object) -> str:
    """Seconds as `m:ss` (`h:mm:ss` from an hour on); `-` when undefined.

    >>> minutes_seconds(47.5093), minutes_seconds(3725), minutes_seconds(None)
    ('0:48', '1:02:05', '-')
    """
    if not isinstance(value, int | float):
        return "-"
    total = round(value)
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
