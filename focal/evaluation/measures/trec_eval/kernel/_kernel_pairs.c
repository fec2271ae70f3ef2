/* The qrels' per-topic tables and the look-up of a run's (topic code, document id) pairs.
 *
 * Each topic has its own open-addressing table, a power of two of slots at least twice its
 * judged documents, so a run written topic by topic probes one small region at a time. A slot
 * is 32 bits: its qrels row + 1 (0: empty) and, in the bits the rows leave, the top bits of the
 * document's hash (a tag; `row_bits`). A tag only routes a probe: every match is confirmed on
 * the bytes themselves, so a collision costs a probe, never a wrong grade. (Slots of 64 bits, a
 * 32-bit tag beside the row, took 41 MiB for 2 million judgements instead of 20: memory the
 * kernel must clear before the first run, and twice the cache lines a topic's look-ups read.)
 *
 * A run's repeated pairs: a judged pair is repeated when its qrels row is found twice (a bit per
 * qrels row); the others go into a small table per topic block while each topic's rows come in
 * one block (the usual layout), otherwise into one table over the whole run, keyed by the topic
 * code too.
 */
#include "_article_kernel.h"

/* The run's ids, over its columns (batches): the bytes of row r. */
typedef struct {
    Column *columns;
    Py_ssize_t count;
} Run;

static const uint8_t *row_bytes(const Run *run, Py_ssize_t r, int64_t *size) {
    Py_ssize_t low = 0, high = run->count - 1;
    while (low < high) { /* the last column whose first row is at most r */
        Py_ssize_t middle = (low + high + 1) / 2;
        if (run->columns[middle].first <= r)
            low = middle;
        else
            high = middle - 1;
    }
    const Column *c = &run->columns[low];
    int64_t at = offset_at(c, r - c->first);
    *size = offset_at(c, r - c->first + 1) - at;
    return c->bytes + at;
}

/* A set of the run's pairs: 0 empty, else tag << 32 | (row - first + 1). */
typedef struct {
    uint64_t *slots;
    uint64_t mask;
    Py_ssize_t first;
} Seen;

/* Whether row r's pair (hash h) is in the set already; else adds it. */
static int seen_before(Seen *seen, const Run *run, const int32_t *codes, Py_ssize_t r, uint64_t h,
                       const uint8_t *own, int64_t size) {
    uint64_t tag = h >> 32;
    for (uint64_t s = h & seen->mask;; s = (s + 1) & seen->mask) {
        uint64_t entry = seen->slots[s];
        if (entry == 0) {
            seen->slots[s] = (tag << 32) | (uint64_t)(r - seen->first + 1);
            return 0;
        }
        if (entry >> 32 == tag) {
            Py_ssize_t other = (Py_ssize_t)(entry & 0xFFFFFFFFULL) - 1 + seen->first;
            int64_t length;
            const uint8_t *theirs = row_bytes(run, other, &length);
            if (codes[other] == codes[r] && same_bytes(own, size, theirs, length))
                return 1;
        }
    }
}

/* A look-up reads three places, each found from the one before: the slot (where the hash says),
 * the judged row's offsets (where the slot says), its bytes (where the offsets say). A run is
 * written topic by topic, and a topic's slots, offsets and bytes are a few KiB each (the qrels
 * are written topic by topic too): so while one topic's rows are looked up, the next topic's
 * three regions are fetched into the cache, and its look-ups find them there. `spans[2t]`,
 * `spans[2t + 1]`: topic t's first judged row and the row after its last, when its rows are
 * together (else equal: its slots alone are fetched).
 *
 * They are fetched with loads, a byte of every line, not with prefetch hints: a hint may be
 * dropped (where its page's address translation is not cached, or the miss queue is full),
 * a load is not. On the 2-core AMD EPYC virtual machine of docs/performance.md, the look-ups
 * of 10,000 topics took 1.65 times as long as the same look-ups on tables small enough for the
 * cache with hints, 1.3 times with loads (medians of alternating calls on the same tables). */
static void fetch_topic(const Tables *t, const Column *judged, const int64_t *spans,
                        const int64_t *values, int32_t code) {
    if (code < 0 || code >= t->topics)
        return;
    fetch_region((const char *)(t->slots + t->bases[code]),
                 (const char *)(t->slots + t->bases[code + 1]));
    int64_t first = spans[2 * code], end = spans[2 * code + 1];
    if (first < 0 || first >= end || end > judged->rows) /* (checked before the call too) */
        return;
    int64_t size = judged->wide ? 8 : 4;
    fetch_region((const char *)judged->offsets + first * size,
                 (const char *)judged->offsets + (end + 1) * size);
    fetch_region((const char *)judged->bytes + offset_at(judged, first),
                 (const char *)judged->bytes + offset_at(judged, end));
    if (values != NULL)
        fetch_region((const char *)(values + first), (const char *)(values + end));
}

static uint64_t power_above(uint64_t n) {
    uint64_t p = 1;
    while (p < 2 * n)
        p <<= 1;
    return p;
}

