"""`focal trec_eval` on plain files through the C part's whole-file pass
(`trec_eval.engine.plain_pass`): trec_eval's loop over topics, as `trec_eval.c` runs it.

The pass answers for plain qrels (`-R qrels`) and a plain run file (not `-`), without `-Z` or
`-D`, when the C part computes every family asked for; then nothing here imports numpy, pyarrow
or click (docs/trec_eval.md, "The C part"). Without the C part (not built, or
`FOCAL_KERNEL=numpy`) the same pass runs with numpy (`trec_eval.numpy_pass`, imported only
then). Topics come in trec_eval's order (the qrels topics, byte order) with their values, and
are handled as trec_eval handles them:
- `-q` rows are printed as the topics come, a block of topics at a time (`layout`), so that
  the rows before a stop are on stdout, and no table of every topic is kept: the `all` rows are
  running sums (`summary.Totals`), the same additions in the same order as the engine's;
- 10.0 without `-c` stops (exit 4) at a qrels topic the run misses; 9.x skips it; a duplicate
  stops both at its topic (`PlainStop`); the first topic evaluated stops 10.0 when it has only
  negative judgements (`stops`);
- 10.0 with `-c` evaluates a missing topic as its stand-in ranking (the pass gives its values)
  and resets the rows `trec_eval.c` resets (`summary.reset_when_missing`); 9.x with `-c`
  divides by every qrels topic; num_rel of `-c` counts every qrels grade above 0.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Protocol

from focal.evaluation.cli.trec_eval.arguments import Request
from focal.evaluation.cli.trec_eval.layout import (
    BLOCK,
    block_lines,
    row_names,
    summary_lines,
    topic_rows,
)
from focal.evaluation.cli.trec_eval.stops import (
    Stop,
    judged_twice,
    missing_topic,
    only_negative,
    retrieved_twice,
)
from focal.evaluation.measures.trec_eval.engine.plain_pass import (
    PlainOptions,
    PlainStop,
    PlainTopic,
    RowTuple,
    row_tuples,
)
from focal.evaluation.measures.trec_eval.engine.summary import (
    Totals,
    TrecOptions,
    Value,
    averages,
    reset_when_missing,
)
from focal.evaluation.measures.trec_eval.families.declarations import BY_NAME, TEXT, Selection
from focal.evaluation.measures.trec_eval.families.measure import Row
from focal.evaluation.measures.trec_eval.kernel import compiled
from focal.evaluation.measures.trec_eval.numpy_pass.chosen import open_pass

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameters (malloc.h)


class Lines(Protocol):
    """Where the lines go (`command.Output`)."""

    def write(self, lines: Sequence[str]) -> None: ...


def eligible(request: Request) -> bool:
    """Whether the whole-file pass may answer: plain qrels, a run file, no -Z, no -D."""
    return (request.rel_format == "qrels" and request.results != "-"
            and request.zscores is None and request.only_topic is None)  # fmt: skip


def computed_rows(selection: Selection, per_topic: bool) -> tuple[list[Row], list[RowTuple]]:
    """The rows the pass is asked for, and the same as the C part reads them: every row a
    family computes (not num_q; `plain_pass.row_tuples`), but relstring's without -q (it
    prints in per-topic rows only)."""
    rows = [row for row in selection.rows() if BY_NAME[row.family].compute is not None]
    kept = [(row, given) for row, given in zip(rows, row_tuples(selection), strict=True)
            if per_topic or row.family not in TEXT]  # fmt: skip
    return [row for row, _ in kept], [given for _, given in kept]


def evaluate_compiled(request: Request, selection: Selection, options: TrecOptions,
                      output: Lines) -> bool:  # fmt: skip
    """Evaluate through the whole-file pass, writing trec_eval's lines to `output`; False
    (nothing written) when the pass does not answer. Stop on what stops trec_eval."""
    if not eligible(request):
        return False
    rows, tuples = computed_rows(selection, request.per_topic)
    given = PlainOptions(
        level=options.level, version=options.version, num_docs=options.num_docs,
        max_docs=options.max_docs, judged_only=options.judged_only, complete=options.complete,
    )  # fmt: skip
    if compiled() is None:  # no C part: the same pass with numpy
        _reuse_freed_memory()
    opened = open_pass(request.qrels, request.results, tuples, given)
    if opened is None:
        return False
    loop = _Loop(request, selection, options, rows, output)
    try:
        for topic in opened:
            loop.take(topic)
    except PlainStop as stop:
        loop.flush()
        raise _stopped(request, stop) from None
    except Stop:
        loop.flush()
        raise
    loop.flush()
    loop.finish(opened.run_id)
    return True


def _reuse_freed_memory() -> None:
    """On glibc, freed blocks of up to 32 MiB stay in the heap for the next allocation instead
    of being mapped anew. The numpy pass makes and drops many temporaries of 0.1-4 MiB, and
    glibc maps each one above its threshold afresh, paying its page faults again (one call on
    a 3 MiB run: 14,800 minor faults instead of 10,000, 12-15 ms of 190). It is a setting of the
    whole process, made here and nowhere else: `focal trec_eval`'s process ends after the call."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # (numpy imports it anyway)

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # (not glibc, or no mallopt)
        return
    mallopt(_M_MMAP_THRESHOLD, 32 << 20)  # (glibc's largest on 64 bits)
    mallopt(_M_TRIM_THRESHOLD, 256 << 20)


