"""Arrow arrays to and from numpy and Python bytes, without pyarrow's pandas bridge.

pyarrow imports pandas, when it is installed, the first time it converts Python or numpy
values (`pa.array`, `pa.scalar`, `Array.to_numpy`): about a second of start-up that `focal eval`
does not need. These helpers build and read the buffers directly; they cover what the TREC
readers and the article evaluation use: binary arrays, and int64, float64 and boolean columns
without nulls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa


def binary_array(values: Sequence[bytes]) -> Any:
    """A pyarrow binary array of `values`.

    >>> binary_array([b"ab", b"", b"c"]).to_pylist()
    [b'ab', b'', b'c']
    """
    offsets = np.zeros(len(values) + 1, dtype=np.int64)
    np.cumsum([len(v) for v in values], out=offsets[1:])
    buffers = [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(values))]
    return pa.LargeBinaryArray.from_buffers(pa.large_binary(), len(values), buffers)


def numeric_array(values: npt.NDArray[Any]) -> Any:
    """A pyarrow int64 or float64 array sharing `values`' memory (no nulls)."""
    contiguous = np.ascontiguousarray(values)
    kind = pa.float64() if contiguous.dtype.kind == "f" else pa.int64()
    contiguous = contiguous.astype(np.float64 if kind == pa.float64() else np.int64, copy=False)
    return pa.Array.from_buffers(kind, len(contiguous), [None, pa.py_buffer(contiguous)])


def scalar(value: bytes | int) -> Any:
    """A pyarrow scalar (large binary or int64) for compute functions' arguments."""
    if isinstance(value, bytes):
        return binary_array([value])[0]
    return numeric_array(np.array([value], dtype=np.int64))[0]


_AS_IS: dict[str, type] = {"double": np.float64, "int32": np.int32, "int64": np.int64}


def to_numpy(array: Any) -> npt.NDArray[Any]:
    """An int64, float64 or boolean pyarrow array without nulls as numpy (booleans as bool).
    pyarrow.compute (30-60 ms to import) is loaded only for a type that needs a cast."""
    dtype: type = _AS_IS.get(str(array.type), np.int64)
    if str(array.type) not in _AS_IS:
        import pyarrow.compute as pc

        boolean = array.type == pa.bool_()
        dtype = np.int8 if boolean else np.int64
        array = pc.cast(array, pa.int8() if boolean else pa.int64())
    if array.null_count:
        raise ValueError("to_numpy: the array has nulls")
    data: npt.NDArray[Any] = np.frombuffer(array.buffers()[1], dtype=dtype)[
        array.offset : array.offset + len(array)
    ]
    return data.astype(bool) if dtype is np.int8 else data


def has_empty_binary(column: Any) -> bool:
    """Whether a binary column (an array or a chunked array, 32-bit offsets) holds an empty
    value: two equal offsets in a row, read from the offsets buffer (no pyarrow.compute)."""
    for chunk in getattr(column, "chunks", [column]):
        if len(chunk):
            offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int32)
            offsets = offsets[chunk.offset : chunk.offset + len(chunk) + 1]
            if bool((offsets[1:] == offsets[:-1]).any()):
                return True
    return False


def combined(array: Any) -> Any:
    """One Arrow array from an array or a chunked array (compute results on chunked input are
    chunked)."""
    return array.combine_chunks() if isinstance(array, pa.ChunkedArray) else array
