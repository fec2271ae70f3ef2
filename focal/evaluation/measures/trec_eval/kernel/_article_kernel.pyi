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
