"""Judgements as FOL qrels (spec section 2), for `focal export-qrels` and the organiser page.

Every judged article is exported: relevant ones with their best entry point and passages, not
relevant ones as `topic Q0 article 0 length`. A relevant judgement without a BEP gets the
suggested one (the start of its first passage). Unjudged articles are left out. A topic judged by
two assessors needs `assessor=` (one qrels line per topic and article).
"""

from __future__ import annotations

import io
import os
import tempfile
from collections import defaultdict
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from assessor.models import Assignment, Document, Judgement, User
from evaluation.formats.qrels import write_qrels
from evaluation.formats.records import Judgement as QrelsLine
from evaluation.formats.records import Qrels
from pooling.records import natural_key


class ExportError(ValueError):
    """An export that cannot be written as asked (e.g. two assessors for one topic)."""


def collect_qrels(session: Session, topic: str | None = None, assessor: str | None = None) -> Qrels:
    """The judged articles as qrels, topics and articles in natural order."""
    query = (
        select(Judgement, Assignment.topic_id, User.name, Document.text_length)
        .join(Assignment, Judgement.assignment_id == Assignment.id)
        .join(User, Assignment.user_id == User.id)
        .join(Document, Judgement.article == Document.id)
        .where(Judgement.status != "unjudged")
    )
    if topic is not None:
        query = query.where(Assignment.topic_id == topic)
    if assessor is not None:
        query = query.where(User.name == assessor)
    lines: dict[str, dict[str, QrelsLine]] = defaultdict(dict)
    assessors: dict[str, set[str]] = defaultdict(set)
    for judgement, topic_id, user_name, length in session.execute(query):
        assessors[topic_id].add(user_name)
        passages = tuple((start, end) for start, end in judgement.passages)
        relevant = judgement.status == "relevant" and bool(passages)
        bep = judgement.bep if judgement.bep is not None else (passages[0][0] if passages else None)
        lines[topic_id][judgement.article] = QrelsLine(
            topic=topic_id,
            article=judgement.article,
            rel_chars=sum(end - start for start, end in passages) if relevant else 0,
            article_chars=length,
            bep=bep if relevant else None,
            passages=passages if relevant else (),
            line=0,
        )
    for topic_id, names in assessors.items():
        if len(names) > 1:
            raise ExportError(
                f"topic {topic_id} was judged by {', '.join(sorted(names))}: "
                "choose one with --assessor"
            )
    return {
        topic_id: {
            article: lines[topic_id][article]
            for article in sorted(lines[topic_id], key=natural_key)
        }
        for topic_id in sorted(lines, key=natural_key)
    }


def qrels_text(qrels: Qrels) -> str:
    """The qrels as FOL text."""
    buffer = io.StringIO()
    write_qrels(qrels, buffer)
    return buffer.getvalue()


def write_atomically(path: str | Path, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same directory and a rename."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
