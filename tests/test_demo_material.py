"""The demo collection, topics, runs and qrels: well-formed, varied, reproducible byte for byte."""

from __future__ import annotations

import importlib.util
import re
import shlex
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from focal.evaluation.baseline.bm25 import query_terms, tokenize
from focal.evaluation.cli.baseline import baseline
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.formats.fol.runs import read_run
from focal.evaluation.formats.inex.topics import read_topics
from focal.evaluation.text.document import Document

REPOSITORY = Path(__file__).resolve().parents[1]
DEMO = REPOSITORY / "demo"
ARTICLES = sorted((DEMO / "collection").glob("*.xml"))
RUNS = sorted((DEMO / "runs").glob("*.run"))
INLINE_TAGS = {"b", "it", "link"}
# `.venv/bin/focal baseline ARGS > demo/runs/NAME.run`, one per line of the README's code block
RUN_COMMAND = re.compile(r"^\S*focal baseline (?P<args>.+?) > demo/runs/(?P<file>\S+\.run)$", re.M)


@cache
def documents() -> dict[str, Document]:
    return {path.stem: Document.from_file(path) for path in ARTICLES}


def test_at_least_forty_articles_whose_ids_are_their_file_names() -> None:
    assert len(ARTICLES) >= 40
    for path in ARTICLES:
        assert re.fullmatch(r"\d+", path.stem), path.name
        document = documents()[path.stem]
        assert document.id == path.stem
        (id_element,) = [e for e in document.elements if e.path == "/article[1]/header[1]/id[1]"]
        assert document.text[id_element.start : id_element.end] == path.stem


def test_articles_are_utf8_without_doctype_and_use_references() -> None:
    raw = {path.stem: path.read_bytes() for path in ARTICLES}
    for name, data in raw.items():
        data.decode("utf-8")  # raises if not UTF-8
        assert b"<!DOCTYPE" not in data, name
    joined = b"".join(raw.values())
    assert b"&amp;" in joined and b"&#233;" in joined