/* Whether some topic's rows come in more than one block. */
static int topics_split(const int32_t *codes, Py_ssize_t rows) {
    int32_t largest = 0;
    for (Py_ssize_t r = 0; r < rows; r++)
        largest = codes[r] > largest ? codes[r] : largest;
    uint8_t *met = calloc((size_t)largest + 1, 1);
    if (met == NULL)
        return 1;
    int split = 0;
    for (Py_ssize_t r = 0; r < rows && !split; r++) {
        if (r == 0 || codes[r] != codes[r - 1]) {
            split = met[codes[r]];
            met[codes[r]] = 1;
        }
    }
    free(met);
    return split;
}

/* The look-up and repeat check, without the interpreter lock: 1 repeated, 0 not, -1 no memory. */
/* What a look-up writes for a row: the qrels row found (`values` NULL), or values[row] (a value
 * below 0 written as `negative`), `missing` where the pair is not judged. */
typedef struct {
    const int64_t *values;
    int64_t missing, negative;
} Answer;

static int look_up(const Run *run, const int32_t *codes, Py_ssize_t rows, const Tables *t,
                   const Column *judged, const int64_t *spans, Answer answer, int64_t *found,
                   int weak) {
    const int64_t *values = answer.values;
    int split = topics_split(codes, rows);
    Seen seen = {NULL, 0, 0};
    uint64_t capacity = split ? power_above((uint64_t)rows) : 0;
    /* judged pairs: a bit per qrels row; the others: a set per topic block (or one set) */
    uint8_t *taken = calloc((size_t)(judged->rows / 8 + 1), 1);
    if (taken == NULL || (split && (seen.slots = calloc(capacity, 8)) == NULL)) {
        free(taken);
        return -1;
    }
    seen.mask = capacity - 1;
    Py_ssize_t block_end = 0, topic_end = 0;
    int repeated = 0;
    if (rows > 0)
        fetch_topic(t, judged, spans, values, codes[0]);
    for (Py_ssize_t c = 0; c < run->count && !repeated; c++) {
        const Column *column = &run->columns[c];
        for (Py_ssize_t i = 0; i < column->rows; i++) {
            if (column->first + i == topic_end) { /* a new topic block: fetch the next one's */
                for (; topic_end < rows && codes[topic_end] == codes[column->first + i];)
                    topic_end++;
                if (topic_end < rows)
                    fetch_topic(t, judged, spans, values, codes[topic_end]);
            }
            Py_ssize_t r = column->first + i;
            int32_t code = codes[r];
            int64_t at = offset_at(column, i), size = offset_at(column, i + 1) - at;
            const uint8_t *own = column->bytes + at;
            uint64_t h = hash_bytes(own, (size_t)size, weak);
            int64_t q = code >= 0 && code < t->topics ? probe(t, code, judged, own, size, h) : -1;
            if (values == NULL)
                found[r] = q;
            else
                found[r] = q < 0 ? answer.missing : values[q] < 0 ? answer.negative : values[q];
            if (q >= 0) { /* a judged pair: met before if its qrels row was */
                repeated = (taken[q >> 3] >> (q & 7)) & 1;
                taken[q >> 3] |= (uint8_t)(1 << (q & 7));
                if (repeated)
                    break;
                continue;
            }
            if (!split && r >= block_end) { /* a new topic block: a fresh set sized for it */
                for (block_end = r; block_end < rows && codes[block_end] == code;)
                    block_end++;
                uint64_t want = power_above((uint64_t)(block_end - r));
                if (want > capacity) {
                    free(seen.slots);
                    if ((seen.slots = malloc(want * 8)) == NULL) {
                        free(taken);
                        return -1;
                    }
                    capacity = want;
                }
                memset(seen.slots, 0, want * 8);
                seen.mask = want - 1;
                seen.first = r;
            }
            uint64_t key = split ? mix(h ^ ((uint64_t)code * 0x9E3779B97F4A7C15ULL)) : h;
            if (seen_before(&seen, run, codes, r, key, own, size)) {
                repeated = 1;
                break;
            }
        }
    }
    free(taken);
    free(seen.slots);
    return repeated;
}

/* find_pairs(columns, codes, bases, slots, judged_offsets, judged_bytes, spans, found,
 * weak=False, values=None, missing=-1, negative=-1) -> bool: found[r] = the qrels row of run
 * row r's pair, or -1; with `values` (one int64 per qrels row), values[that row] instead (a
 * negative one written as `negative`), `missing` for a pair not judged. True when the run
 * names a pair twice (then `found` is incomplete). `columns`: the run's (offsets, bytes) in
 * row order; `spans`: each topic's judged rows (see fetch_topic). */
