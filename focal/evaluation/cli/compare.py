"""`focal compare`: significance tests between every pair of runs (spec section 8).

The options are read into `running.options.CompareOptions`, whose `checked` refuses those that
cannot go together; the runs are evaluated exactly as `focal eval` evaluates them, or per-topic
values are read from `focal eval -q --format tsv` output (`--scores`; both in
`running.per_topic`); then one measure's values are paired by topic and every pair i < j is
tested and corrected, and this module writes the result.

`focal compare agreement ...` is a second form. Click cannot give a group both its own
positional arguments (QRELS RUN...) and sub-commands, so `compare` is one command whose
`make_context` hands the arguments to `agreement` when the first of them is that word; help,
usage and errors are then the sub-command's own.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import click

from focal.evaluation.cli import numbers
from focal.evaluation.cli.compare_report import FORMATS, WRITERS, write_agreement, write_curve
from focal.evaluation.errors import FormatError
from focal.evaluation.measures.registry.declarations import TASKS, topic_rows
from focal.evaluation.running.checks import task_for
from focal.evaluation.running.options import CompareOptions, EvalOptions, OptionError
from focal.evaluation.running.per_topic import evaluated_values, scores_values
from focal.evaluation.statistics.significance.corrections import CORRECTIONS
from focal.evaluation.statistics.significance.effects import CI_METHODS, Effects, effect_sizes
from focal.evaluation.statistics.significance.pairing import PairedScores, pair_by_topic
from focal.evaluation.statistics.significance.pairwise import TESTS, Comparison
from focal.evaluation.statistics.significance.results import ALTERNATIVES

Values = dict[str, dict[str, Any]]  # run -> topic -> value


def fail(message: str, command: str = "focal compare") -> NoReturn:
    """One line on stderr, exit code 2, nothing on stdout."""
    click.echo(f"{command}: {message}", err=True)
    sys.exit(2)


def test_options(function: Any) -> Any:
    """The options shared by both forms: which test, which correction, and resampling."""
    options = [
        click.option("--test", "test", type=click.Choice(TESTS), default=CompareOptions.test,
                     show_default=True,
                     help="t, wilcoxon, sign, randomisation, bootstrap, sakai (Sakai 2006 ASL), "
                     "tukey (blocked HSD)."),
        click.option("--alternative", type=click.Choice(ALTERNATIVES),
                     default=CompareOptions.alternative,
                     show_default=True, help="greater: row better than column, every ordered "
                     "pair tested (Cherukuri 2010's one-tailed t); less: row worse."),
        click.option("--correction", type=click.Choice(CORRECTIONS),
                     default=CompareOptions.correction,
                     show_default=True,
                     help="Over the pairs; by is the choice of Ogilvie & Lalmas 2006."),
        click.option("--alpha", type=numbers.Real(0, 1, min_open=True, max_open=True),
                     default=CompareOptions.alpha, show_default=True),
        click.option("--samples", type=numbers.SAMPLES, default=CompareOptions.samples,
                     show_default=True,
                     help="B, for randomisation, bootstrap and sakai."),
        click.option("--seed", type=numbers.SEED,
                     help="Resampling seed (default: drawn, and printed)."),
        click.option("--bootstrap-p", type=click.Choice(["count", "plus-one", "seed"]),
                     metavar="[count|plus-one]",  # seed: the old name of count, not listed
                     default=CompareOptions.bootstrap_p,
                     show_default=True,
                     help="The bootstrap's p: count, #/B as Ogilvie & Lalmas 2006 (can be 0); "
                     "plus-one, (b+1)/(B+1)."),
        click.option("-c/--common-topics", "--complete", "complete",
                     default=CompareOptions.complete,
                     help="Every qrels topic counts, a topic a run missed scoring 0 (as `focal "
                     "eval -c`), or only the topics every run answered (default, as `focal "
                     "eval` averages)."),
        click.option("-m", "--measure",
                     help="Per-topic measure. Default: AiP (focused, thorough), AgP (ric, bic, "
                     "t2i), MAP (articles), MAep (elements)."),
    ]  # fmt: skip
    for option in reversed(options):
        function = option(function)
    return function


def run_comparison(paired: PairedScores, options: CompareOptions) -> Comparison:
    try:
        return options.tested(paired)
    except ValueError as error:
        raise click.UsageError(str(error)) from error


def comparison_effects(comparison: Comparison, options: CompareOptions) -> Effects:
    """The intervals and effect sizes printed beside the p-values (bootstrap: --samples, --seed)."""
    return effect_sizes(
        comparison, options.confidence, options.ci_method, options.samples, options.seed
    )


class CompareCommand(click.Command):
    """`compare` that hands `agreement ...` to the agreement command (see the module doc)."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:  # fmt: skip
        if args and args[0] == "agreement":
            # a parent context without compare's arguments, so that usage reads
            # "focal compare agreement [OPTIONS]"
            holder = click.Context(click.Command(info_name), info_name=info_name, parent=parent)
            return agreement_command.make_context("agreement", args[1:], parent=holder)
        return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        if ctx.command is not self:
            return ctx.command.invoke(ctx)
        return super().invoke(ctx)


