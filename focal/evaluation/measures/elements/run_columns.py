"""Element measures of a whole run at once, on columns (spec section 5): the same values as
`topic.evaluate_topic`, topic by topic, for P@k, overlap@k, inex_eval, nxCG@k and MAep.

Every (topic, article, path) becomes one integer (`codes.pack`: topic, article and path ids in
bit fields), so that nesting is worked out with numpy over the whole run: the ancestors of each
path are one row of a table built once per distinct path; the first occurrence of each element,
of any of its ancestors and of any of its descendants, come from sorting the codes. From those:
a result is *seen* (an ancestor-or-self earlier), *seen in part* (a descendant earlier), or has
an overlap partner (a nested result elsewhere in the list). XCG's gains then need Python only
for the results that lie on the path of an ideal element (the others gain 0), in rank order,
since each draws on what its ideal element has left (`xcg` module docstring).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from focal.evaluation.measures.elements import cutoffs, precall, xcg
from focal.evaluation.measures.elements.codes import Codes, RankedColumns, pack
from focal.evaluation.measures.elements.rows import (
    ElementRow,
    asks,
    cut_offs,
    put_curve,
    put_cut_offs,
)
from focal.evaluation.measures.elements.topic import PreparedTopic

_NONE = np.iinfo(np.int64).max  # "no such position"


@dataclass
class QrelsColumns:
    """The judgements of every topic under one quantisation, as sorted codes: element values,
    and, over the tree of judged elements and their ancestors, each node's ideal owner (global
    index of its ideal ancestor-or-self, -1 for none) and the ideal elements below it."""

    topics: dict[str, int]
    prepared: list[PreparedTopic]
    codes: NDArray[np.int64] = field(init=False)
    values: NDArray[np.float64] = field(init=False)
    tree: NDArray[np.int64] = field(init=False)
    owner: NDArray[np.int64] = field(init=False)
    under: dict[int, list[int]] = field(init=False)  # tree index -> global ideal indexes
    tree_values: list[float] = field(init=False)  # each tree node's value (0: not assessed)
    children: dict[int, list[tuple[int, float]]] = field(init=False)  # (child, weight)
    ideal: list[float] = field(init=False)  # every topic's ideal values, one after the other
    offsets: list[int] = field(init=False)  # where each topic's ideal values start

    def build(self, codes: Codes) -> QrelsColumns:
        """Fill the columns from the prepared topics, numbering their elements with `codes`."""
        judged: dict[int, float] = {}
        nodes: dict[int, tuple[int, list[int], float]] = {}  # owner, ideal below, value
        links: list[tuple[int, int, float]] = []  # parent code, child code, weight
        self.ideal, self.offsets = [], []
        for index, topic in enumerate(self.prepared):
            base = topic.base
            offset = len(self.ideal)
            self.offsets.append(offset)
            self.ideal.extend(base.ideal_values)
            keys = base.nodes  # the judged elements and their ancestors
            numbers = pack(
                np.int64(index),
                codes.many([k[0] for k in keys], paths=False),
                codes.many([k[1] for k in keys], paths=True),
            ).tolist()
            code_of = dict(zip(keys, numbers, strict=True))
            for key, value in topic.values.items():
                judged[code_of[key]] = value
            for key in keys:
                owner = base.owner.get(key)
                below = [offset + i for i in base.under.get(key, ())]
                owned = -1 if owner is None else offset + owner
                nodes[code_of[key]] = (owned, below, topic.values.get(key, 0.0))
            for key, children in base.children.items():
                parent = code_of[key]
                links.extend((parent, code_of[c], base.weight(key, c)) for c in children)
        order = sorted(judged)
        self.codes = np.array(order, dtype=np.int64)
        self.values = np.array([judged[c] for c in order], dtype=np.float64)
        tree = sorted(nodes)
        at = {code: i for i, code in enumerate(tree)}
        self.tree = np.array(tree, dtype=np.int64)
        self.owner = np.array([nodes[c][0] for c in tree], dtype=np.int64)
        self.under = {i: nodes[c][1] for i, c in enumerate(tree) if nodes[c][1]}
        self.tree_values = [nodes[c][2] for c in tree]
        self.children = {}
        for parent, child, weight in links:
            self.children.setdefault(at[parent], []).append((at[child], weight))
        return self


def _lookup(
    keys: NDArray[np.int64], table: NDArray[np.int64], values: NDArray[Any], missing: Any
) -> NDArray[Any]:
    """values[j] where table[j] == key, else `missing` (table sorted)."""
    if table.size == 0:
        return np.full(keys.shape, missing, dtype=values.dtype)
    at = np.minimum(np.searchsorted(table, keys), table.size - 1)
    return np.where(table[at] == keys, values[at], missing)


@dataclass
class _Nesting:
    """Where each result of a run stands among the others (module docstring), all topics at
    once: results in rank order, topic after topic; positions count from the run's first."""

    topic_of: NDArray[np.int64]  # each result's topic (index in `ranked.topics`)
    position: NDArray[np.int64]  # each result's own position
    keys: NDArray[np.int64]  # each result's (topic, article, path) code
    unique: NDArray[np.int64]  # the distinct codes, sorted ...
    first: NDArray[np.int64]  # ... and the position of each one's first occurrence
    seen: NDArray[np.bool_]  # an ancestor-or-self earlier
    above: NDArray[np.int64]  # first position of a strict ancestor
    below: NDArray[np.int64]  # first position of a strict descendant
    parents: NDArray[np.int64]  # the codes of every strict ancestor, sorted ...
    descendant_at: NDArray[np.int64]  # ... and the first position of a descendant of each