def test_sizes_and_structure_vary() -> None:
    sizes = sorted(len(d.text) for d in documents().values())
    assert sizes[0] < 1000 and sizes[-1] > 10_000
    assert len({size // 2000 for size in sizes}) >= 5  # spread over at least five 2K bands
    tags = {e.tag for d in documents().values() for e in d.elements}
    assert {"header", "title", "bdy", "p", "sec", "st", "list", "entry", "table"} <= tags
    assert tags >= INLINE_TAGS
    assert max(e.depth for d in documents().values() for e in d.elements if e.tag == "sec") >= 3


def test_words_of_neighbouring_block_elements_never_run_together() -> None:
    for document in documents().values():
        text = document.text
        for element in document.elements:
            if element.tag in INLINE_TAGS or element.size == 0:
                continue
            glued_before = element.start > 0 and text[element.start - 1 : element.start + 1]
            glued_after = element.end < len(text) and text[element.end - 1 : element.end + 1]
            for pair in (glued_before, glued_after):
                assert not (pair and pair.isalnum()), (document.id, element.path, pair)


def test_special_characters_are_present() -> None:
    text = "".join(d.text for d in documents().values())
    astral = {c for c in text if ord(c) > 0xFFFF}
    assert {"𝄞", "😀", "𝛼"} <= astral
    assert {"é", "ü", "—"} <= set(text)


def test_five_topics_whose_title_terms_occur_in_the_collection() -> None:
    topics = read_topics(DEMO / "topics.xml")
    assert [t.id for t in topics] == ["9001", "9002", "9003", "9004", "9005"]
    vocabulary = {term for d in documents().values() for term, _, _ in tokenize(d.text)}
    for topic in topics:
        assert topic.castitle and topic.phrasetitle and topic.narrative
        terms = query_terms(topic.title)
        assert terms and set(terms) <= vocabulary, (topic.id, set(terms) - vocabulary)


def readme_commands() -> list[tuple[str, list[str]]]:
    readme = (DEMO / "README.md").read_text(encoding="utf-8")
    return [(m["file"], shlex.split(m["args"])) for m in RUN_COMMAND.finditer(readme)]


def test_readme_lists_one_command_per_committed_run() -> None:
    assert len(RUNS) == 4
    assert sorted(name for name, _ in readme_commands()) == [path.name for path in RUNS]


@pytest.mark.parametrize(
    "name, args", [pytest.param(name, args, id=name) for name, args in readme_commands()]
)
def test_runs_regenerate_byte_for_byte(
    name: str, args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPOSITORY)  # the README's paths are relative to the repository
    outcome = CliRunner().invoke(baseline, args)
    assert outcome.exit_code == 0, outcome.output
    assert outcome.stdout_bytes == (DEMO / "runs" / name).read_bytes()


@pytest.mark.parametrize("path", RUNS, ids=lambda path: path.name)
def test_runs_are_focused_and_inside_their_articles(path: Path) -> None:
    run = read_run(path)
    assert run.kind == "fol" and not run.warnings
    assert sorted(run.topics) == ["9001", "9002", "9003", "9004", "9005"]
    for results in run.topics.values():
        assert 0 < len(results) <= 1500
        spans: dict[str, list[tuple[int, int]]] = {}
        for result in results:
            assert result.start is not None and result.end is not None
            assert 0 <= result.start < result.end <= len(documents()[result.article].text)
            for start, end in spans.get(result.article, []):
                assert result.end <= start or end <= result.start, (path.name, result.line)
            spans.setdefault(result.article, []).append((result.start, result.end))


def load_make_qrels() -> ModuleType:
    spec = importlib.util.spec_from_file_location("demo_make_qrels", DEMO / "make_qrels.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_qrels_regenerate_byte_for_byte() -> None:
    qrels_text: Callable[[], str] = load_make_qrels().qrels_text
    assert qrels_text() == (DEMO / "qrels" / "demo.qrels").read_text(encoding="utf-8")


def test_qrels_judge_every_article_and_include_focused_passages() -> None:
    qrels = read_qrels(DEMO / "qrels" / "demo.qrels")
    assert sorted(qrels) == ["9001", "9002", "9003", "9004", "9005"]
    for topic, judgements in qrels.items():
        assert sorted(judgements) == sorted(documents())
        relevant = [j for j in judgements.values() if j.relevant]
        assert len(relevant) >= 3, topic
        assert any(j.rel_chars < j.article_chars / 2 for j in relevant), topic
        for judgement in relevant:
            text = documents()[judgement.article].text
            assert judgement.article_chars == len(text)
            assert judgement.bep == judgement.passages[0][0]
            for start, end in judgement.passages:
                passage = text[start:end].strip()
                assert passage[:1].isupper() and passage[-1:] in ".:!?", (topic, passage[-20:])


def test_relevant_passages_start_and_end_on_whole_words() -> None:
    module = load_make_qrels()
    for topic, articles in module.JUDGEMENTS.items():
        for article, specs in articles.items():
            for spec in specs:
                start, end = module.passage_span(documents()[article], spec)
                text = documents()[article].text
                assert start == 0 or not text[start - 1].isalnum(), (topic, article, spec)
                assert end == len(text) or not text[end].isalnum(), (topic, article, spec)


def test_second_assessor_regenerates_and_judges_the_pool_but_its_first_article() -> None:
    spec = importlib.util.spec_from_file_location(
        "demo_make_second_assessor", DEMO / "make_second_assessor.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path = DEMO / "qrels" / "assessor2-9001.qrels"
    assert module.qrels_text() == path.read_text(encoding="utf-8")
    from focal.pooling.api import build_pool

    # the demo's pool (focal.assessor.campaign.setup.demo: top-n, 20 articles, the four runs)
    pool = build_pool([str(run) for run in RUNS], "topn", size=20)
    pooled = [entry.article for entry in pool.articles() if entry.topic == "9001"]
    # every pooled article but 1001, first on the assessor's list, left to judge in the browser
    assert set(read_qrels(path)["9001"]) == set(pooled) - {"1001"} and len(pooled) == 20
