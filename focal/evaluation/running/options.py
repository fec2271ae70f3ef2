"""What `focal eval` and `focal compare` are asked, as values: `EvalOptions` and `CompareOptions`.

Each holds its command's options with their defaults, and `checked` is the one check of their
combinations, in the command's words: the command line prints a refusal as a usage error (exit
code 2), and the Python API (`focal.evaluate`, `focal.compare`, `focal.evaluation.evaluate`)
builds the same objects, so it refuses the same combinations with the same words (an
`OptionError`: a ValueError, and a click.UsageError). The values themselves are checked where
they are defined (`measures.records.Settings`, `TrecOptions`, the quantisations), and a refusal
there is an `OptionError` too (defined in `running.checks`, with the checks of the files and of
`--plot` made before any work). This module loads nothing heavy: `focal eval` builds its options
before the runs are read (docs/performance.md).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from focal.evaluation.running.checks import DEFAULT_TASK, check_plot
from focal.evaluation.running.checks import OptionError as OptionError  # where it was

if TYPE_CHECKING:
    from focal.evaluation.measures.elements.topic import ElementOptions
    from focal.evaluation.measures.providers import Engine
    from focal.evaluation.measures.records import Settings
    from focal.evaluation.measures.trec_eval.engine.summary import TrecOptions
    from focal.evaluation.statistics.significance.pairing import PairedScores
    from focal.evaluation.statistics.significance.pairwise import Comparison

# `focal compare`'s per-topic measure when none is given, by task
DEFAULT_MEASURES = {"focused": "AiP", "thorough": "AiP", "ric": "AgP", "bic": "AgP", "t2i": "AgP",
                    "articles": "MAP", "elements": "MAep"}  # fmt: skip


@dataclass(frozen=True)
class EvalOptions:
    """`focal eval`'s options, named as `focal.evaluation.evaluate`'s keywords: the task and
    -m's measures; -c, --beta, -n, --irr, --strict (the official program's switches); -l, -M,
    --trec-version (task articles); --quant, --ties, --nonrel, --alpha, --parts
    (`part_weights`), --collection (task elements); what is written (-q, --format, --plot,
    --ci, --ci-method); and -j (0: every usable CPU)."""

    task: str = DEFAULT_TASK
    measures: tuple[str, ...] = ()
    complete: bool = False
    beta: float = 0.25
    n: int = 500
    irr: int = 300
    strict: bool = False
    level: int | None = None
    max_docs: int | None = None
    trec_version: int | None = None
    quant: str = "generalised"
    ties: str = "score"
    nonrel: str = "indicator"
    alpha: float = 1.0
    part_weights: str = "size"
    collection: str | os.PathLike[str] | None = None
    per_topic: bool = False
    output_format: str | None = None
    plot: str | None = None
    confidence: float | None = None
    ci_method: str = "t"
    jobs: int = 1

    @property
    def element_switches(self) -> bool:
        """Whether an option of task elements is given."""
        defaults = EvalOptions()
        return self.collection is not None or any(
            getattr(self, name) != getattr(defaults, name)
            for name in ("quant", "ties", "nonrel", "alpha", "part_weights")
        )

    @property
    def trec_switches(self) -> bool:
        """Whether a switch of trec_eval's is given: -l, -M, --trec-version or --format trec."""
        given = (self.level, self.max_docs, self.trec_version)
        return any(value is not None for value in given) or self.output_format == "trec"

    def checked(self) -> EvalOptions:
        """These options, or OptionError for the first combination `focal eval` refuses."""
        if self.output_format == "table" and self.per_topic:
            raise OptionError("--format table shows the `all` rows: -q with inex, tsv or json")
        if self.output_format == "table" and self.confidence is not None:
            raise OptionError("--format table shows the means: --ci with inex, tsv or json")
        if self.task != "elements" and self.element_switches:
            raise OptionError(
                "--quant, --collection, --ties, --nonrel, --alpha and --parts are for --task "
                "elements"
            )
        if self.task != "articles" and self.trec_switches:
            raise OptionError("--trec-version, -l, -M and --format trec are for --task articles")
        if self.task == "elements":
            if self.plot or self.strict or self.confidence is not None:
                raise OptionError("--plot, --strict and --ci are for the passage and article tasks")
            self.element_settings()
        elif self.measures and self.task != "articles":
            raise OptionError("-m/--measure is for --task articles and elements")
        check_plot(self.plot)
        return self

    def engine(self, trec_qrels: bool = False) -> Engine:
        """The engine that evaluates these options' runs (`measures.providers.choose`), given
        whether the qrels are TREC's."""
        from focal.evaluation.measures import providers

        call = providers.Call(self.task, self.measures, trec_qrels, self.trec_switches)
        return providers.choose(call)[0]

    def layout(self, runs: int, default: str = "inex") -> str:
        """The output format for `runs` runs: as given, else `table` for several runs without
        -q or --ci, else `default` (the engine's). trec_eval's engine (`default` `trec`) prints
        trec_eval's layout, with trec_eval's names, only when asked (`--format trec`, or `inex`,
        the official program's layout, which has no article rows): by default one run is a
        table too, and with -q or --ci the rows are tab-separated, each measure named as typed
        (docs/trec_eval.md)."""
        chosen = self.output_format
        by_table = runs > 1 or default == "trec"
        if chosen is None and not self.per_topic and by_table and self.confidence is None:
            chosen = "table"  # the first thing a reader looks for: runs × measures
        if default == "trec":
            return {None: "tsv", "inex": "trec"}.get(chosen, chosen) or "tsv"
        return chosen or default

    def workers(self) -> int:
        """-j: the workers for several runs (0: every usable CPU)."""
        from focal.evaluation.processes import usable_cpus

        return self.jobs or usable_cpus()

    def settings(self) -> Settings:
        """The `Settings` of Focal's own engines (the passage tasks, Focal's article measures);
        OptionError for a value they refuse."""
        from focal.evaluation.measures.records import Settings

        chosen: dict[str, Any] = {"measures": self.measures} if self.measures else {}
        try:
            return Settings(
                task=self.task, complete=self.complete, beta=self.beta, n=self.n, irr=self.irr,
                strict=self.strict, **chosen,
            )  # fmt: skip
        except ValueError as error:
            raise OptionError(str(error)) from error

    def element_options(self) -> ElementOptions:
        """How task elements scores elements: --quant, --ties, --nonrel, --alpha, --parts."""
        from focal.evaluation.measures.elements.precall import NonRelevance, Ties
        from focal.evaluation.measures.elements.topic import ElementOptions
        from focal.evaluation.measures.elements.xcg import PartWeights

        return ElementOptions(
            self.quant, cast(Ties, self.ties), cast(NonRelevance, self.nonrel), self.alpha,
            cast(PartWeights, self.part_weights),
        )  # fmt: skip

    def element_settings(self) -> Settings:
        """The `Settings` of task elements (`element_settings`)."""
        return element_settings(self.measures, self.element_options(), self.collection)

    def trec_options(self) -> TrecOptions:
        """trec_eval's switches: -l (default 1), -M, -c, --trec-version (default 10)."""
        from focal.evaluation.measures.trec_eval.engine.summary import TrecOptions

        level = 1 if self.level is None else self.level
        return TrecOptions(level, self.max_docs, self.complete, self.trec_version or 10)


