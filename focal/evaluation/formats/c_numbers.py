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

_SPACE = " \t\n\v\f\r"  # C's isspace in the C locale
_ATOL = re.compile(r"([+-]?\d+)")
_ATOF = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)")
_HEX = re.compile(r"([+-]?)0[xX]((?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?)")
_WORD = re.compile(r"([+-]?)(infinity|inf|nan)", re.IGNORECASE)
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1  # C's long on the 64-bit systems trec_eval runs on


def c_atol(text: str) -> int:
    """C's `atol` (glibc's `strtol`): the leading integer after white space, 0 when there is
    none, held to a 64-bit long (a longer number reads as the nearest end of its range).

    >>> c_atol("23.4"), c_atol("x"), c_atol(" -7b"), c_atol("9" * 30) == LONG_MAX
    (23, 0, -7, True)
    """
    match = _ATOL.match(text.lstrip(_SPACE))
    return min(max(int(match[1]), LONG_MIN), LONG_MAX) if match else 0


def c_atof(text: str) -> float:
    """C's `atof` (glibc's `strtod`): the leading number after white space, 0.0 when there is
    none: decimal with an exponent, hexadecimal (`0x1p-3`), `inf`, `infinity` and `nan` in any
    case; the rest of the text is ignored (`1_000` is 1, `0.1abc` 0.1).

    >>> c_atof(".25"), c_atof("2x"), c_atof(""), c_atof("0x1p-3"), c_atof("1_000")
    (0.25, 2.0, 0.0, 0.125, 1.0)
    """
    text = text.lstrip(_SPACE)
    hexadecimal = _HEX.match(text)
    if hexadecimal:
        value = float.fromhex(hexadecimal[2])
        return -value if hexadecimal[1] == "-" else value
    word = _WORD.match(text)
    if word:
        value = float(word[2])
        return -value if word[1] == "-" else value
    match = _ATOF.match(text)
    return float(match[0]) if match else 0.0  # (a huge exponent: inf, as strtod)


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
