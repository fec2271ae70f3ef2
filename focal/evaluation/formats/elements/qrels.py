"""Element qrels (spec section 5): one assessed element a line, two layouts.

    topic article path e s                  INEX 2002-2004: e, s in {0, 1, 2, 3}
    topic article path e s rsize size       Focal's 2005/2006 element export (`write_elements`):
                                            e in {0, 1, 2, ?}, s = rsize / size in [0, 1]

The layout is taken from the first line; every line must have it. An element not listed is
(0, 0). Errors name the file and the line: a pair with exactly one of e and s zero, a grade off
the scale, a path that is not an INEX path, a repeated (topic, article, path).

The four-grade quantisations read the 2005/2006 export through the published mapping
(`to_four_grades`): specificity by the cut points (0, 0.33] -> 1, (0.33, 0.67] -> 2,
(0.67, 1] -> 3 (seed 003 §5.2.6, after Pehcevski & Thom), exhaustivity 2 -> 3, 1 -> 1, 0 -> 0,
and ``?`` (too small) -> 0, so that a too-small element scores 0 under every four-grade function.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.source import decode_lines, read_bytes
from focal.evaluation.text.paths import PathError, normalise_path

ElementScale = Literal["2004", "2005"]
canonical_path = lru_cache(maxsize=1 << 16)(normalise_path)
"""`normalise_path`, remembered: qrels and runs repeat a few thousand paths many times."""
SPECIFICITY_CUTS = (0.33, 0.67)
"""The upper ends of specificity grades 1 and 2 (seed 003 §5.2.6; Pehcevski & Thom)."""
EXHAUSTIVITY_2005 = frozenset({"0", "1", "2", "?"})
MAPPING_NOTE = (
    "2005/2006 element qrels on the four-grade scale: s (0,0.33]->1 (0.33,0.67]->2 (0.67,1]->3; "
    "e 2->3 1->1 0->0 ?->0"
)


def specificity_grade(share: float) -> int:
    """The three-point grade of a specificity (highlighted share) in [0, 1]; 0 for 0.

    >>> [specificity_grade(s) for s in (0.0, 0.33, 0.335, 0.67, 0.675, 1.0)]
    [0, 1, 2, 2, 3, 3]
    """
    if share <= 0:
        return 0
    low, high = SPECIFICITY_CUTS
    return 1 if share <= low else 2 if share <= high else 3


def to_four_grades(e: str, s: float) -> tuple[int, int]:
    """A 2005/2006 assessment on the 2002-2004 scale (see the module docstring).

    >>> to_four_grades("2", 0.5), to_four_grades("1", 0.2), to_four_grades("?", 1.0)
    ((3, 2), (1, 1), (0, 3))
    """
    exhaustivity = {"2": 3, "1": 1, "0": 0, "?": 0}[e]
    return exhaustivity, specificity_grade(s)


@dataclass(frozen=True, slots=True)
class ElementJudgement:
    """One assessed element. `e4`/`s4` are four-grade values (mapped for the 2005 layout);
    `e5`, `s5`, `rsize` and `size` are set only for the 2005/2006 export."""

    topic: str
    article: str
    path: str
    e4: int
    s4: int
    line: int
    e5: str | None = None
    s5: float | None = None
    rsize: int | None = None
    size: int | None = None


@dataclass(frozen=True, slots=True)
class DerivedElement:
    """An element's relevance derived from an article's highlighted passages (spec section 4):
    exhaustivity on the 2006 scale (or the 2005 two-phase value), specificity, relevant and total
    characters. It is what the `elements` export writes, one line each; read back, a line is an
    `ElementJudgement`, and `as_judgement` is that one conversion.

    >>> line = DerivedElement("1", "a", "/x[1]", "2", 0.5, 5, 10).as_judgement(7)
    >>> line.e4, line.s4, line.e5, line.s5, line.line
    (3, 2, '2', 0.5, 7)
    """

    topic: str
    article: str
    path: str
    exhaustivity: str
    specificity: float
    rsize: int
    size: int

    def as_judgement(self, line: int = 0) -> ElementJudgement:
        """The element as a line of element qrels: four grades by `to_four_grades`, the
        2005/2006 values kept; `line` is where the judgement it comes from was read."""
        e4, s4 = to_four_grades(self.exhaustivity, self.specificity)
        return ElementJudgement(
            self.topic, self.article, self.path, e4, s4, line,
            self.exhaustivity, self.specificity, self.rsize, self.size,
        )  # fmt: skip


@dataclass
class ElementQrels:
    """Element qrels: topic -> (article, path) -> judgement, in file order."""

    file: str
    scale: ElementScale
    topics: dict[str, dict[tuple[str, str], ElementJudgement]] = field(default_factory=dict)

    def add(self, judgement: ElementJudgement) -> None:
        """Add a judgement; a repeated (topic, article, path) is a FormatError at its line."""
        elements = self.topics.setdefault(judgement.topic, {})
        key = (judgement.article, judgement.path)
        earlier = elements.get(key)
        if earlier is not None:
            where = f" (first on line {earlier.line})" if earlier.line else ""
            raise FormatError(
                self.file,
                judgement.line,
                f"expected each (topic, article, path) once, found {judgement.topic} "
                f"{judgement.article} {judgement.path} again{where}",
            )
        elements[key] = judgement


def read_element_qrels(path: str | Path) -> ElementQrels:
    """Parse an element qrels file (either layout); FormatError naming file and line."""
    name = str(path)
    lines = decode_lines(read_bytes(path), name)
    qrels: ElementQrels | None = None
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields:
            continue
        if qrels is None:
            if len(fields) not in (5, 7):
                raise FormatError(
                    name,
                    number,
                    "expected `topic article path e s` (5 fields) or "
                    f"`topic article path e s rsize size` (7 fields), found {len(fields)} fields",
                )
            qrels = ElementQrels(name, "2004" if len(fields) == 5 else "2005")
        qrels.add(parse_line(fields, qrels.scale, name, number))
    if qrels is None:
        raise FormatError(name, None, "expected at least one element line, found an empty file")
    return qrels


def parse_line(fields: list[str], scale: ElementScale, name: str, number: int) -> ElementJudgement:
    """One line of element qrels of `scale` as a judgement."""
    width = 5 if scale == "2004" else 7
    if len(fields) != width:
        raise FormatError(
            name, number, f"expected {width} fields like the first line, found {len(fields)}"
        )
    topic, article, raw_path = fields[:3]
    try:
        path = canonical_path(raw_path)
    except PathError:
        raise FormatError(
            name,
            number,
            f"expected an INEX element path like /article[1]/sec[2], found {raw_path!r}",
        ) from None
    if scale == "2004":
        e, s = _grade(fields[3], "e", name, number), _grade(fields[4], "s", name, number)
        if (e == 0) != (s == 0):
            raise FormatError(
                name, number, f"expected e and s both 0 or both 1-3, found e={e} s={s}"
            )
        return ElementJudgement(topic, article, path, e, s, number)
    e5, s_text, rsize_text, size_text = fields[3:7]
    if e5 not in EXHAUSTIVITY_2005:
        raise FormatError(name, number, f"expected exhaustivity 0, 1, 2 or ?, found {e5!r}")
    try:
        s5 = float(s_text)
        rsize, size = int(rsize_text), int(size_text)
    except ValueError:
        raise FormatError(
            name, number, "expected a specificity in [0, 1] and integer rsize and size, "
            f"found {s_text!r} {rsize_text!r} {size_text!r}",
        ) from None  # fmt: skip
    if not 0.0 <= s5 <= 1.0:
        raise FormatError(name, number, f"expected a specificity in [0, 1], found {s_text}")
    if not 0 <= rsize <= size:
        raise FormatError(name, number, f"expected 0 <= rsize <= size, found {rsize} {size}")
    if (e5 == "0") != (s5 == 0.0):
        raise FormatError(
            name, number, f"expected e 0 exactly when s is 0, found e={e5} s={s_text}"
        )
    e4, s4 = to_four_grades(e5, s5)
    return ElementJudgement(topic, article, path, e4, s4, number, e5, s5, rsize, size)


def _grade(value: str, what: str, name: str, number: int) -> int:
    if value not in ("0", "1", "2", "3"):
        raise FormatError(name, number, f"expected {what} in 0, 1, 2, 3, found {value!r}")
    return int(value)
