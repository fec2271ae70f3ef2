"""One export use case for the command and the Export page: the request checked when made, the
export written from a real database.

The judgements are `double_judge`'s (tests/assessor/conftest.py); the lines below were written
from them by hand: alice 1001 [5,25) BEP 5, 1002 not relevant (24 characters), 1003 [5,11)
BEP 5 (suggested); bob 1001 [9,35) BEP 12, 1002 [4,10) BEP 4 (suggested).
"""

from __future__ import annotations

from typing import Any

import pytest

from focal.assessor.campaign.results.exporting import ExportRequest, export_qrels, parse_choices
from focal.assessor.campaign.results.qrels_export import ExportError, SeveralAssessors
from focal.assessor.store import db

from ..conftest import Seeded, double_judge

ALICE = "1 Q0 1001 20 49 5 5:20\n1 Q0 1002 0 24\n1 Q0 1003 6 19 5 5:6\n"
BOB = "1 Q0 1001 26 49 12 9:26\n1 Q0 1002 6 24 4 4:6\n"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"format": "csv"}, "--format must be one of fol, elements, trec"),
        ({"offset_unit": "bytes"}, "--offset-unit must be one of codepoint, utf16, utf8"),
        ({"adjudicated": True, "format": "trec"}, "--adjudicated writes FOL qrels in code"),
        ({"adjudicated": True, "assessor": "alice"}, "--adjudicated writes FOL qrels in code"),
        ({"adjudicated": True, "with_assessors": True}, "--adjudicated writes FOL"),
        ({"with_assessors": True, "choices": {"1": "bob"}}, "--with-assessors writes every"),
        ({"with_assessors": True, "offset_unit": "utf8"}, "--with-assessors writes every"),
        ({"with_assessors": True, "xml": True}, "--xml applies to --format elements only"),
        ({"format": "trec", "offset_unit": "utf16"}, "--offset-unit applies to --format fol"),
        ({"xml": True}, "--xml applies to --format elements only"),
        ({"format": "elements", "graded": True}, "--graded applies to --format trec only"),
        ({"format": "trec", "all_elements": True}, "--all-elements applies to --format elements"),
    ],
)
def test_options_that_do_not_fit_are_refused_when_the_request_is_made(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ExportError, match=message):
        ExportRequest(**options)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"format": "elements", "xml": True, "all_elements": True},
        {"format": "trec", "graded": True},
        {"offset_unit": "utf16", "assessor": "alice", "choices": {"1": "bob"}},
        {"with_assessors": True, "topic": "1"},
        {"adjudicated": True, "topic": "1"},
    ],
)
def test_options_that_fit_make_a_request(options: dict[str, Any]) -> None:
    made = ExportRequest(**options)
    assert all(getattr(made, name) == value for name, value in options.items())


def test_choices_are_topic_equals_name() -> None:
    assert parse_choices(["1=bob", "2=alice", "1=carol"]) == {"1": "carol", "2": "alice"}
    assert parse_choices(["7=a=b"]) == {"7": "a=b"}  # the name is all after the first `=`
    for bad in ("1", "=bob", "1=", ""):
        with pytest.raises(ExportError, match=f"expected TOPIC=NAME, found {bad!r}"):
            parse_choices(["1=bob", bad])


def test_each_kind_of_export_from_the_database(seeded: Seeded) -> None:
    double_judge(seeded)
    with db.session_scope(seeded.app) as session:

        def export(**options: Any) -> str:
            return export_qrels(session, ExportRequest(**options))

        with pytest.raises(SeveralAssessors) as several:
            export()
        assert (several.value.topic, several.value.names) == ("1", ["alice", "bob"])
        assert export(topic="1", choices={"1": "bob"}) == BOB
        assert export(topic="1", assessor="alice") == ALICE
        every = export(topic="1", with_assessors=True)
        assert every == ALICE.replace(" Q0 ", " alice ") + BOB.replace(" Q0 ", " bob ")
        # nothing adjudicated yet: the first assessor by name (docs/analytics.md)
        assert export(topic="1", adjudicated=True) == ALICE
        # binary TREC grades: 1001 and 1003 relevant, 1002 not
        assert export(topic="1", assessor="alice", format="trec") == (
            "1 0 1001 1\n1 0 1002 0\n1 0 1003 1\n"
        )
        # 1003 "G𝔸mma Astral 😀 here.": 𝔸 and 😀 are two UTF-16 units, so the text has 21
        # units and the passage "Astral" starts at unit 6
        utf16 = export(topic="1", assessor="alice", offset_unit="utf16")
        assert utf16.splitlines()[2] == "1 Q0 1003 6 21 6 6:6"
        assert utf16.splitlines()[:2] == ALICE.splitlines()[:2]
        elements = export(topic="1", assessor="alice", format="elements")
        assert {line.split("\t")[1] for line in elements.splitlines()} == {"1001", "1003"}
        with pytest.raises(ExportError, match="no assessor 'zed'"):
            export(assessor="zed")
        with pytest.raises(ExportError, match="no assessor 'bob' for topic 2"):
            export(choices={"1": "alice", "2": "bob"})
