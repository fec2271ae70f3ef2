"""How `focal trec_eval` stops: a message for stderr and trec_eval's exit code, with the `-q`
rows of the topics before the one it stops at (`trec_eval.c`; docs/trec_eval.md, "Control
flow"), and the messages of the stops at a topic, in one place for both of its paths (the
numpy engine's, `command`; the C part's whole-file pass, `compiled`). Imports no numpy.
"""

from __future__ import annotations

from focal.evaluation.measures.trec_eval.engine.summary import TrecEvaluation
from focal.evaluation.measures.trec_eval.families.declarations import Selection


class Stop(Exception):
    """trec_eval stopping: a message for stderr (may be empty) and its exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


class StopAfter(Stop):
    """trec_eval stopping at a topic after printing the `-q` rows of the topics before it."""

    def __init__(self, message: str, code: int, evaluation: TrecEvaluation,
                 selection: Selection, topic: str) -> None:  # fmt: skip
        super().__init__(message, code)
        self.evaluation, self.selection, self.topic = evaluation, selection, topic


def missing_topic(topic: str) -> str:
    """10.0 without -c, at a qrels topic the run does not answer (exit 4)."""
    return (f"trec_eval: result qid '{topic}' not found in qrels "
            "(no results for this qrels topic; -c scores it 0)")  # fmt: skip


def judged_twice(file: str, document: str, topic: str) -> str:
    """At a topic whose qrels judge a document twice (exit 4)."""
    return f"trec_eval: {file}: document {document!r} is judged twice in topic '{topic}' " \
        "(duplicate docs)"  # fmt: skip


def retrieved_twice(file: str, document: str, topic: str) -> str:
    """At a topic with a document twice among its first `-M` ranked results (exit 4)."""
    return f"trec_eval: {file}: document {document!r} appears twice in topic '{topic}' " \
        "(duplicate docs)"  # fmt: skip


def only_negative(selection: Selection, topic: str) -> Stop | None:
    """10.0 stops (exit 4) when the first topic it evaluates has only negative judgements: its
    table of grades is then empty, and the allocator returns no memory for an empty first
    request (`form_res_rels.c`, `utility_pool.c`); None when only num_q is asked for. Later
    such topics are evaluated (scoring 0)."""
    names = [row.family for row in selection.rows() if row.family != "num_q"]
    if not names:
        return None
    return Stop(f"trec_eval: Can't calculate measure '{names[0]}' (topic {topic} has only "
                "negative judgements)", 4)  # fmt: skip
