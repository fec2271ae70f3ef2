"""The rule of each operation, applied to one judgement in memory (no database, no Flask).

`focal.assessor.judging.persist` reads the judgement, calls `change`, and writes the result; the
rules themselves are listed in `focal.assessor.judging.judgements`'s docstring and in docs/api.md.
`change` raises before it changes anything, so a refused operation leaves the draft as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from focal.assessor.judging.operations import Conflict, InvalidOperation, Operation
from focal.assessor.judging.spans import Span, add_span, normalise, remove_span
from focal.assessor.store import texts
from focal.assessor.store.models import Document


@dataclass(slots=True)
class Draft:
    """The judgement an operation changes, as read (id None: not judged before)."""

    id: int | None
    status: str
    passages: list[list[int]]
    bep: int | None
    finished: bool
    version: int


def change(
    judgement: Draft,
    operation: Operation,
    document: Document,
    text_of: Callable[[Document], str],
    *,
    across_punctuation: bool = True,
) -> None:
    """Apply the operation's rule to `judgement` in memory (raises before changing anything).

    Passages are merged with the article's text when the server has it: ends trimmed of
    whitespace, and, with `across_punctuation` (the campaign's setting), gaps of whitespace and
    punctuation closed (`focal.evaluation.formats.records.merge_passages`).
    """
    passages: list[Span] = [(start, end) for start, end in judgement.passages]
    if operation.op in ("highlight", "unhighlight"):
        start, end = _checked_span(operation, document, text_of)
        text = _text_or_none(document, text_of)
        if operation.op == "highlight":
            if text is not None and not text[start:end].strip():
                raise InvalidOperation("the selection holds only whitespace: nothing to highlight")
            passages = add_span(passages, start, end, text, across_punctuation=across_punctuation)
            judgement.status = "relevant"
        else:
            passages = remove_span(
                passages, start, end, text, across_punctuation=across_punctuation
            )
            if not passages:
                judgement.status, judgement.bep = "unjudged", None
        judgement.passages = [[s, e] for s, e in passages]
        judgement.finished = False
    elif operation.op == "set_bep":
        offset = operation.offset
        if offset is None or not 0 <= offset < document.text_length:
            raise InvalidOperation(f"offset must be in [0, {document.text_length})")
        if judgement.status != "relevant":
            raise InvalidOperation("a best entry point needs a relevant article: highlight first")
        judgement.bep = offset
    elif operation.op == "mark_nonrelevant":
        judgement.status, judgement.passages, judgement.bep = "nonrelevant", [], None
        judgement.finished = True
    elif operation.op == "restore":
        _restore(judgement, operation, document, text_of)
    else:  # finish
        if judgement.status == "unjudged":
            raise InvalidOperation("nothing to finish: highlight a passage or mark not relevant")
        if judgement.status == "relevant" and judgement.bep is None:
            judgement.bep = passages[0][0]
        judgement.finished = True


def _restore(
    judgement: Draft,
    operation: Operation,
    document: Document,
    text_of: Callable[[Document], str],
) -> None:
    """Undo: the judgement becomes exactly the state sent, if it is one the other rules allow.

    The states the operations can reach: unjudged has no passage, no BEP and is not finished;
    not relevant has no passage and no BEP and is finished; relevant has passages (merged by
    ATOM here) and a BEP or none. Each passage's `exacts` text is checked against the server's
    text; an article known only by id and length has none to check, so only ranges are.
    """
    status, finished, bep = operation.status, operation.finished, operation.bep
    requested = operation.passages or ()
    for start, end in requested:
        if not 0 <= start < end <= document.text_length:
            raise InvalidOperation(
                f"passages must satisfy 0 <= start < end <= {document.text_length}"
            )
    if document.has_text and requested:
        if operation.exacts is None:
            raise InvalidOperation("restore needs `exacts`, the text of each passage")
        text = text_of(document)
        for (start, end), exact in zip(requested, operation.exacts, strict=True):
            _check_exact(text, start, end, exact)
    passages = normalise(requested)
    if status == "relevant" and not passages:
        raise InvalidOperation("a relevant judgement needs at least one passage")
    if status != "relevant" and (passages or bep is not None):
        raise InvalidOperation(f"a {status} judgement has no passages and no best entry point")
    if bep is not None and not 0 <= bep < document.text_length:
        raise InvalidOperation(f"bep must be in [0, {document.text_length})")
    if status == "unjudged" and finished:
        raise InvalidOperation("an unjudged article cannot be finished")
    if status == "nonrelevant" and not finished:
        raise InvalidOperation("a not relevant judgement is always finished")
    judgement.status = status or judgement.status
    judgement.passages = [[s, e] for s, e in passages]
    judgement.bep = bep
    judgement.finished = bool(finished)


def _text_or_none(document: Document, text_of: Callable[[Document], str]) -> str | None:
    """The article's text, or None for an article known only by id and length."""
    if not document.has_text:
        return None
    try:
        return text_of(document)
    except texts.MissingTextError as error:
        raise Conflict(str(error), "text_missing") from error


def _checked_span(
    operation: Operation, document: Document, text_of: Callable[[Document], str]
) -> Span:
    start, end = operation.start, operation.end
    if start is None or end is None or not 0 <= start < end <= document.text_length:
        raise InvalidOperation(
            f"start and end must satisfy 0 <= start < end <= {document.text_length}"
        )
    if operation.op == "highlight" and operation.exact is None:
        raise InvalidOperation("highlight needs `exact`, the selected text")
    if operation.exact is not None:
        try:
            text = text_of(document)
        except texts.MissingTextError as error:
            raise Conflict(str(error), "text_missing") from error
        _check_exact(text, start, end, operation.exact)
    return start, end


def _check_exact(text: str, start: int, end: int, exact: str) -> None:
    actual = text[start:end]
    if actual != exact:
        raise Conflict(
            f"exact does not match the text at [{start}, {end}): "
            f"the server has {actual[:40]!r}, the client sent {exact[:40]!r}",
            "exact_mismatch",
        )
