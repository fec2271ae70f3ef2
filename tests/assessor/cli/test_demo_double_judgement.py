"""`focal demo` carries a real double judgement of its first topic: both assessors judged some of
the same articles, agreeing on some and not on others, and what the command says about them is
what the database holds (focal.assessor.campaign.setup.demo)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType
from typing import Any

from focal.assessor.campaign.results import adjudication
from focal.assessor.campaign.results.agreement import compared_articles, disagrees
from focal.assessor.store import db
from focal.assessor.web.app import create_app
from focal.evaluation.formats.fol.qrels import read_qrels

DEMO = Path(__file__).resolve().parents[3] / "demo"
TOPIC = "9001"
SAID = re.compile(
    r"topic (\d+) is judged twice: '(\w+)' and '(\w+)' both judged (\d+) of its articles "
    r"and differ on (\d+)"
)


def script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"demo_{name}", DEMO / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_first_assessors_judgements_regenerate() -> None:
    path = DEMO / "qrels" / "assessor-9001.qrels"
    assert script("make_first_assessor").qrels_text() == path.read_text(encoding="utf-8")


def test_the_demo_says_truly_what_is_double_judged(cli: Any) -> None:
    said = SAID.search(cli("demo", "--no-serve").output)
    assert said is not None
    topic, name_a, name_b, both, differ = said.groups()
    assert (topic, name_a, name_b) == (TOPIC, "assessor", "assessor2")
    with db.session_scope(create_app()) as session:
        articles = compared_articles(session, TOPIC, name_a, name_b)
        shared = [a for a in articles if "unjudged" not in (a.status_a, a.status_b)]
        queue = adjudication.queue(session, TOPIC)
    assert int(both) == len(shared) and int(differ) == sum(1 for a in shared if disagrees(a))
    # Some agreement and some disagreement, in verdicts and in passages alike.
    assert 0 < int(differ) < int(both)
    assert {item.article for item in queue.items} == {a.article for a in shared if disagrees(a)}
    verdicts = {(a.status_a, a.status_b) for a in shared}
    assert ("relevant", "relevant") in verdicts and ("nonrelevant", "nonrelevant") in verdicts
    assert any(a.status_a != a.status_b for a in shared)
    partly = [a for a in shared if a.status_a == a.status_b == "relevant"]
    assert any(0 < a.chars_both < max(a.chars_a, a.chars_b) for a in partly)
    # What was loaded is each assessor's file, and the head of the pool is left to judge.
    loaded = read_qrels(DEMO / "qrels" / "assessor-9001.qrels")[TOPIC]
    judged_by_a = {a.article for a in articles if a.status_a != "unjudged"}
    assert judged_by_a == set(loaded) and "1001" not in judged_by_a


def test_loading_the_demo_again_keeps_what_was_judged(cli: Any) -> None:
    first = cli("demo", "--no-serve").output
    assert cli("demo", "--no-serve").output == first
