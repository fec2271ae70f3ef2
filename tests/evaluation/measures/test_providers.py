"""Which engine serves which measures, chosen in one place; every declared measure has an
engine or an explicit refusal."""

from __future__ import annotations

import importlib

import pytest

from focal.evaluation.measures import providers
from focal.evaluation.measures.providers import Call, choose
from focal.evaluation.measures.registry import declarations
from focal.evaluation.measures.registry.names import NotProvided, parse
from focal.evaluation.measures.tasks import TASKS
from focal.evaluation.measures.trec_eval.families import declarations as trec


def _names(call: Call) -> list[str]:
    return [engine.name for engine in choose(call)]


def test_focused_prefers_the_whole_run_engine_then_falls_back_to_topics() -> None:
    assert _names(Call("focused")) == ["focused_run", "passage_topics"]
    for task in ("thorough", "ric", "bic", "t2i"):
        assert _names(Call(task)) == ["passage_topics"]
    assert _names(Call("elements", ("P@k",))) == ["element_topics"]


@pytest.mark.parametrize(
    ("call", "first"),
    [
        (Call("articles"), "article_topics"),
        (Call("articles", ("MAP", "P@10", "nDCG(gain=fraction)@10")), "article_topics"),
        (Call("articles", ("MAP", "nDCG@10")), "trec_run"),  # nDCG@10 is ndcg_cut.10 everywhere
        (Call("articles", ("P@0",)), "article_topics"),  # claimed, then refused by Settings
        (Call("articles", ("MAP", "map")), "trec_run"),
        (Call("articles", ("AP",)), "trec_run"),
        (Call("articles", ("nDCG@10",), trec_qrels=True), "trec_run"),
        (Call("articles", ("nDCG@10",), trec_switches=True), "trec_run"),
    ],
)
def test_articles_go_the_trec_eval_way_unless_everything_is_focal(call: Call, first: str) -> None:
    assert choose(call)[0].name == first
    assert choose(call)[-1].name == "trec_run"  # trec_eval's engine serves every article call


def test_every_task_has_a_topic_engine_or_its_own_command() -> None:
    for task in TASKS:
        engine = providers.topic_engine(task)
        assert task in engine.tasks
        assert (engine.module is None) == (task == "elements")


def test_every_declared_measure_has_an_engine_or_an_explicit_refusal() -> None:
    served = set().union(*(engine.provides for engine in providers.ENGINES))
    for measure in (*declarations.MEASURES, *declarations.ELEMENT_MEASURES):
        assert measure.name in served, measure.name
    for family in trec.TREC_MEASURES:
        assert family.name in providers.TREC_RUN.provides
    for name in (*trec.NOT_COMPUTED, *(n.replace("@k", "@10") for n in trec.NOT_PROVIDED)):
        with pytest.raises(NotProvided):
            parse(name, "trec")


def test_a_refused_name_exits_2_with_a_clear_message(tmp_path: object) -> None:
    from pathlib import Path

    from click.testing import CliRunner

    from focal.evaluation.cli.eval.command import eval_command

    folder = Path(str(tmp_path))
    (folder / "q").write_text("1 0 d1 1\n")
    (folder / "r").write_text("1 Q0 d1 1 1.0 r\n")
    result = CliRunner().invoke(
        eval_command,
        ["--task", "articles", "-m", "alpha_nDCG@10", str(folder / "q"), str(folder / "r")],
    )
    assert result.exit_code == 2 and result.stdout == ""
    assert "measure alpha_nDCG@10 is not provided by any engine for task articles" in result.stderr
    assert "pyndeval" in result.stderr  # who computes it


def test_the_topic_engines_modules_compute_what_their_engines_declare() -> None:
    """An engine names its module (imported when first used) and declares its measures from the
    registry: the module computes exactly those."""
    from focal.evaluation.measures.engines import article_topics

    assert providers.ARTICLE_TOPICS.provides == article_topics.PROVIDES
    for engine in (providers.ARTICLE_TOPICS, providers.PASSAGE_TOPICS):
        assert engine.module is not None
        module = importlib.import_module(engine.module)
        assert callable(module.evaluate_topic) and callable(module.missing_topic)
