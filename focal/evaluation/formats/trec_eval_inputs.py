"""trec_eval's other inputs: judgement groups, preferences, z-score tables.

    topic group doc grade                  qrels_jg (`-R qrels_jg`, `get_qrels_jg.c`)
    topic group sub_group doc level        prefs (`-R prefs`, `get_prefs.c`)
    topic group doc grade                  qrels read as prefs (`-R qrels_prefs`,
                                           `get_qrels_prefs.c`: one sub-group per group)
    topic measure mean stddev              z-score table (`-Z`, `get_zscores.c`)

Plain TREC qrels and runs are `formats.trec`'s. As there, fields are separated by any run of
whitespace and blank lines are skipped; a qrels_jg line whose first field starts with `#`, and a
prefs line whose first byte is `#`, is a comment (a z-score table has none). Every refusal is a
`FormatError` naming the file and line (exit code 2 in `focal trec_eval`), but a document judged
twice in one group, which is a `DuplicateDocument` as in plain qrels (exit code 4). Topics, the
names of qrels_jg's groups and measures become text; documents, and the groups and sub-groups
of preferences, stay bytes, compared as trec_eval compares them (docs/trec_eval.md, "Reading").
The readers return records (`JudgementGroups`, `Preferences`, `ZScores`); the article engine's
`trec_eval/engine/groups.py` and `prefs.py` and `cli/trec_eval/zscores.py` only evaluate them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.c_numbers import c_atof
from focal.evaluation.formats.source import read_bytes
from focal.evaluation.formats.trec import DuplicateDocument, grade_of, shown, text_field

ZScores = dict[tuple[str, str], tuple[float, float]]  # (topic, measure) -> (mean, stddev)


@dataclass(frozen=True)
class JudgementGroups:
    """A qrels_jg file: each judgement group's (user's) judgements, a qrels of their own."""

    file: str
    grades: dict[str, dict[str, dict[bytes, int]]]  # group -> topic -> document -> grade

    def topics(self) -> list[str]:
        """Every topic some group judged, in trec_eval's (byte) order."""
        return sorted({topic for judged in self.grades.values() for topic in judged})


@dataclass(frozen=True, slots=True)
class PreferenceJudgement:
    """One line of a prefs file: in a topic, a document's level within a judgement group's
    sub-group (qrels read as prefs: the grade is the level, one sub-group `0` per group)."""

    topic: str
    group: bytes
    sub_group: bytes
    doc: bytes
    level: float


@dataclass(frozen=True)
class Preferences:
    """A prefs file: each topic's lines in file order."""

    file: str
    topics: dict[str, list[PreferenceJudgement]]


def _lines(path: str | Path) -> Iterator[tuple[int, bytes, list[bytes]]]:
    """(line number, line, its fields) of every line that is not blank."""
    for number, line in enumerate(read_bytes(path).split(b"\n"), 1):
        words = line.split()
        if words:
            yield number, line, words


def read_qrels_jg(path: str | Path) -> JudgementGroups:
    """A qrels_jg file; a line of other than 4 fields, a grade that is not an integer, or a
    document twice in one topic's group is a FormatError naming the line."""
    name = str(path)
    groups: dict[str, dict[str, dict[bytes, int]]] = {}
    seen: dict[tuple[bytes, bytes, bytes], int] = {}
    for number, _, words in _lines(path):
        if words[0].startswith(b"#"):
            continue
        if len(words) != 4:
            message = f"expected 4 fields `topic group doc grade` (qrels_jg), found {len(words)}"
            raise FormatError(name, number, message)
        grade = grade_of(words[3], name, number)  # as plain qrels
        key = (words[0], words[1], words[2])
        if key in seen:
            raise DuplicateDocument(
                name, number, f"document {shown(words[2])} is judged twice in group "
                f"{shown(words[1])} (also line {seen[key]})",
            )  # fmt: skip
        seen[key] = number
        topic = words[0].decode(errors="replace")
        group = groups.setdefault(words[1].decode(errors="replace"), {})
        group.setdefault(topic, {})[words[2]] = grade
    return JudgementGroups(name, groups)


def read_preferences(path: str | Path, qrels: bool) -> Preferences:
    """A prefs file (5 fields) or, with `qrels`, TREC qrels read as preferences; a line of
    another number of fields is a FormatError naming the line. A level is never refused:
    trec_eval reads it with C's `atof` (`c_numbers.c_atof`: `2x` is 2, `x` is 0)."""
    name, width = str(path), 4 if qrels else 5
    shape = "`topic group doc grade`" if qrels else "`topic group sub_group doc level`"
    topics: dict[str, list[PreferenceJudgement]] = {}
    for number, line, words in _lines(path):
        if line.startswith(b"#"):
            continue
        if len(words) != width:
            raise FormatError(name, number, f"expected {width} fields {shape}, found {len(words)}")
        sub_group = b"0" if qrels else words[2]
        level = c_atof(words[-1].decode(errors="replace"))
        topic = words[0].decode(errors="replace")
        judgement = PreferenceJudgement(topic, words[1], sub_group, words[-2], level)
        topics.setdefault(topic, []).append(judgement)
    return Preferences(name, topics)


def read_zscores(path: str | Path) -> ZScores:
    """A z-score table: `topic measure mean stddev` lines (`get_zscores.c`), the first line of a
    topic and measure kept; a line of other than 4 fields, or a mean or deviation that is not a
    number, is a FormatError naming the line."""
    table: ZScores = {}
    for number, _, words in _lines(path):
        if len(words) != 4:
            raise FormatError(path, number, f"expected `topic measure mean stddev`, found "
                              f"{len(words)} fields")  # fmt: skip
        try:
            mean, deviation = float(words[2]), float(words[3])
        except ValueError:
            raise FormatError(path, number, "expected a numeric mean and stddev") from None
        measure = text_field(words[1], str(path), number, "measure name")
        table.setdefault((words[0].decode(errors="replace"), measure), (mean, deviation))
    return table