def evaluate_run(
    qrels: QrelsColumns,
    codes: Codes,
    ranked: RankedColumns,
    alpha: float,
    ties: precall.Ties,
    nonrel: precall.NonRelevance,
    wanted: Sequence[ElementRow],
) -> list[dict[str, float]]:
    """The rows `wanted` of each topic of `ranked`, in its order."""
    if not ranked.topics:
        return []
    nesting = _nesting(codes, ranked)
    x = _lookup(nesting.keys, qrels.codes, qrels.values, 0.0)
    starts = ranked.starts
    bases = [qrels.prepared[t] for t in ranked.topics]
    out: list[dict[str, float]] = [dict.fromkeys((r.name for r in wanted), 0.0) for _ in bases]
    if asks(wanted, "P@k"):  # each topic's own cumulative sum: the sums are the topic path's
        for t in range(len(bases)):
            gained = x[starts[t] : starts[t + 1]].tolist()
            found = cutoffs.precision_at(gained, cut_offs(wanted, "P@k"))
            put_cut_offs(out[t], wanted, "P@k", found)
    if asks(wanted, "overlap@k"):
        _put_overlap(out, wanted, nesting, starts)
    if asks(wanted, "inex_eval"):
        for t, prepared in enumerate(bases):
            a, b = starts[t], starts[t + 1]
            total = sum(prepared.values.values())
            gained, scored = x[a:b].tolist(), ranked.scores[a:b].tolist()
            curve = precall.precall_curve(gained, scored, total, ties, nonrel)
            put_curve(out[t], wanted, "inex_eval", curve)
    if asks(wanted, "nxCG@k") or asks(wanted, "MAep"):
        _put_xcg(out, wanted, bases, _xcg_gains(qrels, nesting, x, alpha), starts)
    return out


def _nesting(codes: Codes, ranked: RankedColumns) -> _Nesting:
    """Where the element of each result of `ranked`, its ancestors and its descendants first
    occur in the run (from sorting codes: module docstring)."""
    starts = ranked.starts
    topic_of = np.repeat(np.arange(len(ranked.topics)), np.diff(starts))
    topic_ids = np.array(ranked.topics, dtype=np.int64)[topic_of]
    articles, paths = ranked.articles, ranked.paths
    table, depths = codes.table()
    keys = pack(topic_ids, articles, paths)
    position = np.arange(int(starts[-1]), dtype=np.int64)
    unique, first = np.unique(keys, return_index=True)
    first = first.astype(np.int64)
    # ancestors-or-self by depth, and where each first occurs in the run
    chains = table[paths]
    valid = chains >= 0
    chain_keys = pack(topic_ids[:, None], articles[:, None], np.where(valid, chains, 0))
    occurs = np.where(valid, _lookup(chain_keys, unique, first, _NONE), _NONE)
    strict = valid & (np.arange(chains.shape[1]) < depths[paths][:, None])
    # the first occurrence of a strict descendant of each element (rows are in rank order)
    rows = np.nonzero(strict)[0]
    parents, earliest = np.unique(chain_keys[strict], return_index=True)
    descendant_at = rows[earliest].astype(np.int64)
    return _Nesting(
        topic_of, position, keys, unique, first,
        seen=occurs.min(axis=1, initial=_NONE) < position,
        above=np.where(strict, occurs, _NONE).min(axis=1, initial=_NONE),
        below=_lookup(keys, parents, descendant_at, _NONE),
        parents=parents, descendant_at=descendant_at,
    )  # fmt: skip


