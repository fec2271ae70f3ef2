"""Speed of the text model on the shared articles (eLife JATS and Shakespeare).

Prints parse + element-table time (characters per second, all articles and Hamlet alone) and the
cost per call of the look-ups `span(path)`, `innermost(offset)` and `touching(start, end)`, each
with the ratio against a naive linear scan over the element table measured in the same run
(machines are shared and noisy: the ratios matter, the absolute times are for orientation).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from focal.evaluation.text.document import Document, Element, load_document

COLLECTIONS = Path(__file__).resolve().parents[2] / "shared/data/collections"


def best_of(repeats: int, action: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - began)
    return best


def naive_span(elements: Sequence[Element], path: str) -> tuple[int, int]:
    for element in elements:
        if element.path == path:
            return element.start, element.end
    raise KeyError(path)


def naive_innermost(elements: Sequence[Element], offset: int) -> Element | None:
    best = None
    for element in elements:
        if element.start <= offset < element.end and (best is None or element.depth > best.depth):
            best = element
    return best


def naive_touching(elements: Sequence[Element], start: int, end: int) -> list[Element]:
    return [e for e in elements if max(start, e.start) < min(end, e.end)]


def per_call(repeats: int, calls: Sequence[Callable[[], object]]) -> float:
    return best_of(repeats, lambda: [call() for call in calls]) / len(calls)


def report_look_ups(document: Document) -> None:
    rng = random.Random(2010)
    elements = document.elements
    length = len(document.text)
    paths = [rng.choice(elements).path for _ in range(300)]
    offsets = [rng.randrange(length) for _ in range(300)]
    passages = [(s, min(length, s + rng.randrange(1, 2000))) for s in offsets]
    rows = [
        (
            "span(path)",
            [lambda p=p: document.span(p) for p in paths],
            [lambda p=p: naive_span(elements, p) for p in paths],
        ),
        (
            "innermost(offset)",
            [lambda o=o: document.innermost(o) for o in offsets],
            [lambda o=o: naive_innermost(elements, o) for o in offsets],
        ),
        (
            "touching(start, end)",
            [lambda s=s, e=e: document.touching(s, e) for s, e in passages],
            [lambda s=s, e=e: naive_touching(elements, s, e) for s, e in passages],
        ),
    ]
    print(f"look-ups on {document.id} ({length} characters, {len(elements)} elements), per call:")
    for name, fast, naive in rows:
        fast_time, naive_time = per_call(5, fast), per_call(1, naive)
        print(
            f"  {name:22s} {fast_time * 1e6:9.2f} us   naive scan {naive_time * 1e6:10.1f} us"
            f"   ratio {naive_time / fast_time:8.0f}x"
        )


def main() -> int:
    if not COLLECTIONS.exists():
        print(f"skipped: {COLLECTIONS} is absent (put `shared` beside the repository)")
        return 0
    paths = sorted(COLLECTIONS.glob("*/*.xml"))
    load_document(paths[0])  # warm up imports and lxml
    documents = {}
    total_chars = 0
    total_time = 0.0
    for path in paths:
        elapsed = best_of(3, lambda path=path: documents.__setitem__(path, load_document(path)))
        total_chars += len(documents[path].text)
        total_time += elapsed
    hamlet_path = COLLECTIONS / "shakespeare" / "hamlet.xml"
    hamlet = documents[hamlet_path]
    hamlet_time = best_of(5, lambda: load_document(hamlet_path))
    print(f"parse + element table, {len(paths)} articles, {total_chars} characters:")
    rate, hamlet_rate = total_chars / total_time / 1e6, len(hamlet.text) / hamlet_time / 1e6
    print(f"  all articles {total_time * 1e3:8.1f} ms   {rate:6.2f} M chars/s")
    print(
        f"  hamlet       {hamlet_time * 1e3:8.1f} ms   {hamlet_rate:6.2f} M chars/s"
        f"   ({len(hamlet.text)} characters, {len(hamlet.elements)} elements)"
    )
    report_look_ups(hamlet)
    largest = max(documents.values(), key=lambda d: len(d.elements))
    report_look_ups(largest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