@click.command("compare", cls=CompareCommand)
@click.option("--task", type=click.Choice(TASKS), default=None,
              help="Evaluation task, as `focal eval --task` (default: articles for TREC qrels, "
              "else focused).")  # fmt: skip
@test_options
@click.option(
    "--scores", "scores_paths", multiple=True, type=click.Path(exists=True, dir_okay=False),
    help="Per-topic values (`focal eval -q --format tsv`) instead of QRELS RUN... Repeatable.",
)  # fmt: skip
@click.option("--format", "output_format", type=click.Choice(FORMATS),
              default=CompareOptions.output_format, show_default=True)  # fmt: skip
@click.option(
    "--ci",
    "confidence",
    type=numbers.Real(0, 1, min_open=True, max_open=True),
    default=CompareOptions.confidence,
    show_default=True,
    help="Level of the intervals of the means and of the mean differences.",
)
@click.option(
    "--ci-method",
    type=click.Choice(CI_METHODS),
    default=CompareOptions.ci_method,
    show_default=True,
    help="t intervals, or scipy's bootstrap (BCa; --samples, --seed).",
)
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Heatmap of adjusted p-values and effect sizes (.png or .svg).")  # fmt: skip
@click.option("--curve", "curve_path", type=click.Path(dir_okay=False),
              help="With --test sakai: write the ASL curve (rank run_a run_b asl).")  # fmt: skip
@click.option("--beta", type=numbers.Real(), default=EvalOptions.beta, show_default=True,
              help="RiC F-measure beta.")  # fmt: skip
@click.option("-n", "bep_window", type=numbers.RANK, default=EvalOptions.n,
              show_default=True, help="BiC distance window.")  # fmt: skip
@click.option("--irr", type=numbers.RANK, default=EvalOptions.irr, show_default=True,
              help="T2I irrelevant characters tolerated.")  # fmt: skip
@click.option("--strict", is_flag=True, help="Corrected definitions instead of official quirks.")
@click.option(
    "-j", "--jobs", type=numbers.JOBS, default=0, help="Processes for the runs (0: all cores)."
)
@click.option("--quant", default=EvalOptions.quant, show_default=True,
              help="Task elements: the quantisation, as `focal eval --task elements`.")  # fmt: skip
@click.option("--collection", "collection_dir", type=click.Path(exists=True, file_okay=False),
              help="Task elements: the articles, to derive element qrels from FOL QRELS.",
              )  # fmt: skip
@click.argument("files", metavar="[QRELS RUN...]", nargs=-1,
                type=click.Path(exists=True, dir_okay=False))  # fmt: skip
def compare_command(
    task: str | None, scores_paths: tuple[str, ...], output_format: str, confidence: float,
    ci_method: str, plot_path: str | None,
    curve_path: str | None, beta: float, bep_window: int, irr: int, strict: bool, jobs: int,
    quant: str, collection_dir: str | None, files: tuple[str, ...], **settings: Any,
) -> None:  # fmt: skip
    """Test every pair of RUNs for a significant difference in one per-topic measure.

    Either evaluate QRELS RUN... (as `focal eval`) or read --scores files. Text output is the
    Cherukuri 2010 significance matrix (runs by mean, * significant after correction, - not), then
    each run's mean with its --ci interval and each pair's mean difference with its interval,
    d_z, Hedges' g and Sakai's ES_E; tsv and json carry the same.
    `focal compare agreement --help`: the agreement of two sets of significant pairs.
    """
    if scores_paths and files:
        raise click.UsageError("give --scores FILE... or QRELS RUN..., not both")
    if not scores_paths and len(files) < 3:
        raise click.UsageError("give QRELS and at least two RUN files (or --scores FILE...)")
    task = task_for(files[0], task) if files else (task or EvalOptions.task)
    evaluation = EvalOptions(
        task, beta=beta, n=bep_window, irr=irr, strict=strict, quant=quant,
        collection=collection_dir, jobs=jobs,
    )  # fmt: skip
    options = CompareOptions(
        evaluation, scores=scores_paths, output_format=output_format, confidence=confidence,
        ci_method=ci_method, plot=plot_path, curve=curve_path, **settings,
    ).checked().seeded()  # fmt: skip
    measure, values, paired = paired_values(options, files)
    comparison = run_comparison(paired, options)
    effects = comparison_effects(comparison, options)
    write_notes(options, measure, paired, values)
    WRITERS[output_format](comparison, effects, measure, sys.stdout)
    if plot_path:
        from focal.evaluation.statistics.significance.heatmap import plot_heatmap

        plot_heatmap(comparison, effects, measure, plot_path)
        click.echo(f"plot written to {plot_path}", err=True)
    if curve_path:
        write_curve(comparison, curve_path)
        click.echo(f"ASL curve written to {curve_path}", err=True)