PyObject *kernel_find_pairs(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs) {
    static char *names[] = {"columns", "codes", "bases", "slots", "judged_offsets",
                            "judged_bytes", "spans", "found", "weak", "values", "missing",
                            "negative", NULL};
    PyObject *columns_obj, *codes_obj, *bases, *slots, *judged_offsets, *judged_bytes, *spans_obj;
    PyObject *found_obj, *values_obj = Py_None;
    int weak = 0;
    long long missing = -1, negative = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOOO|pOLL", names, &columns_obj,
                                     &codes_obj, &bases, &slots, &judged_offsets, &judged_bytes,
                                     &spans_obj, &found_obj, &weak, &values_obj, &missing,
                                     &negative))
        return NULL;
    PyObject *sequence = PySequence_Tuple(columns_obj);
    if (sequence == NULL)
        return NULL;
    Py_ssize_t count = PyTuple_Size(sequence), taken = 0, rows = 0;
    Column *columns = PyMem_Calloc((size_t)count + 1, sizeof(Column));
    Py_buffer *views = PyMem_Calloc(2 * (size_t)count + 8, sizeof(Py_buffer));
    if (columns == NULL || views == NULL) {
        PyMem_Free(columns);
        PyMem_Free(views);
        Py_DECREF(sequence);
        return PyErr_NoMemory();
    }
    Py_buffer *code_view = &views[2 * count], *table_views = code_view + 1;
    Py_buffer *judged_views = table_views + 2, *found_view = judged_views + 2;
    Py_buffer *span_view = found_view + 1, *value_view = span_view + 1;
    int ready = 0, stage = 0, outcome = 0;
    Tables t;
    Column judged;
    for (; taken < count; taken++) {
        PyObject *pair = PyTuple_GetItem(sequence, taken); /* (borrowed) */
        PyObject *offsets, *bytes;
        if (!PyArg_ParseTuple(pair, "OO", &offsets, &bytes) ||
            take_column(offsets, bytes, &views[2 * taken], &columns[taken]) < 0)
            goto done;
        columns[taken].first = rows;
        rows += columns[taken].rows;
    }
    if (take(codes_obj, code_view, 0, 4, "codes") < 0)
        goto done;
    stage = 1;
    if (take_tables(bases, slots, table_views, &t) < 0)
        goto done;
    stage = 2;
    if (take_column(judged_offsets, judged_bytes, judged_views, &judged) < 0)
        goto done;
    stage = 3;
    if (take(found_obj, found_view, 1, 8, "found") < 0)
        goto done;
    stage = 4;
    if (take(spans_obj, span_view, 0, 8, "spans") < 0)
        goto done;
    stage = 5;
    if (values_obj != Py_None && take(values_obj, value_view, 0, 8, "values") < 0)
        goto done;
    stage = 6;
    const int64_t *values = values_obj == Py_None ? NULL : (const int64_t *)value_view->buf;
    const int32_t *codes = (const int32_t *)code_view->buf;
    const int64_t *spans = (const int64_t *)span_view->buf;
    int bad = code_view->len / 4 != rows || found_view->len / 8 != rows || rows >= 0xFFFFFFFFLL;
    for (Py_ssize_t r = 0; !bad && r < rows; r++)
        bad = codes[r] < 0;
    bad = bad || span_view->len / 8 != 2 * t.topics;
    bad = bad || (values != NULL && value_view->len / 8 != judged.rows);
    for (Py_ssize_t i = 0; !bad && i < t.topics; i++)
        bad = spans[2 * i] < 0 || spans[2 * i] > spans[2 * i + 1] || spans[2 * i + 1] > judged.rows;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "codes, found and the tables do not match the rows");
        goto done;
    }
    /* found is written while the others are read: none may share its memory (views not taken:
     * zeroed, empty) */
    for (Py_ssize_t i = 0; !bad && i < 2 * count + 8; i++)
        bad = &views[i] != found_view && overlapping(found_view, &views[i]);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "found may not share memory with the other arrays");
        goto done;
    }
    if (count == 0)
        columns[0].first = 0; /* no rows: row_bytes is never asked */
    Run run = {columns, count};
    Py_BEGIN_ALLOW_THREADS
    Answer answer = {values, (int64_t)missing, (int64_t)negative};
    outcome = look_up(&run, codes, rows, &t, &judged, spans, answer, (int64_t *)found_view->buf,
                      weak);
    Py_END_ALLOW_THREADS
    if (outcome < 0)
        PyErr_NoMemory();
    else
        ready = 1;
done:
    for (Py_ssize_t i = 0; i < taken; i++) {
        PyBuffer_Release(&views[2 * i]);
        PyBuffer_Release(&views[2 * i + 1]);
    }
    if (stage >= 1)
        PyBuffer_Release(code_view);
    if (stage >= 2) {
        PyBuffer_Release(&table_views[0]);
        PyBuffer_Release(&table_views[1]);
    }
    if (stage >= 3) {
        PyBuffer_Release(&judged_views[0]);
        PyBuffer_Release(&judged_views[1]);
    }
    if (stage >= 4)
        PyBuffer_Release(found_view);
    if (stage >= 5)
        PyBuffer_Release(span_view);
    if (stage >= 6 && values_obj != Py_None)
        PyBuffer_Release(value_view);
    PyMem_Free(columns);
    PyMem_Free(views);
    Py_DECREF(sequence);
    return ready ? PyBool_FromLong(outcome) : NULL;
}
