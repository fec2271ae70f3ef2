"""How fast element relevance is derived for a large document (Hamlet, thousands of elements).

An interactive page derives specificity/exhaustivity on every request, so it must take well under
100 ms. Prints absolute times (for orientation) and the ratio against a plain Python per-element
loop measured in the same run (machines are shared and noisy).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from focal.evaluation.formats.records import merge_passages
from focal.evaluation.relevance.derivation import derive
from focal.evaluation.text.document import Document

HAMLET = Path(__file__).resolve().parents[2] / "shared/data/collections/shakespeare/hamlet.xml"


def slow_rsize(document: Document, passages: list[tuple[int, int]]) -> list[int]:
    merged = merge_passages(passages)
    return [
        sum(max(0, min(e.end, end) - max(e.start, start)) for start, end in merged)
        for e in document.elements
    ]


def best_of(repeats: int, action: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - began)
    return best


def main() -> int:
    if not HAMLET.exists():
        print(f"skipped: {HAMLET} is absent")
        return 0
    began = time.perf_counter()
    document = Document.from_file(HAMLET)
    load = time.perf_counter() - began
    rng = random.Random(6)
    length = len(document.text)
    passages = []
    for _ in range(200):
        start = rng.randrange(length)
        passages.append((start, min(length, start + rng.randrange(1, 3000))))
    fast = best_of(20, lambda: derive(document.elements, passages).specificity)
    rows = best_of(5, lambda: list(derive(document.elements, passages).rows()))
    slow = best_of(3, lambda: slow_rsize(document, passages))
    assert derive(document.elements, passages).rsize.tolist() == slow_rsize(document, passages)
    print(f"hamlet: {len(document.elements)} elements, {length} characters, 200 passages")
    print(f"  parse + element table (once per document): {load * 1000:8.1f} ms")
    print(f"  derive (numpy arrays):                     {fast * 1000:8.2f} ms")
    print(f"  derive + one record per element:           {rows * 1000:8.2f} ms")
    print(f"  plain Python loop (oracle):                {slow * 1000:8.1f} ms")
    print(f"  ratio loop / numpy:                        {slow / fast:8.1f}x")
    if rows > 0.1:
        print("FAIL: deriving Hamlet took more than 100 ms")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