def paired_values(
    options: CompareOptions, files: tuple[str, ...]
) -> tuple[str, Values, PairedScores]:
    """(measure, run → topic → value, the values paired by topic) from --scores files or the
    runs evaluated; a bad file or measure is one line on stderr and exit code 2."""
    task = options.task
    try:
        if options.scores:
            measure, values = scores_values(options.scores, options.measure)
            topics = None
        else:
            measure = options.topic_measure
            if task not in ("elements", "articles") and measure not in topic_rows(task):
                fail(f"task {task} has no per-topic measure {measure} (-m)")
            values, topics, notes = evaluated_values(files[0], files[1:], options)
            for note in notes:
                click.echo(note, err=True)
        return measure, values, pair_by_topic(values, options.complete, topics)
    except OptionError:
        raise
    except FormatError as error:
        fail(str(error))
    except ValueError as error:  # no topic in common, an unknown article measure
        fail(f"{', '.join(options.scores or files[1:])}: {error}")


def write_notes(
    options: CompareOptions, measure: str, paired: PairedScores, values: Values
) -> None:
    """What stderr says: the pairing, the topics each run answered, the correction and seed."""
    click.echo(f"{measure}: {paired.description}", err=True)
    every = (*paired.topics, *paired.dropped)
    for run in paired.runs:
        missed = sum(1 for topic in every if topic not in values[run])
        click.echo(f"{run}: answered {len(every) - missed} of {len(every)} topics", err=True)
    if options.test == "tukey" and options.correction != "none":
        click.echo("Tukey's HSD already controls the family-wise error; corrected again", err=True)
    if options.test in ("randomisation", "bootstrap", "sakai") or options.ci_method == "bootstrap":
        click.echo(f"resampling seed {options.seed}, {options.samples} samples", err=True)


@click.command("agreement")
@test_options
@click.option("--scores", "scores_paths", multiple=True, required=True,
              type=click.Path(exists=True, dir_okay=False),
              help="Per-topic values: X then Y (or one file with two -m).")  # fmt: skip
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text",
              show_default=True)  # fmt: skip
def agreement_command(
    scores_paths: tuple[str, ...], output_format: str, **settings: Any
) -> None:  # fmt: skip
    """Agreement of the significant pairs under X with those under Y (Ogilvie &
    Lalmas 2006, Tables 3–4): precision |X∩Y|/|X|, recall |X∩Y|/|Y|, F1.

    X and Y are two --scores files (two quantisations) with the same -m, or one --scores file
    with two measures given as `-m X,Y`.
    """
    from focal.evaluation.statistics.significance.measure_agreement import compare_agreement

    measures = (settings.pop("measure") or "").split(",")
    options = CompareOptions(**settings).seeded()
    if len(scores_paths) == 2 and len(measures) == 1:
        sides = [((path,), measures[0] or None) for path in scores_paths]
    elif len(scores_paths) == 1 and len(measures) == 2:
        sides = [(scores_paths, m) for m in measures]
    else:
        raise click.UsageError("give two --scores files, or one with -m X,Y")
    comparisons, names = [], []
    try:
        for paths, measure in sides:
            chosen, values = scores_values(paths, measure)
            paired = pair_by_topic(values, options.complete)
            comparisons.append(run_comparison(paired, options))
            names.append(f"{paths[0]} {chosen}")
    except FormatError as error:
        fail(str(error), "focal compare agreement")
    except ValueError as error:
        fail(f"{', '.join(scores_paths)}: {error}", "focal compare agreement")
    runs_x, runs_y = (set(c.scores.runs) for c in comparisons)
    if runs_x != runs_y:
        differ = ", ".join(sorted(runs_x ^ runs_y))
        fail(f"{', '.join(scores_paths)}: X and Y must compare the same runs (not: {differ})",
             "focal compare agreement")  # fmt: skip
    agreement = compare_agreement(comparisons[0], comparisons[1])
    write_agreement(agreement, (names[0], names[1]), output_format, sys.stdout)
