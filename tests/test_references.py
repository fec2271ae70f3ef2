"""Every citation in the repository resolves in docs/references.md.

Code and docs cite the papers Focal is built from as "seed NNN", Focal's design document (kept
outside the repository) as "spec section N" in several spellings, and other works as "Author
Year". docs/references.md defines each: a `### seed NNN` or `### spec section N` heading, or an
entry under "Other works". These tests scan the repository's Python, JavaScript, HTML and
Markdown files (not hidden folders such as `.venv`, not vendored code) and fail on any citation
that has no definition, naming the file and line.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFERENCES = ROOT / "docs" / "references.md"
SUFFIXES = {".py", ".js", ".html", ".md"}
SKIPPED_FOLDERS = {"node_modules", "__pycache__", "vendor", "build", "dist"}

# A line's comment leader (#, //, *, {#, <!--, >) is dropped when lines are joined, so that a
# citation broken over two comment lines ("(spec" / "# section 7") is still read as one.
LEADER = re.compile(r"^\s*(?:\{#|<!--|#+|//+|\*+|>)?\s*")

SEED = re.compile(
    r"(?<![-\w])seeds?\s+(?P<nums>\d{3}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*/\s*)\d{3})*)\b",
    re.IGNORECASE,
)
_NUMS = r"\d+(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+to\s+|\s*[-–]\s*)\d+)*"
# "spec section 9", "spec §9", "spec 10", "spec sections 4 and 5", "spec sections 7-9",
# "the spec, sections 7 to 9", "spec's section 3", "specification section 2".
SPEC = re.compile(
    rf"\bspec(?:ification)?(?:'s)?,?\s+(?:(?P<plural>sections|§§)|section|§)?\s*(?P<nums>{_NUMS})",
    re.IGNORECASE,
)
# "section 9 of the spec", "sections 4 and 5 of the specification".
OF_SPEC = re.compile(
    rf"\b(?:(?P<plural>sections|§§)|section|§)\s*(?P<nums>{_NUMS})\s+of\s+(?:the\s+|Focal's\s+)?"
    r"spec(?:ification)?\b",
    re.IGNORECASE,
)
# "Zobel 1998", "Zobel (1998)", "Kamps et al. 2007", "Voorhees & Buckley 2002",
# "Yilmaz, Aslam & Robertson 2008": the first author's surname and the year.
_NAME = r"[A-Z][a-z\u00df-\u00ff\u0100-\u017f'’-]+"
AUTHOR_YEAR = re.compile(
    rf"\b(?P<name>{_NAME})(?: et al\.?|,? (?:&|and) {_NAME}|(?:, {_NAME})+,? (?:&|and) {_NAME})?"
    r",? \(?(?P<year>(?:19|20)\d\d)\b"
)
# Capitalised words before a year that are not authors.
NOT_AUTHORS = frozenset({"The", "Derived", "Wikipedia", "Focal's"})

SEED_HEADING = re.compile(r"^###\s+seed\s+(\d{3})\b", re.MULTILINE)
SPEC_HEADING = re.compile(r"^###\s+spec section\s+(\d+)\b", re.MULTILINE)


@dataclass(frozen=True)
class Citation:
    """One cited number (or author-year) and where it was found."""

    key: str
    where: str


@dataclass(frozen=True)
class Joined:
    """A file's text with its lines joined by spaces, comment leaders dropped."""

    path: Path
    text: str
    starts: list[int]  # offset in `text` where each line begins

    def where(self, offset: int) -> str:
        line = bisect.bisect_right(self.starts, offset)
        return f"{self.path.relative_to(ROOT)}:{line}"


def join_lines(path: Path, text: str) -> Joined:
    """Join `text`'s lines into one, recording where each line starts."""
    parts: list[str] = []
    starts: list[int] = []
    offset = 0
    for line in text.splitlines():
        stripped = LEADER.sub("", line, count=1)
        starts.append(offset)
        parts.append(stripped)
        offset += len(stripped) + 1
    return Joined(path, " ".join(parts), starts)


def repository_files(root: Path = ROOT) -> Iterator[Path]:
    """The Python, JS, HTML and Markdown files of the repository, hidden and vendored folders
    left out (and not walked: `.venv` is large)."""
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if not skipped(d))
        for name in sorted(names):
            if Path(name).suffix in SUFFIXES:
                yield Path(folder) / name


def skipped(folder: str) -> bool:
    """Hidden (`.venv`, `.git`), vendored, cache and build folders hold no citations of ours."""
    return folder.startswith(".") or folder in SKIPPED_FOLDERS or folder.endswith(".egg-info")


