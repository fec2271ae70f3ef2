"""Every reader, fed mutated copies of small valid files, either reads them or raises one
FormatError naming the file: never another exception, never a hang.

The seeds are small files of each format written here; the mutations are what careless users
and attackers send: flipped and inserted bytes, NaN and 10^30 numbers, over-long or empty ids,
control characters, truncation, deep nesting in XML.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.columns import read_run_columns
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.formats.fol.runs import read_run
from focal.evaluation.formats.inex.topics import read_topics

SEEDS: dict[str, bytes] = {
    "fol": b"1 Q0 a 1 2.5 r 0 10\n1 Q0 b 2 1.5 r 5 3\n2 Q0 a 1 1 r X 0\n",
    "element": b"1 Q0 a 1 2.5 r /article[1]/sec[2]\n1 Q0 b 2 1 r /article[1]\n",
    "article": b"1 Q0 a 1 2.5 r\n1 Q0 b 2 1.5 r\n",
    "submission": b'<inex-submission participant-id="1" run-id="r" task="Focused" '
    b'result-type="fol"><topic topic-id="1"><result><file>a</file><rank>1</rank>'
    b'<fol offset="0" length="5"/></result></topic></inex-submission>',
    "qrels": b"1 Q0 a 10 100 0 0:10\n1 Q0 b 0 50\n2 Q0 c 7 20 3 3:4 10:3\n",
    "topics": b'<?xml version="1.0"?><inex-topic-file><topic id="1" ct_no="3"><title>t</title>'
    b"<castitle>c</castitle><phrasetitle>p</phrasetitle><description>d</description>"
    b"<narrative>n</narrative></topic></inex-topic-file>",
    "inex_topic": b'<inex_topic topic_id="7" query_type="CO"><title>t</title>'
    b"<description>d</description><narrative>n</narrative></inex_topic>",
    "trec": b"<top>\n<num> Number: 301\n<title> t\n<desc> Description:\nd\n<narr> Narrative:\nn\n"
    b"</top>\n",
}
# 400 in `make test`; FOCAL_FUZZ_EXAMPLES=5000 for a longer hunt (passed when written).
EXAMPLES = int(os.environ.get("FOCAL_FUZZ_EXAMPLES", "400"))
HOSTILE = [
    b"nan",
    b"NaN",
    b"1" * 31,
    b"-1" * 3,
    b"x" * 300,
    b"\x00",
    b"\xff\xfe",
    b"\t",
    b"\r",
    b" ",
    b"\n",
    b"<",
    b"&amp;",
    b"&#0;",
    b"<!DOCTYPE a [<!ENTITY e SYSTEM 'file:///etc/passwd'>]>",
    b"[" * 50,
    b"<a>" * 300,
    b"inf",
    b"1e999",
    b":",
]


@st.composite
def mutated(draw: st.DrawFn, seed: bytes) -> bytes:
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["insert", "replace", "delete", "flip", "truncate"]))
        if kind == "insert":
            data[where:where] = draw(st.sampled_from(HOSTILE))
        elif kind == "replace" and data:
            end = min(len(data), where + draw(st.integers(1, 12)))
            data[where:end] = draw(st.sampled_from(HOSTILE))
        elif kind == "delete":
            del data[where : where + draw(st.integers(1, 12))]
        elif kind == "flip" and where < len(data):
            data[where] ^= 1 << draw(st.integers(0, 7))
        elif kind == "truncate":
            del data[where:]
    return bytes(data)


READERS: dict[str, list[Callable[[Path], Any]]] = {
    "fol": [read_run, read_run_columns],
    "element": [read_run, read_run_columns],
    "article": [read_run, read_run_columns],
    "submission": [read_run, read_run_columns],
    "qrels": [read_qrels],
    "topics": [read_topics],
    "inex_topic": [read_topics],
    "trec": [read_topics],
}


def _reads_or_refuses(path: Path, reader: Callable[[Path], Any]) -> None:
    try:
        reader(path)
    except FormatError as error:
        assert error.file == str(path)
        assert "\n" not in str(error)  # one line
        assert "Traceback" not in str(error)


@settings(
    max_examples=int(os.environ.get("FOCAL_FUZZ_EXAMPLES", "400")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_every_reader_reads_or_refuses_with_one_format_error(tmp_path: Path, data: Any) -> None:
    kind = data.draw(st.sampled_from(sorted(SEEDS)))
    content = data.draw(mutated(SEEDS[kind]))
    path = tmp_path / f"input.{kind}"
    path.write_bytes(content)
    for reader in READERS[kind]:
        _reads_or_refuses(path, reader)


def test_the_seeds_are_valid(tmp_path: Path) -> None:
    for kind, content in SEEDS.items():
        path = tmp_path / f"seed.{kind}"
        path.write_bytes(content)
        for reader in READERS[kind]:
            reader(path)  # no error: the mutations start from valid files


def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "run.xml"
    os.mkfifo(fifo)
    for reader in (read_run, read_run_columns, read_qrels, read_topics):
        try:
            reader(fifo)
        except FormatError as error:
            assert "not a regular file" in str(error) and str(fifo) in str(error)
        else:
            raise AssertionError(f"{reader.__name__} read a FIFO")
