"""Columns of tables read by pyarrow's CSV reader, as numpy arrays and bytes: the helpers the
columnar run readers share (`fol.arrow_table`, `elements.run_table`), with no Python object per
value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

# pyarrow's compute kernels through `call_function`, which `pyarrow.compute` re-exports: that
# module also builds a Python wrapper for each of the hundreds of kernels as it is imported
# (about 16 ms, a twentieth of `focal eval`'s serial part), and this reader needs five kernels.
# `pyarrow._compute` is where `pyarrow.compute` takes them from; should a release move them, the
# public module (slower to import, same functions) is used instead.
try:
    from pyarrow._compute import CastOptions, call_function
except ImportError:  # pragma: no cover - depends on the installed pyarrow
    from pyarrow.compute import CastOptions, call_function

__all__ = [
    "call_function", "cast_exact", "data_of", "dictionary_codes", "numbers_of", "single_chunk",
    "value_offsets",
]  # fmt: skip


def numbers_of(column: pa.ChunkedArray, dtype: type[np.generic]) -> npt.NDArray[Any]:
    """A number column read by pyarrow as one numpy array (no copy when in one chunk)."""
    array = single_chunk(column)
    values: npt.NDArray[Any] = np.frombuffer(array.buffers()[1], dtype)
    return values[array.offset : array.offset + len(array)]


def cast_exact(column: pa.Array, target: pa.DataType) -> pa.Array:
    """`pyarrow.compute.cast(column, target)`: raises unless every value converts exactly."""
    return call_function("cast", [column], CastOptions.safe(target))


def single_chunk(column: pa.ChunkedArray) -> pa.Array:
    """A column of a table read by pyarrow as one array."""
    return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()


def value_offsets(column: pa.Array) -> npt.NDArray[np.int32]:
    """Where each value of a binary column begins in its data buffer, and where the last ends."""
    offsets: npt.NDArray[np.int32] = np.frombuffer(column.buffers()[1], np.int32)
    return offsets[column.offset : column.offset + len(column) + 1]


def data_of(column: pa.Array) -> bytes:
    """The bytes of every value of a binary column, concatenated."""
    offsets = value_offsets(column)
    begin, end = int(offsets[0]), int(offsets[-1])
    data: bytes = column.buffers()[2].slice(begin, end - begin).to_pybytes()
    return data


def dictionary_codes(column: pa.Array) -> tuple[list[str], npt.NDArray[np.int32]]:
    """The distinct values of a binary column (ASCII) in first-seen order, and each row's
    index into them."""
    encoded = call_function("dictionary_encode", [column])
    names = cast_exact(encoded.dictionary, pa.large_string()).to_pylist()
    codes = np.frombuffer(encoded.indices.buffers()[1], np.int32)[: len(encoded)]
    return names, codes
