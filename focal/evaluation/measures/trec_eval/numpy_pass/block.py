"""A block of topics evaluated with numpy, from the bytes of their qrels and run lines, as the C
pass evaluates them (kernel/_kernel_topics.c; docs/trec_eval.md, "The C part").

Per qrels topic of the block, in its id's byte order: the run's lines ranked as trec_eval ranks
them (score descending, then document id descending in byte order; 9.0.x compares scores as C
floats), cut to -M; each given its grade (NONPOOL outside the qrels, UNJUDGED for a negative
grade), then with -J only the judged ones; the judged counts at the level and per grade, the
ideal DCG; every row by the numpy families (`rows.topic_rows`). The first topic evaluated where
trec_eval stops ends the block: its qrels judge a document twice (the one whose first mention
comes last), or a document comes twice among its first -M ranked lines (the one ranked first).
A topic the run does not answer is evaluated only with `stand_in` (10.0 with -c), as trec_eval's
ranking of one document outside the pool (none with -J).

(topic, document) pairs are found with one sort: each line's pair hashed to 64 bits, the qrels'
lines and the run's sorted together (stably: the qrels line of a pair comes first), and every
pair of neighbours with equal hashes confirmed on the topic and the words of the id; on a
collision the lines are sorted on the words themselves instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np

from focal.evaluation.measures.trec_eval.engine.plain_pass import PlainOptions, PlainTopic, RowTuple
from focal.evaluation.measures.trec_eval.families.ideal import running_sums
from focal.evaluation.measures.trec_eval.families.measure import NONPOOL, UNJUDGED, Ranked
from focal.evaluation.measures.trec_eval.numpy_pass import fields
from focal.evaluation.measures.trec_eval.numpy_pass.rows import Asked, topic_rows
from focal.evaluation.measures.trec_eval.numpy_pass.topics import Lines, TopicCounts, counted

if TYPE_CHECKING:
    import numpy.typing as npt

    from focal.evaluation.measures.trec_eval.numpy_pass.fields import Columns, Floats, Ints, Words

Reason = Literal["judged twice", "appears twice"]
_GOLDEN, _MIX = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9)


class Stop:
    """Where trec_eval stops in the block: the topic, why, and the document named."""

    __slots__ = ("document", "reason", "topic")

    def __init__(self, topic: bytes, reason: Reason, document: bytes) -> None:
        self.topic, self.reason, self.document = topic, reason, document


def _hashed(codes: Ints, words: Columns) -> Words:
    """Each line's (topic code, id) as a 64-bit number: equal pairs give equal numbers, others
    equal ones with odds near 2^-64 (a multiply spreads each bit over the bits above it, a shift
    brings them back down; the constants: the golden ratio's and splitmix64's odd multipliers).
    A hash routes, never decides (`_paired` confirms every match on the words)."""
    h = (codes.astype(np.uint64) + np.uint64(1)) * _GOLDEN
    for word in words:
        h ^= word
        h *= _MIX
        h ^= h >> np.uint64(29)
    h *= _GOLDEN
    h ^= h >> np.uint64(32)
    return h


def _paired(codes: Ints, words: Columns) -> tuple[Ints, Ints]:
    """The lines sorted by (topic code, id), equal pairs together in line order; and each
    sorted line's pair number (0, 1, ...). Sorted by hash, each line's number in the hash's low
    bits (a sort of values: numpy's fastest), so that equal hashes keep the lines' order."""
    count = len(codes)
    bits = np.uint64(max(1, count.bit_length()))
    low = (np.uint64(1) << bits) - np.uint64(1)
    keys = np.sort((_hashed(codes, words) & ~low) | np.arange(count, dtype=np.uint64))
    order = (keys & low).astype(np.int64)
    high = keys >> bits
    candidates = np.flatnonzero(high[1:] == high[:-1])
    same = np.zeros(max(count - 1, 0), dtype=bool)
    a, b = order[candidates], order[candidates + 1]
    same[candidates] = codes[a] == codes[b]
    same[candidates] &= fields.same_rows(fields.take(words, a), fields.take(words, b))
    if not np.all(same[candidates]):  # a collision: sort on the words themselves
        order = np.lexsort([*words[::-1], codes]).astype(np.int64)
        a, b = order[:-1], order[1:]
        same = (codes[a] == codes[b]) & fields.same_rows(fields.take(words, a),
                                                         fields.take(words, b))  # fmt: skip
    pair = np.zeros(count, dtype=np.int64)
    pair[1:] = np.cumsum(~same)
    return order, pair


def _ranked_order(codes: Ints, keys: Floats, words: Columns) -> Ints:
    """The run lines in trec_eval's order: topic code, score descending, id descending. Runs
    come so in practice, topic after topic with scores falling: then only the lines of tied
    scores move (by id) and the topics' groups are put in code order; any other run is
    sorted whole."""
    n = len(codes)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    same_topic = codes[1:] == codes[:-1]
    starts = np.flatnonzero(np.concatenate(([True], ~same_topic)))
    groups = codes[starts]
    in_order = np.sort(groups)  # (not np.unique: it imports numpy.ma, 10 ms a call)
    if np.any(in_order[1:] == in_order[:-1]) or np.any(same_topic & ~(keys[1:] <= keys[:-1])):
        columns = [~word.byteswap() for word in words[::-1]]  # (the ids' byte order)
        return np.lexsort([*columns, -keys, codes]).astype(np.int64)
    order = np.arange(n, dtype=np.int64)
    tie = same_topic & (keys[1:] == keys[:-1])
    if np.any(tie):  # each run of tied lines by id, descending
        member = np.zeros(n, dtype=bool)
        member[:-1] |= tie
        member[1:] |= tie
        opens = member & ~np.concatenate(([False], tie))
        rows = np.flatnonzero(member)
        group = np.cumsum(opens[rows])
        columns = [~word[rows].byteswap() for word in words[::-1]]
        order[rows] = rows[np.lexsort([*columns, group])]
    if np.all(groups[1:] > groups[:-1]):
        return order
    sizes = np.diff(np.append(starts, n))
    by_code = np.argsort(groups, kind="stable")
    first = np.repeat(starts[by_code] - np.cumsum(sizes[by_code]) + sizes[by_code],
                      sizes[by_code])  # fmt: skip
    moved: Ints = order[first + np.arange(n)]
    return moved


def evaluate(
    qrels: Lines, run: Lines, topics: list[bytes], rows: Sequence[RowTuple],
    options: PlainOptions, asked: Asked,
) -> tuple[list[PlainTopic], Stop | None]:  # fmt: skip
    """The block's topics (`topics`, byte order; `qrels.codes` in [0, len(topics)), a run
    line's code -1 for a topic the qrels lack), evaluated up to where trec_eval stops. Each
    stage is a function of its own, so that its temporaries are freed before the next one and
    before the families run: the block's memory peaks lower (fewer pages touched a call)."""
    count = len(topics)
    counts: TopicCounts = counted(qrels.codes, qrels.values.astype(np.int64, copy=False), count,
                                  options.level)  # fmt: skip
    all_known = len(run.codes) == 0 or int(run.codes.min()) >= 0  # (a grouped block's run)
    known = slice(None) if all_known else np.flatnonzero(run.codes >= 0)
    r_codes = run.codes[known]
    answered = np.bincount(r_codes, minlength=count) > 0
    evaluated = answered | (options.complete and options.version == 10)  # (-c's stand-in)
    judged_twice, grade, ranks = _judged_and_ranked(qrels, run, known, count, options)
    end, stop = _stop(ranks, judged_twice, evaluated, topics, qrels, run, known)
    grades, grade_codes = _read_grades(ranks, grade, end, evaluated, answered, options)
    chosen_topics = np.flatnonzero(evaluated[:end])
    per_topic = np.bincount(grade_codes, minlength=count)[chosen_topics]
    values = topic_rows(_ranking(grades, per_topic, chosen_topics, counts), rows, asked,
                        options.level, options.version, options.num_docs)  # fmt: skip
    by_topic = dict(zip(chosen_topics.tolist(), values, strict=True))
    has_run, positive = answered[:end].tolist(), counts.positive[:end].tolist()
    judged_lines = counts.judged[:end].tolist()
    out = [PlainTopic(topics[t].decode(errors="replace"), has_run[t], by_topic.get(t),
                      positive[t], judged_lines[t])
           for t in range(end)]  # fmt: skip
    return out, stop


class _Ranks:
    """The run's lines of the block in trec_eval's order, cut to -M (`ranked`: line numbers
    among the known lines), each one's topic code and rank, whether it is its document's first
    mention, and per topic the rank of the first document that comes twice (int64's largest:
    none)."""

    __slots__ = ("appears_twice", "codes", "first_seen", "rank", "ranked")

    def __init__(self, ranked: Ints, codes: Ints, rank: Ints, first_seen: npt.NDArray[np.bool_],
                 appears_twice: Ints) -> None:  # fmt: skip
        self.ranked, self.codes, self.rank = ranked, codes, rank
        self.first_seen, self.appears_twice = first_seen, appears_twice


_NONE = np.iinfo(np.int64).max


def _judged_and_ranked(qrels: Lines, run: Lines, known: slice | Ints, count: int,
                       options: PlainOptions) -> tuple[Ints, Ints, _Ranks]:  # fmt: skip
    """Per topic the qrels line judged twice that trec_eval names (-1: none), each known run
    line's grade, and the run ranked (`_Ranks`)."""
    r_codes = run.codes[known]
    width = max(len(qrels.docs), len(run.docs), 1)
    r_words = _padded([column[known] for column in run.docs], width, len(r_codes))
    judged_twice, grade, r_pair = _judgements(qrels, r_codes, r_words, width, count)
    keys = run.values[known].astype(np.float64, copy=False)
    if options.version == 9:  # 9.0.x holds scores as C floats
        keys = keys.astype(np.float32).astype(np.float64)
    ranked = _ranked_order(r_codes, keys, r_words)
    del r_words, keys
    codes_ranked = r_codes[ranked]
    sizes = np.bincount(codes_ranked, minlength=count)
    starts = np.cumsum(sizes) - sizes
    rank = np.arange(len(ranked)) - starts[codes_ranked]
    if options.max_docs is not None:
        kept = rank < min(options.max_docs, 2**62)
        ranked, codes_ranked, rank = ranked[kept], codes_ranked[kept], rank[kept]
    # a document twice among the kept lines: the one ranked first
    pairs_ranked = r_pair[ranked]
    seen = np.bincount(pairs_ranked) if len(pairs_ranked) else np.zeros(0, dtype=np.int64)
    repeat = seen[pairs_ranked] >= 2
    appears_twice = np.full(count, _NONE, dtype=np.int64)  # its rank
    first_seen = np.ones(len(ranked), dtype=bool)
    if np.any(repeat):
        at = np.flatnonzero(repeat)
        np.minimum.at(appears_twice, codes_ranked[at], rank[at])
        first_seen[:] = False
        first_seen[np.unique(pairs_ranked, return_index=True)[1]] = True
    return judged_twice, grade, _Ranks(ranked, codes_ranked, rank, first_seen, appears_twice)


def _padded(docs: Columns, width: int, count: int) -> Columns:
    """Ids' words (`count` of them a column) in `width` columns: the words past the longest
    id's are zero, as they are past every id's end."""
    return docs + [np.zeros(count, dtype=np.uint64) for _ in range(width - len(docs))]


def _judgements(qrels: Lines, r_codes: Ints, r_words: Columns, width: int,
                count: int) -> tuple[Ints, Ints, Ints]:  # fmt: skip
    """The (topic, document) pairs of the qrels and the known run lines (`_paired`): per topic
    the qrels line judged twice that trec_eval names (-1: none), each run line's grade (its
    pair's first qrels line's; NONPOOL outside the qrels, UNJUDGED for a negative grade) and
    its pair number."""
    q_words = _padded(qrels.docs, width, len(qrels.codes))
    nq = len(qrels.codes)
    both = [np.concatenate(columns) for columns in zip(q_words, r_words, strict=True)]
    del q_words
    order, pair = _paired(np.concatenate((qrels.codes, r_codes)), both)
    del both
    is_q = order < nq
    if len(order):  # each sorted line's pair's first line
        opens = np.flatnonzero(np.concatenate(([True], pair[1:] != pair[:-1])))
        first = opens[pair]
    else:
        opens = first = np.zeros(0, dtype=np.int64)
    # qrels: a pair judged twice; its first mention (the pair's first line, in line order)
    q_in_pair = np.bincount(pair, weights=is_q, minlength=int(pair[-1]) + 1 if len(pair) else 0)
    twice_pairs = np.flatnonzero(q_in_pair >= 2)
    judged_twice = np.full(count, -1, dtype=np.int64)  # per topic: the qrels line named
    if len(twice_pairs):
        lines = order[opens[twice_pairs]]
        np.maximum.at(judged_twice, qrels.codes[lines], lines)
    # the run's lines: grade and pair number
    grade = np.full(len(r_codes), NONPOOL, dtype=np.int64)
    r_pair = np.zeros(len(r_codes), dtype=np.int64)
    run_at = np.flatnonzero(~is_q)
    r_lines = order[run_at] - nq
    r_pair[r_lines] = pair[run_at]
    judged_first = order[first[run_at]]
    from_qrels = judged_first < nq
    found = qrels.values[judged_first[from_qrels]].astype(np.int64)
    grade[r_lines[from_qrels]] = np.where(found < 0, UNJUDGED, found)
    return judged_twice, grade, r_pair


def _stop(ranks: _Ranks, judged_twice: Ints, evaluated: npt.NDArray[np.bool_],
          topics: list[bytes], qrels: Lines, run: Lines,
          known: slice | Ints) -> tuple[int, Stop | None]:  # fmt: skip
    """The first evaluated topic where trec_eval stops (`len(topics)`: none), and why."""
    count = len(topics)
    twice = ranks.appears_twice < _NONE
    stopping = evaluated & ((judged_twice >= 0) | twice)
    end = int(np.argmax(stopping)) if np.any(stopping) else count
    if end == count:
        return end, None
    if judged_twice[end] >= 0:
        return end, Stop(topics[end], "judged twice", qrels.doc(int(judged_twice[end])))
    i = np.flatnonzero((ranks.codes == end) & (ranks.rank == ranks.appears_twice[end]))[0]
    line = int(np.arange(len(run.codes))[known][ranks.ranked[i]])
    return end, Stop(topics[end], "appears twice", run.doc(line))


def _read_grades(ranks: _Ranks, grade: Ints, end: int, evaluated: npt.NDArray[np.bool_],
                 answered: npt.NDArray[np.bool_],
                 options: PlainOptions) -> tuple[Ints, Ints]:  # fmt: skip
    """The grades each evaluated topic before `end` reads, in rank order, and their topic
    codes (a stand-in topic's one NONPOOL document; -J: the judged ones only)."""
    chosen = (ranks.codes < end) & ranks.first_seen
    grades, grade_codes = grade[ranks.ranked[chosen]], ranks.codes[chosen]
    if options.judged_only:
        judged = grades >= 0
        grades, grade_codes = grades[judged], grade_codes[judged]
    filled = np.flatnonzero(evaluated[:end] & ~answered[:end])
    if len(filled) and not options.judged_only:
        grades = np.concatenate((grades, np.full(len(filled), NONPOOL, dtype=np.int64)))
        grade_codes = np.concatenate((grade_codes, filled))
        placed = np.argsort(grade_codes, kind="stable")
        grades, grade_codes = grades[placed], grade_codes[placed]
    return grades, grade_codes


def _ranking(grades: Ints, sizes: Ints, chosen: Ints, counts: TopicCounts) -> Ranked:
    terms, ideal_sizes = counts.ideal_terms(chosen)
    return Ranked(
        grades.astype(np.int64, copy=False),
        (np.cumsum(sizes) - sizes).astype(np.int64),
        counts.num_rel[chosen],
        counts.num_nonrel[chosen],
        running_sums(terms, ideal_sizes),
        counts.levels(chosen),
    )
