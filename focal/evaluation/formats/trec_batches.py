"""A TREC run read in batches of rows, for an evaluator that keeps its own columns.

`focal eval` turns each run into integer columns of its own (`GradeTable.prepare`). Reading the
whole file into Arrow columns first holds the run twice, and at 10,000 queries and more that
is most of the memory of a run in flight. Here pyarrow's streaming CSV reader hands the rows
over a few MiB at a time, and the caller converts each batch and lets it go. A small file (see
`columnar_source`) is read whole, on pyarrow's threads, and handed over in the same batches.

Only a plain file (single spaces, six fields a line, no `#` line, tab or carriage return; see
`trec.columnar_source`) is streamed; for any other, and for a file pyarrow refuses part way,
`stream_trec_run` says None and the caller reads the file with `trec.read_trec_run`, whose
line reader names the bad line. A batch already consumed is then simply thrown away.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pa_csv

from focal.evaluation.formats.source import columnar_source
from focal.evaluation.formats.trec import (
    CSV_PARSE,
    RUN_COLUMNS,
    SPECIAL,
    arrow_table,
    converting,
    has_empty_field,
    text_field,
)

BATCH_BYTES = 4 << 20  # bytes of the file a batch holds


def stream_trec_run(path: str | Path, consume: Callable[[pa.RecordBatch], None]) -> str | None:
    """Give every batch of a plain TREC run to `consume`, in file order, and return the run id
    of the last line (trec_eval keeps the last line's); None when the file is not plain or
    pyarrow refuses it (nothing can be said of the batches consumed: start again)."""
    source = columnar_source(path, SPECIAL)
    if source is None:
        return None
    types = {"score": pa.float64()}
    try:
        if isinstance(source, bytes):  # a small file: read whole, its blocks on pyarrow's threads
            table = arrow_table(source, RUN_COLUMNS, types)
            if table is None:
                return None
            batches: Iterable[pa.RecordBatch] = table.to_batches()
        else:
            options = pa_csv.ReadOptions(
                column_names=list(RUN_COLUMNS), use_threads=False, block_size=BATCH_BYTES
            )
            batches = pa_csv.open_csv(source, read_options=options, parse_options=CSV_PARSE,
                                      convert_options=converting(RUN_COLUMNS, types))  # fmt: skip
        last, count = None, 0
        for batch in batches:
            if has_empty_field(batch.columns):
                return None
            consume(batch)
            if batch.num_rows:
                last, count = batch, count + batch.num_rows
    except pa.ArrowException:
        return None
    if last is None:
        return None
    return text_field(last.column(RUN_COLUMNS.index("run"))[-1].as_py(), str(path), count,
                      "run id")  # fmt: skip
