"""`focal eval`: the official INEX evaluation program's measures, and article measures.

Output goes to stdout in the official layout by default; notes (averaging used, strict mode,
warnings, run topics absent from the qrels) go to stderr so that stdout stays comparable with the
official program. Errors in input files are one line on stderr and exit code 2. This module
reads the command line into `running.options.EvalOptions`, whose `checked` refuses the options
that cannot go together (a usage error, exit code 2), and hands the call to the path of its
engine, each a module of its own that evaluates through `focal.evaluation.running` and writes
(`cli.trec_eval.articles`, `cli.eval.elements`, `cli.eval.engines`).
"""

from __future__ import annotations

from collections.abc import Sequence

import click

from focal.evaluation.cli import numbers
from focal.evaluation.cli.eval.output import FORMATS
from focal.evaluation.measures.tasks import TASKS
from focal.evaluation.running.checks import task_for
from focal.evaluation.running.options import EvalOptions

# The defaults are EvalOptions' (one place, shared with the Python API); that module loads only
# click, as this one must (`focal eval` reads its options before anything heavy is imported).


@click.command(
    "eval",
    short_help="Evaluate runs against qrels: INEX passage and element tasks, trec_eval measures.",
)
@click.option(
    "--task",
    type=click.Choice(TASKS),
    default=None,
    help="The INEX passage tasks focused, thorough, ric (Relevant in Context), bic (Best in "
    "Context), t2i; articles (document measures, as trec_eval); or elements (element runs). "
    "Default: articles for TREC qrels, else focused.",
)
@click.option(
    "-q",
    "--per-topic",
    "--query_eval_wanted",
    "per_topic",
    is_flag=True,
    help="Print per-topic rows before `all`.",
)
@click.option(
    "-c",
    "--complete",
    "--complete_rel_info_wanted",
    "complete",
    is_flag=True,
    help="Average over every qrels topic (missing topics score 0); always so for elements.",
)
@click.option(
    "--beta",
    type=numbers.Real(),
    default=EvalOptions.beta,
    show_default=True,
    help="RiC F-measure beta.",
)
@click.option(
    "-n",
    "--window",
    "bep_window",
    type=numbers.RANK,
    default=EvalOptions.n,
    show_default=True,
    help="BiC distance window.",
)
@click.option(
    "--irr",
    type=numbers.RANK,
    default=EvalOptions.irr,
    show_default=True,
    help="T2I irrelevant characters tolerated.",
)
@click.option(
    "--strict", is_flag=True, help="Corrected definitions instead of the official quirks."
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice((*FORMATS, "trec")),
    default=None,
    help="table: runs × measures (default for several runs without -q); inex: the official "
    "program's layout (default otherwise); tsv, json; trec: trec_eval's layout (task articles).",
)
@click.option(
    "-m",
    "--measure",
    "measures",
    multiple=True,
    help="Article measure (task articles), trec_eval names and sets: map, P.5,10, ndcg_cut.10, "
    "official, all_trec... (Focal's MAP, P@k, nDCG@k too; docs/trec_eval.md); element measure "
    "(task elements): P@k, overlap@k, inex_eval, inex_eval_ng, nxCG@k, MAep. Repeatable.",
)
@click.option(
    "--quant",
    default=EvalOptions.quant,
    show_default=True,
    help="Task elements: the quantisation (docs/measures.md lists them).",
)
@click.option(
    "--collection",
    "collection_dir",
    type=click.Path(exists=True, file_okay=False),
    help="Task elements: the articles, to derive element qrels from FOL qrels and find spans.",
)
@click.option(
    "--ties",
    type=click.Choice(["score", "rank"]),
    default=EvalOptions.ties,
    show_default=True,
    help="Task elements, inex_eval: equal scores form one block, or every rank its own.",
)
@click.option(
    "--nonrel",
    type=click.Choice(["indicator", "complement"]),
    default=EvalOptions.nonrel,
    show_default=True,
    help="Task elements, inex_eval: a result is non-relevant when f = 0, or 1 - f of it is.",
)
@click.option(
    "--alpha",
    type=numbers.Real(0, 1),
    default=EvalOptions.alpha,
    show_default=True,
    help="Task elements, XCG: a seen element keeps 1 - alpha of its value; one seen in part "
    "gains alpha of its children's unseen value (docs/measures.md).",
)
@click.option(
    "--parts",
    type=click.Choice(["size", "equal"]),
    default=EvalOptions.part_weights,
    show_default=True,
    help="Task elements, XCG: a seen-in-part element's children weigh by their size (from "
    "2005/2006 qrels or FOL qrels; else equally), or equally.",
)
@click.option(
    "--trec-version",
    type=click.Choice(["9", "10"]),
    default=None,
    help="Task articles: reproduce trec_eval 10.0 (default) or 9.0.x (pytrec_eval, ir_measures).",
)
@click.option(
    "-l",
    "--level",
    "--level_for_rel",
    "level",
    type=numbers.COUNT,
    default=None,
    help="Task articles: lowest grade that counts as relevant (trec_eval -l; default 1).",
)
@click.option(
    "-M",
    "--max-docs",
    "--Max_retrieved_per_topic",
    "max_docs",
    type=click.IntRange(min=1),
    default=None,
    help="Task articles: documents per topic considered (trec_eval -M).",
)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="Write the interpolated precision-recall curves of all runs (.png or .svg).",
)
@click.option(
    "--ci",
    "confidence",
    type=numbers.Real(0, 1, min_open=True, max_open=True),
    default=None,
    help="Also each mean's interval over the topics at this level (e.g. 0.95): rows "
    "NAME.ci_low and NAME.ci_high (inex, tsv), `intervals` (json).",
)
@click.option(
    "--ci-method",
    type=click.Choice(["t", "bootstrap"]),
    default=EvalOptions.ci_method,
    show_default=True,
    help="Student's t interval, or scipy's BCa bootstrap over the topics (seed 0).",
)
@click.option(
    "-j",
    "--jobs",
    type=numbers.JOBS,
    default=0,
    help="Workers for several runs (0: all cores): threads for focused and trec_eval's "
    "measures, processes for the other tasks.",
)
@click.argument("qrels_path", metavar="QRELS", type=click.Path(exists=True, dir_okay=False))
@click.argument(
    "run_paths",
    metavar="RUN...",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, dir_okay=False),
)
def eval_command(
    task: str | None, per_topic: bool, complete: bool, beta: float, bep_window: int, irr: int,
    strict: bool, output_format: str | None, measures: tuple[str, ...],
    trec_version: str | None, level: int | None, max_docs: int | None,
    plot_path: str | None, confidence: float | None, ci_method: str, jobs: int,
    qrels_path: str, run_paths: tuple[str, ...], quant: str, collection_dir: str | None,
    ties: str, alpha: float, nonrel: str, parts: str,
) -> None:  # fmt: skip
    """Evaluate RUN files against INEX FOL QRELS, as the official INEX program 3.1 does; with
    --task articles, also TREC qrels and runs as trec_eval 10 or 9 does (docs/trec_eval.md);
    with --task elements, element runs against element qrels, or FOL QRELS with --collection
    (every qrels topic counts, as -c; docs/measures.md)."""
    version = None if trec_version is None else int(trec_version)
    task = task_for(qrels_path, task)
    options = EvalOptions(
        task, measures, complete=complete, beta=beta, n=bep_window, irr=irr, strict=strict,
        level=level, max_docs=max_docs, trec_version=version, quant=quant, ties=ties,
        nonrel=nonrel, alpha=alpha, part_weights=parts, collection=collection_dir,
        per_topic=per_topic, output_format=output_format, plot=plot_path,
        confidence=confidence, ci_method=ci_method, jobs=jobs,
    ).checked()  # fmt: skip
    if task == "elements":
        from focal.evaluation.cli.eval.elements import run_elements

        run_elements(qrels_path, run_paths, options)
    elif task != "articles" or not on_trec_eval(qrels_path, run_paths, options):
        from focal.evaluation.cli.eval.engines import run_focal_engines

        run_focal_engines(qrels_path, run_paths, options)


