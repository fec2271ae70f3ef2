"""The one grammar of measure names, and each vocabulary's reading of it.

Every name follows one grammar (`measures.grammar.split`: a base, ir_measures' `(rel=2)`, a
parameter after `@`, a curve `[x]`, or trec_eval's parameters after the first dot); `parse`
finds the declaration the name stands for in one vocabulary, with its parameters.

The vocabulary is explicit because one spelling may name two measures:
- `articles`: Focal's article measures on FOL qrels (MAP, P@k, nDCG(gain=fraction)@k, Rprec,
  bpref), the row named as typed; that nDCG's gain is the relevant fraction of the article
  (`articles.topic`), hence its own name.
- `trec`: trec_eval's families and sets, read by `trec_eval.names` (`parse_trec` for a `-m`
  list), with Focal's and ir_measures' spellings declared by each family; nDCG's gain is the
  qrels grade, so `nDCG@10` is `ndcg_cut.10` in every vocabulary and output format
  (`trec_eval.names.resolve` reads all spellings at once).
- `elements`: element measures (spec section 5): P@k, overlap@k, nxCG@k (`k` itself for the
  default cut-offs), inex_eval, inex_eval[x], inex_eval_ng, inex_eval_ng[x], MAep; a selection
  becomes its printed rows with their parameters (`element_selection`).

A name nobody declares is refused with the vocabulary's list and the close spellings
(`difflib`); a declared name that no engine computes is refused as such (`NotProvided`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from focal.evaluation.measures.elements.rows import ElementRow
from focal.evaluation.measures.grammar import VOCABULARIES, Request, Term, split
from focal.evaluation.measures.grammar import NotProvided as NotProvided
from focal.evaluation.measures.grammar import UnknownMeasure as UnknownMeasure
from focal.evaluation.measures.grammar import Vocabulary as Vocabulary
from focal.evaluation.measures.registry.declarations import ARTICLE_MEASURES, ELEMENT_MEASURES
from focal.evaluation.measures.trec_eval import names as trec_names
from focal.evaluation.measures.trec_eval.names import parse_trec as parse_trec

DEFAULTS: dict[Vocabulary, tuple[str, ...]] = {
    "articles": ("MAP", "P@5", "P@10", "nDCG(gain=fraction)@10", "Rprec", "bpref"),
    "trec": trec_names.DEFAULT,
    "elements": ("P@k", "overlap@k"),
}
_CUT = {"articles": re.compile(r"^\d+$"), "elements": re.compile(r"^(k|[1-9][0-9]*)$")}
_DECLARED = {
    "articles": {m.name: m for m in ARTICLE_MEASURES},
    "elements": {m.name: m for m in ELEMENT_MEASURES},
}
_UNKNOWN = {
    "articles": "unknown article measure {!r}: use MAP, P@k, nDCG(gain=fraction)@k, Rprec, bpref",
    "elements": "unknown element measure {!r}: P@k, overlap@k, nxCG@k (or one k: P@10), "
    "inex_eval, inex_eval[x], inex_eval_ng, inex_eval_ng[x], MAep",
}


def parse(text: str, vocabulary: Vocabulary) -> Request:
    """The declaration `text` names in `vocabulary`, with its parameters.

    >>> [parse(name, "trec").measure for name in ("map", "MAP", "AP")]
    ['map', 'map', 'map']
    >>> parse("nDCG@10", "trec").measure, parse("nDCG(gain=fraction)@10", "articles").measure
    ('ndcg_cut', 'nDCG(gain=fraction)@k')
    """
    if vocabulary == "trec":
        return trec_names.parse_name(text)
    if vocabulary not in _DECLARED:
        raise ValueError(f"unknown vocabulary {vocabulary!r}: one of {', '.join(VOCABULARIES)}")
    term = split(text)
    declared = _DECLARED[vocabulary]
    if term is not None and term.dotted is None:
        stem = term.base + _arguments(term)
        if term.arguments and f"{stem}@k" not in declared:
            raise UnknownMeasure(_unknown(text, vocabulary))
        if term.curve and term.at is None and term.base in declared and vocabulary == "elements":
            if term.base.startswith("inex_eval"):
                return Request(text, vocabulary, term.base, curve=True)
        elif term.at is not None and not term.curve and f"{stem}@k" in declared:
            if _CUT[vocabulary].match(term.at) and term.at.strip("0"):
                cut = None if term.at == "k" else (float(int(term.at)),)
                return Request(text, vocabulary, f"{stem}@k", cut)
        elif term.bare and term.base in declared:
            return Request(text, vocabulary, term.base)
    raise UnknownMeasure(_unknown(text, vocabulary))


def _arguments(term: Term) -> str:
    """ir_measures' arguments as a declared name spells them: `(gain=fraction)`."""
    if not term.arguments:
        return ""
    return "(" + ",".join(f"{key}={value}" for key, value in term.arguments) + ")"


def claims(text: str, vocabulary: Vocabulary) -> bool:
    """Whether `text` is meant in `vocabulary`: a declared name, or a declared `X@k` stem with
    something after the `@` (`P@0` is claimed by `articles`, then refused there).

    >>> claims("P@10", "articles"), claims("MAP", "articles"), claims("map", "articles")
    (True, True, False)
    """
    declared = _DECLARED[vocabulary]
    stems = tuple(name[: -len("k")] for name in declared if name.endswith("@k"))
    return text in declared or text.startswith(stems)


def element_selection(selection: Sequence[str]) -> list[ElementRow]:
    """The printed rows of an element selection, in its order, each once: `k` stands for the
    declared cut-offs, `[x]` for the declared recall levels.

    >>> [(r.name, r.measure, r.parameter) for r in element_selection(["P@10", "MAep"])]
    [('P@10', 'P@k', 10.0), ('MAep', 'MAep', None)]
    """
    out: dict[str, ElementRow] = {}
    for name in selection:
        request = parse(name, "elements")
        declared = _DECLARED["elements"][request.measure]
        if request.measure.endswith("@k"):
            stem = request.measure[: -len("@k")]
            for k in request.parameters or declared.defaults:
                row = ElementRow(f"{stem}@{int(k)}", request.measure, k)
                out.setdefault(row.name, row)
        elif request.curve:
            for level in declared.defaults:
                row = ElementRow(f"{request.measure}[{level:.2f}]", request.measure, level)
                out.setdefault(row.name, row)
        else:
            out.setdefault(request.measure, ElementRow(request.measure, request.measure))
    return list(out.values())


def element_rows(selection: Sequence[str]) -> list[str]:
    """The names of `element_selection`'s rows.

    >>> element_rows(["P@k", "MAep", "P@10"])[:3], element_rows(["nxCG@k"])
    (['P@5', 'P@10', 'P@20'], ['nxCG@5', 'nxCG@10', 'nxCG@25', 'nxCG@50'])
    """
    return [row.name for row in element_selection(selection)]


def _unknown(text: str, vocabulary: Vocabulary) -> str:
    """The refusal of an unknown name: the closest spellings first, then what the vocabulary
    knows."""
    close = difflib.get_close_matches(text, list(_DECLARED[vocabulary]), n=3, cutoff=0.6)
    named = f"{text!r} (closest: {', '.join(close)})" if close else repr(text)
    return _UNKNOWN[vocabulary].replace("{!r}", named)
