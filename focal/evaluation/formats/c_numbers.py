"""trec_eval's readers of numbers in measure parameters and judgement files: C's `atol` and
`atof`, and `get_param_pairs`' `name=value` lists.

trec_eval reads `-m P.23.4` as P at 23 and a preference level `2x` as 2.0 (C's lenient readers
stop at the first character that is not part of a number); reproducing its output needs the same
readings. They live with the readers of files, below everything that reads a number as trec_eval
does: the judgement readers (`formats.trec_eval_inputs`), trec_eval's names
(`measures.trec_eval.names`, which reads `-m` parameters through them) and `focal trec_eval`'s
options (`cli.trec_eval.command`).
"""

from __future__ import annotations

import re

_ATOL = re.compile(r"\s*([+-]?\d+)")
_ATOF = re.compile(r"\s*([+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?))")


def c_atol(text: str) -> int:
    """C's `atol`: the leading integer, 0 when there is none.

    >>> c_atol("23.4"), c_atol("x"), c_atol(" -7b")
    (23, 0, -7)
    """
    match = _ATOL.match(text)
    return int(match[1]) if match else 0


def c_atof(text: str) -> float:
    """C's `atof`: the leading number, 0.0 when there is none.

    >>> c_atof(".25"), c_atof("2x"), c_atof("")
    (0.25, 2.0, 0.0)
    """
    match = _ATOF.match(text)
    return float(match[1]) if match else 0.0


def c_pairs(params: str) -> list[tuple[str, float]]:
    """`name=value,...` as trec_eval's `get_param_pairs` reads it: refused unless `=` and `,`
    alternate, starting with a name; values with `atof`.

    >>> c_pairs("1=3,2=9,4=4.5")
    [('1', 3.0), ('2', 9.0), ('4', 4.5)]
    """
    last = ","
    for char in params:
        if char in ",=":
            if char == last:
                last = ","
                break
            last = char
    if last != "=":
        raise ValueError(f"malformed pair parameters in {params!r} (expected name=value,...)")
    pairs = []
    for item in params.split(","):
        key, _, value = item.partition("=")
        pairs.append((key, c_atof(value)))
    return pairs