def _stopped(request: Request, stop: PlainStop) -> Stop:
    """trec_eval's stop at a duplicate (exit 4), a file that changed under the pass or a
    topic index that could not be written to a temporary file (2)."""
    if stop.reason == "judged twice":
        return Stop(judged_twice(request.qrels, stop.document, stop.topic), 4)
    if stop.reason == "appears twice":
        return Stop(retrieved_twice(request.results, stop.document, stop.topic), 4)
    if stop.reason == "no temporary file":  # (the pass's topic index of many topics; why)
        why = stop.document
        return Stop(f"trec_eval: cannot write the topic index to a temporary file: {why}", 2)
    return Stop(f"trec_eval: {request.qrels} or {request.results} changed while it was read "
                "(evaluate files that stay as they are)", 2)  # fmt: skip


class _Loop:
    """trec_eval's loop over the topics the pass gives: checks, resets, sums, -q rows."""

    def __init__(self, request: Request, selection: Selection, options: TrecOptions,
                 rows: list[Row], output: Lines) -> None:  # fmt: skip
        self.request, self.selection, self.options, self.output = (
            request,
            selection,
            options,
            output,
        )
        at = {row.name: i for i, row in enumerate(rows)}
        self.shown = topic_rows(selection) if request.per_topic else []
        self.names = row_names(self.shown)
        shown_at = [at[row.name] for row in self.shown]  # (a topic's values of them: `_pick`)
        self._pick: Callable[[Sequence[Value]], Sequence[Value]] = (
            itemgetter(*shown_at) if len(shown_at) > 1 else lambda values: (values[shown_at[0]],)
        )
        self.totals = Totals(selection)
        self.summed_at = [at[name] for name in self.totals.names]
        reset = reset_when_missing(selection).items()
        self.reset = [(at[name], value) for name, value in reset if name in at]
        self.topics: list[str] = []  # the block of topics whose -q rows are not written yet
        self.values: list[Sequence[Value]] = []
        self.evaluated = self.answered = self.qrels_topics = self.positive = 0

    def take(self, topic: PlainTopic) -> None:
        options = self.options
        self.qrels_topics += 1
        self.positive += topic.positive
        if topic.values is None:  # not answered, not evaluated
            if options.version == 10 and not options.complete:
                raise Stop(missing_topic(topic.topic), 4)
            return  # (9.x skips it; with -c it counts in the divisor)
        if self.evaluated == 0 and topic.judged == 0:
            stop = only_negative(self.selection, topic.topic)
            if stop is not None:
                raise stop
        values: Sequence[Value] = topic.values
        if topic.answered:
            self.answered += 1
        elif self.reset:  # 10.0 -c: the stand-in ranking's leftovers cleaned up
            reset = list(values)
            for i, value in self.reset:
                reset[i] = value
            values = reset
        self.evaluated += 1
        self.totals.add([values[i] for i in self.summed_at])
        if self.shown:
            self.topics.append(topic.topic)
            self.values.append(values)
            if len(self.topics) >= BLOCK:
                self.flush()

    def flush(self) -> None:
        """The -q rows of the topics taken since the last flush."""
        if self.topics:
            picked = map(self._pick, self.values)
            self.output.write(block_lines(self.shown, self.names, self.topics, picked))
            self.topics, self.values = [], []

    def finish(self, run_id: str) -> None:
        """The `all` rows (unless -n); Stop when no topic was evaluated."""
        if self.evaluated == 0:
            raise Stop("trec_eval: No queries with both results and relevance info", 7)
        if self.request.summary:
            summary = averages(self.totals, self.selection, self.options, self.evaluated,
                               self.answered, self.qrels_topics, self.positive)  # fmt: skip
            self.output.write(summary_lines(self.selection, run_id, summary))