def _put_overlap(
    out: list[dict[str, float]], wanted: Sequence[ElementRow], nesting: _Nesting,
    starts: NDArray[np.int64],
) -> None:  # fmt: skip
    """overlap@k of each topic: the share of its first k results with a nested partner (an
    ancestor, a descendant or a copy) also among them."""
    topic_of, position = nesting.topic_of, nesting.position
    copies = _copies(nesting.keys, nesting.unique, nesting.first, position)
    partner = np.minimum(np.minimum(nesting.above, nesting.below), copies)
    rank = position - starts[topic_of]
    partner_rank = np.where(partner < _NONE, partner - starts[topic_of], _NONE)
    for row in wanted:
        if row.measure == "overlap@k" and row.parameter is not None:
            k = int(row.parameter)
            hits = np.bincount(topic_of[(rank < k) & (partner_rank < k)], minlength=len(out))
            for t, value in enumerate((hits / k).tolist()):
                out[t][row.name] = value


def _put_xcg(
    out: list[dict[str, float]], wanted: Sequence[ElementRow], bases: list[PreparedTopic],
    gains: NDArray[np.float64], starts: NDArray[np.int64],
) -> None:  # fmt: skip
    """nxCG@k and MAep of each topic, from the normalised `gains` of every result."""
    for t, prepared in enumerate(bases):
        ideal = prepared.base.ideal_values
        run = gains[starts[t] : starts[t + 1]].tolist()
        found = xcg.nxcg_at(run, ideal, cut_offs(wanted, "nxCG@k"))
        put_cut_offs(out[t], wanted, "nxCG@k", found)
        if asks(wanted, "MAep"):
            out[t]["MAep"] = xcg.maep(run, ideal)


def _copies(
    keys: NDArray[np.int64], unique: NDArray[np.int64], first: NDArray[np.int64],
    position: NDArray[np.int64],
) -> NDArray[np.int64]:  # fmt: skip
    """The first other occurrence of each result's own element (a repeat overlaps its copy)."""
    order = np.argsort(keys, kind="stable")
    opens = np.flatnonzero(np.concatenate(([True], keys[order][1:] != keys[order][:-1])))
    sizes = np.diff(np.concatenate((opens, [keys.size])))
    second = np.where(sizes > 1, order[np.minimum(opens + 1, keys.size - 1)], _NONE)
    group = np.searchsorted(unique, keys)
    return np.where(first[group] == position, second[group], first[group]).astype(np.int64)


def _xcg_gains(
    qrels: QrelsColumns, nesting: _Nesting, x: NDArray[np.float64], alpha: float
) -> NDArray[np.float64]:
    """The normalised gain of every result (`xcg.run_gains`, all topics at once), `x` its
    element's value."""
    keys, seen, below = nesting.keys, nesting.seen, nesting.below
    unique, first = nesting.unique, nesting.first
    parents, descendant_at = nesting.parents, nesting.descendant_at
    gains = np.zeros(keys.size)
    if qrels.tree.size == 0:
        return gains
    node = np.minimum(np.searchsorted(qrels.tree, keys), qrels.tree.size - 1)
    on_tree = qrels.tree[node] == keys
    owner = np.where(on_tree, qrels.owner[node], -1)
    under = qrels.under
    above_ideal = np.zeros(qrels.tree.size, dtype=bool)
    above_ideal[list(under)] = True
    candidates = np.flatnonzero(on_tree & ((owner >= 0) | above_ideal[node]))
    if candidates.size == 0:
        return gains
    left = list(qrels.ideal)
    kept = 1.0 - alpha
    children, values = qrels.children, qrels.tree_values
    occurs = _lookup(qrels.tree, unique, first, _NONE).tolist()  # first position of each node
    part = _lookup(qrels.tree, parents, descendant_at, _NONE).tolist()  # of a descendant

    def relevance(node: int, rank: int) -> float:
        # rv of a tree node none of whose ancestors was returned before `rank`
        if occurs[node] < rank:
            return kept * values[node]
        if part[node] < rank:
            parts = sum(w * relevance(child, rank) for child, w in children.get(node, ()))
            return alpha * parts + kept * values[node]
        return values[node]

    columns = (
        candidates.tolist(), owner[candidates].tolist(), node[candidates].tolist(),
        x[candidates].tolist(), seen[candidates].tolist(),
        (below[candidates] < candidates).tolist(),
    )  # fmt: skip
    paid = []
    for i, own, at, value, was_seen, in_part in zip(*columns, strict=True):
        if was_seen:
            gain = kept * value
        elif in_part and alpha > 0:
            parts = sum(w * relevance(child, i) for child, w in children.get(at, ()))
            gain = alpha * parts + kept * value
        else:
            gain = value
        if own < 0:
            own = max(under[at], key=lambda j: (left[j], -j))
        gain = min(gain, left[own])
        left[own] -= gain
        paid.append(gain)
    gains[candidates] = paid
    return gains
