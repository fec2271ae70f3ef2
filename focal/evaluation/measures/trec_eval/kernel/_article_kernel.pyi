"""Types of the article engine's C part (_article_kernel.c): plain TREC files read, pairs found."""

from collections.abc import Sequence
from typing import Any

# numpy arrays and pyarrow buffers (the buffer protocol; numpy's stubs do not say so on 3.11)
Buffer = Any

def index_pairs(
    codes: Buffer, offsets: Buffer, bytes: Buffer, bases: Buffer, slots: Buffer, weak: bool = ...
) -> bool: ...
def find_pairs(
    columns: Sequence[tuple[Buffer, Buffer]],
    codes: Buffer,
    bases: Buffer,
    slots: Buffer,
    judged_offsets: Buffer,
    judged_bytes: Buffer,
    spans: Buffer,
    found: Buffer,
    weak: bool = ...,
    values: Buffer | None = ...,
    missing: int = ...,
    negative: int = ...,
) -> bool: ...
def parse_run(
    block: Buffer,
    final: bool,
    bases: Buffer,
    slots: Buffer,
    name_offsets: Buffer,
    name_bytes: Buffer,
) -> tuple[int, int, bytes, bytes, bytes, bytes, bytes | None] | None: ...
def parse_qrels(data: Buffer) -> tuple[int, bytes, list[bytes], bytes, bytes, bytes] | None: ...
def measure_topics(
    rows: Sequence[tuple[str, float | None, Sequence[float], Sequence[tuple[str, float]]]],
    level: int,
    version: int,
    num_docs: int,
    grades: Buffer,
    starts: Buffer,
    num_rel: Buffer,
    num_nonrel: Buffer,
    per_grade: Sequence[Buffer],
) -> list[tuple[float | str, ...]] | None: ...
def evaluate_block(
    qrels: Buffer,
    run: Buffer,
    rows: Sequence[tuple[str, float | None, tuple[float, ...], tuple[tuple[str, float], ...]]],
    level: int,
    version: int,
    num_docs: int,
    max_docs: int,
    judged_only: bool,
    stand_in: bool,
    ranking_only: bool = ...,
) -> (
    tuple[
        list[tuple[bytes, bool, Any, int, int, tuple[str, bytes] | None]], list[bytes], bytes | None
    ]
    | None
): ...
def index_groups(
    chunk: Buffer, fields: int, final: bool, base: int, id_base: int, previous: bytes | None
) -> tuple[int, bytes, bytes, bytes, bytes | None] | None: ...
def join_groups(
    qrels_ids: Buffer, qrels_id_ends: Buffer, run_ids: Buffer, run_id_ends: Buffer
) -> tuple[bytes, bytes, list[bytes], bool]: ...
def sort_groups(ids: Buffer, id_ends: Buffer, starts: Buffer, end: int) -> bytes: ...
def merge_join(
    qrels_runs: list[tuple[Buffer, bool]],
    run_runs: list[tuple[Buffer, bool]],
    qrels_last: bytes | None,
    run_last: bytes | None,
) -> tuple[bytes, list[bytes], list[int], list[int], bool, bytes | None, bytes | None]: ...