def on_trec_eval(qrels_path: str, run_paths: Sequence[str], options: EvalOptions) -> bool:
    """Task articles through trec_eval's engine, if it is the one that serves the call (TREC
    qrels, a trec_eval measure or switch): evaluated, written, and True; else False. The runs
    go through the C part's whole-file pass first (`trec_eval.articles.by_pass`): when it
    answers one, the qrels are plain TREC qrels and trec_eval's engine serves the call, so that
    nothing more is imported to choose it (docs/performance.md)."""
    from focal.evaluation.cli.trec_eval import articles as trec_eval

    trec = options.trec_options()
    output_format = options.layout(len(run_paths), "trec")
    measures = trec_eval.measures_for(options.measures, output_format)
    keep = options.per_topic or options.confidence is not None
    found = trec_eval.by_pass(qrels_path, run_paths, measures, trec, keep)
    ahead = None
    if all(evaluation is None for evaluation in found):
        from focal.evaluation.measures.trec_eval.engine.files import start_qrels

        ahead = start_qrels(qrels_path)  # plain TREC qrels: read in C while engines are imported
        from focal.evaluation.measures import providers
        from focal.evaluation.running.articles import is_trec_qrels

        if options.engine(is_trec_qrels(qrels_path)) is not providers.TREC_RUN:
            return False
    trec_eval.run_trec_eval(
        qrels_path, run_paths, options.measures, trec, options.per_topic, output_format,
        options.workers(), options.confidence, options.ci_method, ahead, found,
    )  # fmt: skip
    if options.plot:
        trec_eval.plot_recall_curves(qrels_path, run_paths, trec, options.plot)
    return True