def expand(numbers: str, plural: bool) -> list[int]:
    """The section numbers of "4 and 5", "7-9" or "7 to 9" (ranges inclusive); only the first
    after a singular "section" (in "section 5, 10 topics" the 10 is not a section)."""
    found = [int(n) for n in re.findall(r"\d+", numbers)]
    if not plural:
        return found[:1]
    result: list[int] = []
    for piece in re.split(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)\s*", numbers):
        bounds = [int(n) for n in re.findall(r"\d+", piece)]
        result.extend(range(bounds[0], bounds[-1] + 1))
    return result


def seed_citations(joined: Joined) -> Iterator[Citation]:
    for match in SEED.finditer(joined.text):
        for number in re.findall(r"\d{3}", match["nums"]):
            yield Citation(number, joined.where(match.start()))


def spec_citations(joined: Joined) -> Iterator[Citation]:
    for pattern in (SPEC, OF_SPEC):
        for match in pattern.finditer(joined.text):
            for number in expand(match["nums"], bool(match["plural"])):
                yield Citation(str(number), joined.where(match.start()))


def author_year_citations(joined: Joined) -> Iterator[Citation]:
    for match in AUTHOR_YEAR.finditer(joined.text):
        if match["name"] not in NOT_AUTHORS:
            yield Citation(f"{match['name']} {match['year']}", joined.where(match.start()))


def scanned() -> list[Joined]:
    """Every repository file but this one (whose examples are not citations), joined."""
    this = Path(__file__).resolve()
    paths = [p for p in repository_files() if p.resolve() != this]
    return [join_lines(p, p.read_text(encoding="utf-8")) for p in paths]


def works(references: str) -> list[str]:
    """The seeds' entries and the list items under "Other works", each as one line of text."""
    seeds_part, others = references.split("## Other works", 1)
    seeds = re.split(r"\n### ", seeds_part.split("## Spec sections", 1)[0])[1:]
    entries = [*seeds, *re.split(r"\n- ", others)[1:]]
    return [" ".join(entry.split()) for entry in entries]


def undefined(citations: Iterator[Citation], defined: set[str]) -> list[str]:
    return sorted(f"{c.where}: {c.key}" for c in citations if c.key not in defined)


@pytest.fixture(scope="module")
def files() -> list[Joined]:
    return scanned()


@pytest.fixture(scope="module")
def references() -> str:
    return REFERENCES.read_text(encoding="utf-8")


def test_every_cited_seed_is_defined(files: list[Joined], references: str) -> None:
    defined = set(SEED_HEADING.findall(references))
    citations = [c for f in files for c in seed_citations(f)]
    assert len(citations) > 100  # the scan found the repository's citations at all
    missing = undefined(iter(citations), defined)
    assert not missing, "cited but not defined in docs/references.md:\n" + "\n".join(missing)


def test_every_cited_spec_section_is_defined(files: list[Joined], references: str) -> None:
    defined = set(SPEC_HEADING.findall(references))
    citations = [c for f in files for c in spec_citations(f)]
    assert len(citations) > 100
    missing = undefined(iter(citations), defined)
    assert not missing, "cited but not defined in docs/references.md:\n" + "\n".join(missing)


def test_every_author_year_citation_has_an_entry(files: list[Joined], references: str) -> None:
    entries = works(references)
    citations = [c for f in files if f.path != REFERENCES for c in author_year_citations(f)]
    assert len(citations) > 20
    missing = sorted(
        f"{c.where}: {c.key}"
        for c in citations
        if not any(all(word in entry for word in c.key.split()) for entry in entries)
    )
    assert not missing, (
        "no entry under Other works in docs/references.md (add one, or add the word to "
        "NOT_AUTHORS if it is not an author):\n" + "\n".join(missing)
    )


def test_each_definition_has_its_anchor(references: str) -> None:
    """`docs/references.md#seed-003` and `#spec-9` are stable link targets."""
    for number in SEED_HEADING.findall(references):
        assert f'<a id="seed-{number}"></a>' in references, number
    for number in SPEC_HEADING.findall(references):
        assert f'<a id="spec-{number}"></a>' in references, number


@pytest.mark.parametrize(
    ("text", "seeds", "sections"),
    [
        ("(spec section 9; seed 003 §5.2.1)", ["003"], ["9"]),
        ("spec §7 and spec 10)", [], ["7", "10"]),
        ("spec sections 4 and 2, seeds 000 and 004", ["000", "004"], ["4", "2"]),
        ("the spec, sections 7 to 9; spec sections 2-3", [], ["7", "8", "9", "2", "3"]),
        ("(spec\n    # section 5: (0, 0.33] → 1", [], ["5"]),
        ("see section 6 of the spec", [], ["6"]),
        ("`--seed 123`, spec_within_0.1, specificity 3, seed 42", [], []),
    ],
)
def test_the_scanner_reads_every_form(text: str, seeds: list[str], sections: list[str]) -> None:
    joined = join_lines(ROOT / "example.py", text)
    assert [c.key for c in seed_citations(joined)] == seeds
    assert [c.key for c in spec_citations(joined)] == sections
