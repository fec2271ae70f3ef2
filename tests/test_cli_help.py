"""The command line a newcomer reads: `focal --help` in sections on one 100-column screen, every
option a help text mentions exists, no paper cited as "seed NNN", the spellings of options of
one kind alike across commands, and the refusals that come before any work."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import COMMANDS, HELP_SECTIONS, UNPLACED, main

REPOSITORY = Path(__file__).resolve().parents[1]
DEMO_QRELS = REPOSITORY / "demo" / "qrels" / "demo.qrels"
DEMO_RUN = REPOSITORY / "demo" / "runs" / "bm25-articles.run"
OPTION = re.compile(r"(?<![\w`/.-])(--?[A-Za-z][\w-]*)")


def walk(
    group: click.Group, path: list[str], ctx: click.Context
) -> Iterator[tuple[list[str], click.Command]]:
    """Every command and sub-command, with the words that call it."""
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        yield [*path, name], command
        if isinstance(command, click.Group):
            yield from walk(command, [*path, name], click.Context(command, ctx, info_name=name))


EVERY_COMMAND = [
    (path, command)
    for path, command in walk(main, [], click.Context(main, info_name="focal"))
    if path[0] != "trec_eval"  # trec_eval 10.0's own command line and usage text
]


def help_text(*words: str) -> str:
    result = CliRunner().invoke(main, [*words, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    return result.output


def test_the_top_help_is_one_screen_in_sections() -> None:
    text = help_text()
    lines = text.splitlines()
    assert len(lines) <= 50 and max(len(line) for line in lines) <= 100
    listing = text[text.index("\nOptions:") :]
    assert "..." not in listing and "…" not in listing and UNPLACED not in listing
    titles = [line[:-1] for line in lines if line.endswith(":") and not line.startswith(" ")]
    assert titles == ["Options", *dict.fromkeys(HELP_SECTIONS.values())]
    sections = text[text.index(titles[1]) :]
    assert not re.search(r"^   ", sections, re.MULTILINE), "a summary continues on a second line"
    listed = re.findall(r"^  (\S+)\s{2,}\S", sections, re.MULTILINE)
    context = click.Context(main)
    visible = [n for n in COMMANDS if not main.get_command(context, n).hidden]  # type: ignore[union-attr]
    assert sorted(listed) == sorted(visible)  # every command once, each summary on one line
    assert set(visible) == set(HELP_SECTIONS)


@pytest.mark.parametrize("alias, command", [("export-qrels", "export"), ("pool-build", "pool"),
                                            ("pool-stats", "pool")])  # fmt: skip
def test_old_spellings_are_hidden_aliases(alias: str, command: str) -> None:
    context = click.Context(main)
    loaded = main.get_command(context, alias)
    assert loaded is not None and loaded.hidden and command in HELP_SECTIONS
    assert f"\n  {alias} " not in help_text()


@pytest.mark.parametrize(
    "path, command", EVERY_COMMAND, ids=[" ".join(p) for p, _ in EVERY_COMMAND]
)
def test_every_option_a_help_mentions_exists_and_papers_are_named(
    path: list[str], command: click.Command
) -> None:
    text = help_text(*path)
    assert not re.search(r"seed \d{3}", text, re.IGNORECASE), "cite papers by author, year"
    own = text.split("\nCommands:")[0]  # a group's listing names its sub-commands' options
    own = re.sub(r"`[^`]*`", "", own)  # `focal eval -q ...`: another command's words
    known = {"-h", "--help"} | {o for p in command.params for o in (*p.opts, *p.secondary_opts)}
    mentioned = set(OPTION.findall(own.split("Usage:", 1)[1]))
    assert mentioned <= known, f"{' '.join(path)} mentions {sorted(mentioned - known)}"


# One kind of option, one spelling, in every command that has it.
SPELLINGS = [
    (["eval"], ("-c", "--complete")),
    (["compare"], ("-c", "--complete")),
    (["eval"], ("-m", "--measure")),
    (["compare"], ("-m", "--measure")),
    (["eval"], ("-q", "--per-topic")),
    (["eval"], ("-j", "--jobs")),
    (["eval"], ("-l", "--level")),
    (["eval"], ("-M", "--max-docs")),
    # trec_eval 10.0's long forms of the options `focal eval` shares with it (trec_eval.c)
    (["eval"], ("--query_eval_wanted", "--complete_rel_info_wanted")),
    (["eval"], ("--level_for_rel", "--Max_retrieved_per_topic")),
    (["pool", "build"], ("--topic",)),
    (["pool", "policy"], ("--topic",)),
    (["eval"], ("-n", "--window")),
    (["eval"], ("--task",)),
    (["compare"], ("--task",)),
    (["pool", "simulate"], ("--task",)),
    (["reliability", "topics"], ("--task",)),
    (["eval"], ("--format",)),
    (["compare"], ("--format",)),
    (["measures"], ("--format", "--task", "--vocabulary")),
    (["export", "qrels"], ("--format", "--topic", "--assessor", "-o", "--output")),
    (["pool", "simulate"], ("--policy", "--budgets", "--steps", "--seed")),
    (["reliability", "topics"], ("--sizes", "--tolerance", "--seed")),
]


@pytest.mark.parametrize("path, options", SPELLINGS, ids=[" ".join(p) for p, _ in SPELLINGS])
def test_option_spellings_across_commands(path: list[str], options: tuple[str, ...]) -> None:
    command: click.Command | None = main
    context = click.Context(main)
    for word in path:
        assert isinstance(command, click.Group)
        command = command.get_command(context, word)
    assert command is not None
    known = {o for p in command.params for o in p.opts}
    assert set(options) <= known, sorted(set(options) - known)


@pytest.mark.parametrize("words", [
    ["--policy", "mtf", "--policy", "thompson"], ["--policy", "mtf,thompson"],
    ["--policy", "mtf", "--policy", " thompson,"],
])  # fmt: skip
def test_a_list_option_takes_repetition_and_commas(words: list[str]) -> None:
    from focal.assessor.cli.pools import policy
    from focal.reliability.cli.simulate import simulate

    context = simulate.make_context("simulate", [*words, str(DEMO_QRELS), str(DEMO_RUN)])
    assert context.params["policies"] == "mtf,thompson"
    topics = [word.replace("mtf", "9001").replace("thompson", "9002") for word in words]
    topics = ["--topic" if word == "--policy" else word for word in topics]
    assert policy.make_context("policy", ["fixed", *topics]).params["topics"] == ("9001", "9002")


def test_plot_without_matplotlib_is_refused_before_evaluating(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    figure = tmp_path / "x.svg"
    for words in (["eval", "--task", "thorough"], ["compare", "--task", "thorough"]):
        result = CliRunner().invoke(
            main, [*words, "--plot", str(figure), str(DEMO_QRELS), str(DEMO_RUN), str(DEMO_RUN)]
        )
        assert result.exit_code == 2 and result.stdout == "", result.output
        assert "--plot needs matplotlib" in result.stderr and "focal[plots]" in result.stderr
        assert "Traceback" not in result.output and not figure.exists()


@pytest.mark.parametrize("words", [["pool", "build", "--method", "topn", "--size", "20"],
                                   ["pool", "stats"]])  # fmt: skip
def test_forgotten_files_in_a_core_install_are_a_usage_error(
    words: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "sqlalchemy", None)  # an install without the assessor
    result = CliRunner().invoke(main, words)
    assert result.exit_code == 2 and result.stdout == ""
    assert "Missing argument" in result.stderr and "RUN..." in result.stderr
    assert "focal[assessor]" not in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("complete", [False, True])
def test_eval_compare_and_the_api_average_over_the_same_topics(
    tmp_path: Path, complete: bool
) -> None:
    """One default for which topics a mean is over: a run that skips a qrels topic has one
    mean in `focal eval`, `focal compare` and `focal.evaluate`, with `-c` another one."""
    import focal

    lines = DEMO_RUN.read_text(encoding="utf-8").splitlines(keepends=True)
    skipped = lines[0].split()[0]
    partial = tmp_path / "partial.run"
    partial.write_text("".join(line.replace("bm25-articles", "partial") for line in lines
                               if line.split()[0] != skipped), encoding="utf-8")  # fmt: skip
    files = [str(DEMO_QRELS), str(DEMO_RUN), str(partial)]
    switch = ["-c"] if complete else []
    shown = CliRunner().invoke(
        main, ["eval", "--task", "articles", "-m", "AP", "--format", "tsv", *switch, *files]
    )
    rows = [line.split("\t") for line in shown.stdout.splitlines()[1:]]
    by_eval = {run: float(value) for run, measure, topic, value in rows if measure == "AP"}
    tested = CliRunner().invoke(
        main, ["compare", "--task", "articles", "-m", "AP", "--format", "json", *switch, *files]
    )
    by_compare = {r["run_id"]: r["mean"] for r in json.loads(tested.stdout)["runs"]}
    frame = focal.wide(focal.evaluate(files[0], files[1:], ["AP"], complete=complete))
    by_api = frame["AP"].to_dict()
    assert shown.exit_code == 0 and tested.exit_code == 0, shown.output + tested.output
    assert by_eval["partial"] == pytest.approx(by_compare["partial"], abs=1e-12)
    assert by_eval == pytest.approx(by_api, abs=1e-12)
    if complete:  # the skipped topic scores 0 (its AP in the full run is above 0)
        assert "paired on all" in tested.stderr
        assert by_eval["partial"] < by_eval["bm25-articles"]
    else:
        assert "averaged over" in shown.stderr or "topics answered" in shown.stderr


@pytest.mark.parametrize("value", ["count", "seed", "plus-one"])
def test_the_bootstrap_p_is_no_longer_named_seed_but_still_answers_to_it(value: str) -> None:
    from focal.evaluation.cli.compare import compare_command

    assert "[count|plus-one]" in help_text("compare")  # beside --seed, a random seed
    words = ["--bootstrap-p", value, str(DEMO_QRELS), str(DEMO_RUN), str(DEMO_RUN)]
    context = compare_command.make_context("compare", words)
    assert context.params["bootstrap_p"] == value