@dataclass(frozen=True)
class CompareOptions:
    """`focal compare`'s options: how the runs are evaluated (`evaluation`: the task, --beta,
    -n, --irr, --strict, --quant, --collection, -j), the per-topic measure (-m), the test and
    its correction, resampling (--samples, --seed, --bootstrap-p), which topics count
    (`complete`: every qrels topic, or by default the topics every run answered, as
    `focal eval` averages over the topics a run answered), --scores files instead
    of runs, and what is written (--format, --ci, --ci-method, --plot, --curve)."""

    evaluation: EvalOptions = field(default_factory=EvalOptions)
    measure: str | None = None
    test: str = "t"
    alternative: str = "two-sided"
    correction: str = "none"
    alpha: float = 0.05
    samples: int = 10_000
    seed: int | None = None
    bootstrap_p: str = "count"  # or "plus-one"; "seed", its old name, is "count"
    complete: bool = False
    scores: tuple[str, ...] = ()
    output_format: str = "text"
    confidence: float = 0.95
    ci_method: str = "t"
    plot: str | None = None
    curve: str | None = None

    @property
    def task(self) -> str:
        return self.evaluation.task

    @property
    def topic_measure(self) -> str:
        """-m, or the task's ranking measure (`DEFAULT_MEASURES`)."""
        return self.measure or DEFAULT_MEASURES[self.task]

    def checked(self) -> CompareOptions:
        """These options, or OptionError for the first combination `focal compare` refuses."""
        if self.curve and self.test != "sakai":
            raise OptionError("--curve is the ASL curve of --test sakai")
        check_plot(self.plot)
        evaluation = self.evaluation
        if self.task != "elements" and (evaluation.collection or evaluation.quant != "generalised"):
            raise OptionError("--quant and --collection are for --task elements")
        if self.task == "elements" and not self.scores:
            from focal.evaluation.measures.elements import quantisation

            try:
                quantisation.canonical(evaluation.quant)
            except ValueError as error:
                raise OptionError(str(error)) from error
        if self.task == "elements" and not self.complete:  # every qrels topic (spec section 5)
            return replace(self, complete=True)
        return self

    def tested(self, paired: PairedScores) -> Comparison:
        """Every pair of `paired` tested, corrected and decided as these options say (spec
        section 8; ValueError for a test the values or options do not allow)."""
        from focal.evaluation.statistics.significance.pairwise import compare

        return compare(
            paired, self.test, self.alternative, self.correction, self.alpha, self.samples,
            self.seed, self.bootstrap_p == "plus-one",
        )  # fmt: skip

    def seeded(self) -> CompareOptions:
        """These options with a resampling seed: --seed, or one drawn (and then printed)."""
        import secrets  # (when first used: 6 ms of `focal eval`'s start)

        return self if self.seed is not None else replace(self, seed=secrets.randbelow(2**31))


def element_settings(
    measures: Sequence[str],
    options: ElementOptions,
    collection: str | os.PathLike[str] | None = None,
) -> Settings:
    """Task elements' settings: every qrels topic counts (spec section 5); OptionError for an
    unknown quantisation, measure or option value, or for inex_eval_ng (which counts the
    characters seen) without the `collection`."""
    from focal.evaluation.measures.elements import quantisation
    from focal.evaluation.measures.elements.topic import needs_spans
    from focal.evaluation.measures.records import Settings
    from focal.evaluation.measures.registry.names import DEFAULTS

    try:
        quantisation.canonical(options.quant)
        settings = Settings(
            task="elements", complete=True, elements=options,
            measures=tuple(measures) or DEFAULTS["elements"],
        )  # fmt: skip
    except ValueError as error:
        raise OptionError(str(error)) from error
    if not collection and needs_spans(settings.measures):
        raise OptionError("inex_eval_ng counts characters: give --collection DIR")
    return settings
