/* Exact (topic code, document id) look-ups for the article engine, in one pass over a run.
 *
 * trec_eval gives each retrieved document the grade its topic's qrels give it and refuses a run
 * that names a document twice in a topic (docs/trec_eval.md). At 10,000 topics and a million
 * rows a run, that look-up is most of the engine's work beyond reading the file, and numpy can
 * only do it in whole-array passes. Here it is one pass in C, reading the document ids straight
 * from their Arrow buffers (offsets and bytes), without the interpreter lock, so runs evaluated
 * on threads run side by side.
 *
 * The qrels: each topic has its own open-addressing table, a power of two of slots at least
 * twice its judged documents, so a run written topic by topic probes one small region at a time.
 * A slot holds the top 32 bits of the document's hash (a tag) and its qrels row + 1 (0: empty).
 * A tag only routes a probe: every match is confirmed on the bytes themselves, so a collision
 * costs a probe, never a wrong grade.
 *
 * A run's repeated pairs: a judged pair is repeated when its qrels row is found twice (a bit per
 * qrels row); the others go into a small table per topic block while each topic's rows come in
 * one block (the usual layout), otherwise into one table over the whole run, keyed by the topic
 * code too.
 *
 * Called from trec_keys.py (PairIndex), which sizes the tables; the buffers are checked here
 * (lengths, offsets within the bytes, codes within the tables) so that a wrong call raises an
 * error instead of reading outside memory.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *bytes;
    const void *offsets;
    int wide;         /* 64-bit offsets (large_binary) rather than 32-bit */
    Py_ssize_t first; /* row number of the column's first id in the whole run */
    Py_ssize_t rows;
} Column;

static inline int64_t offset_at(const Column *c, Py_ssize_t i) {
    return c->wide ? ((const int64_t *)c->offsets)[i] : (int64_t)((const int32_t *)c->offsets)[i];
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* A 64-bit hash of a byte string; `weak` keeps one bit of it (tests force collisions). */
static inline uint64_t hash_bytes(const uint8_t *p, size_t n, int weak) {
    uint64_t h = (uint64_t)n * 0x9E3779B97F4A7C15ULL, word;
    while (n >= 8) {
        memcpy(&word, p, 8);
        h = (h ^ word) * 0xFF51AFD7ED558CCDULL;
        h ^= h >> 32;
        p += 8;
        n -= 8;
    }
    word = 0;
    for (size_t i = 0; i < n; i++) /* the last bytes, little-endian (a short loop, no call) */
        word |= (uint64_t)p[i] << (8 * i);
    h = mix(h ^ word);
    return weak ? (h & 1) : h;
}

/* Take a readable buffer of `itemsize`-byte items (0: any); -1 with an exception set. */
static int take(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t itemsize,
                const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0)
        return -1;
    if (itemsize && view->itemsize != itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: items of %zd bytes expected", what, itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* A column from its offsets (32- or 64-bit) and bytes, checked: offsets rising within the bytes. */
static int take_column(PyObject *offsets, PyObject *bytes, Py_buffer views[2], Column *c) {
    if (take(offsets, &views[0], 0, 0, "offsets") < 0)
        return -1;
    if (take(bytes, &views[1], 0, 0, "bytes") < 0) {
        PyBuffer_Release(&views[0]);
        return -1;
    }
    c->wide = views[0].itemsize == 8;
    c->offsets = views[0].buf;
    c->bytes = (const uint8_t *)views[1].buf;
    c->rows = views[0].len / views[0].itemsize - 1;
    int bad = (views[0].itemsize != 4 && views[0].itemsize != 8) || c->rows < 0;
    if (!bad && c->rows >= 0) { /* rising from at least 0 up to at most the bytes' length */
        int fall = 0;
        if (c->wide) {
            const int64_t *o = (const int64_t *)c->offsets;
            for (Py_ssize_t i = 0; i < c->rows; i++)
                fall |= o[i + 1] < o[i];
        } else {
            const int32_t *o = (const int32_t *)c->offsets;
            for (Py_ssize_t i = 0; i < c->rows; i++)
                fall |= o[i + 1] < o[i];
        }
        bad = fall || offset_at(c, 0) < 0 || offset_at(c, c->rows) > views[1].len;
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "offsets must rise within the bytes");
        PyBuffer_Release(&views[0]);
        PyBuffer_Release(&views[1]);
        return -1;
    }
    return 0;
}

typedef struct {
    const int64_t *bases; /* topic t's slots: [bases[t], bases[t + 1]) */
    uint64_t *slots;
    Py_ssize_t topics;
} Tables;

static int take_tables(PyObject *bases, PyObject *slots, Py_buffer views[2], Tables *t) {
    if (take(bases, &views[0], 0, 8, "bases") < 0)
        return -1;
    if (take(slots, &views[1], 1, 8, "slots") < 0) {
        PyBuffer_Release(&views[0]);
        return -1;
    }
    t->bases = (const int64_t *)views[0].buf;
    t->slots = (uint64_t *)views[1].buf;
    t->topics = views[0].len / 8 - 1;
    int bad = t->topics < 0 || t->bases[0] != 0 || t->bases[t->topics] != views[1].len / 8;
    for (Py_ssize_t i = 0; !bad && i < t->topics; i++) {
        int64_t span = t->bases[i + 1] - t->bases[i];
        bad = span < 1 || (span & (span - 1)) != 0;
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "bases must cut the slots into powers of two");
        PyBuffer_Release(&views[0]);
        PyBuffer_Release(&views[1]);
        return -1;
    }
    return 0;
}

/* Whether two byte strings are equal: inline, as ids are short (a call to memcmp costs more). */
static inline int same_bytes(const uint8_t *a, int64_t n, const uint8_t *b, int64_t m) {
    if (n != m)
        return 0;
    uint64_t x, y;
    for (; n >= 8; a += 8, b += 8, n -= 8) {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y)
            return 0;
    }
    for (; n > 0; n--)
        if (*a++ != *b++)
            return 0;
    return 1;
}

/* The row of `judged` holding the bytes `own` in topic `code`'s table (hash h), or -1. */
static int64_t probe(const Tables *t, int32_t code, const Column *judged, const uint8_t *own,
                     int64_t size, uint64_t h) {
    const uint64_t *base = t->slots + t->bases[code];
    uint64_t mask = (uint64_t)(t->bases[code + 1] - t->bases[code] - 1), tag = h >> 32;
    for (uint64_t s = h & mask, probes = 0; probes <= mask; s = (s + 1) & mask, probes++) {
        uint64_t entry = base[s];
        if (entry == 0)
            return -1;
        int64_t q = (int64_t)(entry & 0xFFFFFFFFULL) - 1;
        if (entry >> 32 == tag && q < judged->rows) { /* (a row beyond the column: not ours) */
            int64_t from = offset_at(judged, q);
            if (same_bytes(own, size, judged->bytes + from, offset_at(judged, q + 1) - from))
                return q;
        }
    }
    return -1;
}

/* index_pairs(codes, offsets, bytes, bases, slots, weak=False) -> bool: fill the qrels' tables
 * (slots zeroed by the caller); True when a pair occurs twice. */
static PyObject *index_pairs(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs) {
    static char *names[] = {"codes", "offsets", "bytes", "bases", "slots", "weak", NULL};
    PyObject *codes_obj, *offsets, *bytes, *bases, *slots;
    int weak = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOO|p", names, &codes_obj, &offsets, &bytes,
                                     &bases, &slots, &weak))
        return NULL;
    Py_buffer code_view, column_views[2], table_views[2];
    Column column;
    Tables t;
    if (take(codes_obj, &code_view, 0, 4, "codes") < 0)
        return NULL;
    if (take_column(offsets, bytes, column_views, &column) < 0) {
        PyBuffer_Release(&code_view);
        return NULL;
    }
    if (take_tables(bases, slots, table_views, &t) < 0) {
        PyBuffer_Release(&code_view);
        PyBuffer_Release(&column_views[0]);
        PyBuffer_Release(&column_views[1]);
        return NULL;
    }
    const int32_t *codes = (const int32_t *)code_view.buf;
    Py_ssize_t rows = column.rows;
    const char *problem = NULL;
    int repeated = 0;
    int64_t *filled = calloc((size_t)t.topics + 1, sizeof(int64_t));
    if (code_view.len / 4 != rows)
        problem = "one code a row expected";
    else if (rows >= 0xFFFFFFFFLL)
        problem = "too many rows";
    else if (filled == NULL)
        problem = "out of memory";
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; problem == NULL && !repeated && r < rows; r++) {
        int32_t code = codes[r];
        if (code < 0 || code >= t.topics || ++filled[code] >= t.bases[code + 1] - t.bases[code]) {
            problem = "a code outside the tables, or a table too small";
            break;
        }
        int64_t at = offset_at(&column, r), size = offset_at(&column, r + 1) - at;
        uint64_t h = hash_bytes(column.bytes + at, (size_t)size, weak), *base = t.slots + t.bases[code];
        uint64_t mask = (uint64_t)(t.bases[code + 1] - t.bases[code] - 1), tag = h >> 32;
        for (uint64_t s = h & mask;; s = (s + 1) & mask) {
            uint64_t entry = base[s];
            if (entry == 0) {
                base[s] = (tag << 32) | (uint64_t)(r + 1);
                break;
            }
            if (entry >> 32 == tag) {
                int64_t other = (int64_t)(entry & 0xFFFFFFFFULL) - 1;
                int64_t from = offset_at(&column, other), length = offset_at(&column, other + 1) - from;
                if (same_bytes(column.bytes + at, size, column.bytes + from, length)) {
                    repeated = 1;
                    break;
                }
            }
        }
    }
    Py_END_ALLOW_THREADS
    free(filled);
    PyBuffer_Release(&code_view);
    PyBuffer_Release(&column_views[0]);
    PyBuffer_Release(&column_views[1]);
    PyBuffer_Release(&table_views[0]);
    PyBuffer_Release(&table_views[1]);
    if (problem != NULL) {
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    return PyBool_FromLong(repeated);
}

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
 * together (else equal: its slots alone are fetched). */
enum { REGION = 1 << 15 }; /* at most this many bytes of a region fetched ahead */

static void fetch_region(const char *from, const char *to) {
    for (const char *p = from; p < to && p < from + REGION; p += 64)
        __builtin_prefetch(p);
}

static void fetch_topic(const Tables *t, const Column *judged, const int64_t *spans, int32_t code) {
    if (code < 0 || code >= t->topics)
        return;
    fetch_region((const char *)(t->slots + t->bases[code]),
                 (const char *)(t->slots + t->bases[code + 1]));
    int64_t first = spans[2 * code], end = spans[2 * code + 1];
    if (first >= end)
        return;
    int64_t size = judged->wide ? 8 : 4;
    fetch_region((const char *)judged->offsets + first * size,
                 (const char *)judged->offsets + (end + 1) * size);
    fetch_region((const char *)judged->bytes + offset_at(judged, first),
                 (const char *)judged->bytes + offset_at(judged, end));
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
static int look_up(const Run *run, const int32_t *codes, Py_ssize_t rows, const Tables *t,
                   const Column *judged, const int64_t *spans, int64_t *found, int weak) {
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
        fetch_topic(t, judged, spans, codes[0]);
    for (Py_ssize_t c = 0; c < run->count && !repeated; c++) {
        const Column *column = &run->columns[c];
        for (Py_ssize_t i = 0; i < column->rows; i++) {
            if (column->first + i == topic_end) { /* a new topic block: fetch the next one's */
                for (; topic_end < rows && codes[topic_end] == codes[column->first + i];)
                    topic_end++;
                if (topic_end < rows)
                    fetch_topic(t, judged, spans, codes[topic_end]);
            }
            Py_ssize_t r = column->first + i;
            int32_t code = codes[r];
            int64_t at = offset_at(column, i), size = offset_at(column, i + 1) - at;
            const uint8_t *own = column->bytes + at;
            uint64_t h = hash_bytes(own, (size_t)size, weak);
            int64_t q = code < t->topics ? probe(t, code, judged, own, size, h) : -1;
            found[r] = q;
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
 * weak=False) -> bool: found[r] = the qrels row of run row r's pair, or -1; True when the run
 * names a pair twice (then `found` is incomplete). `columns`: the run's (offsets, bytes) in row
 * order; `spans`: each topic's judged rows (see fetch_topic). */
static PyObject *find_pairs(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs) {
    static char *names[] = {"columns", "codes", "bases", "slots", "judged_offsets",
                            "judged_bytes", "spans", "found", "weak", NULL};
    PyObject *columns_obj, *codes_obj, *bases, *slots, *judged_offsets, *judged_bytes, *spans_obj;
    PyObject *found_obj;
    int weak = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOOO|p", names, &columns_obj, &codes_obj,
                                     &bases, &slots, &judged_offsets, &judged_bytes, &spans_obj,
                                     &found_obj, &weak))
        return NULL;
    PyObject *sequence = PySequence_Fast(columns_obj, "columns must be a sequence");
    if (sequence == NULL)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(sequence), taken = 0, rows = 0;
    Column *columns = PyMem_Calloc((size_t)count + 1, sizeof(Column));
    Py_buffer *views = PyMem_Calloc(2 * (size_t)count + 7, sizeof(Py_buffer));
    Py_buffer *code_view = &views[2 * count], *table_views = code_view + 1;
    Py_buffer *judged_views = table_views + 2, *found_view = judged_views + 2;
    Py_buffer *span_view = found_view + 1;
    int ready = 0, stage = 0, outcome = 0;
    Tables t;
    Column judged;
    if (columns == NULL || views == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (; taken < count; taken++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(sequence, taken);
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
    const int32_t *codes = (const int32_t *)code_view->buf;
    const int64_t *spans = (const int64_t *)span_view->buf;
    int bad = code_view->len / 4 != rows || found_view->len / 8 != rows || rows >= 0xFFFFFFFFLL;
    for (Py_ssize_t r = 0; !bad && r < rows; r++)
        bad = codes[r] < 0;
    bad = bad || span_view->len / 8 != 2 * t.topics;
    for (Py_ssize_t i = 0; !bad && i < t.topics; i++)
        bad = spans[2 * i] < 0 || spans[2 * i] > spans[2 * i + 1] || spans[2 * i + 1] > judged.rows;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "codes, found and the tables do not match the rows");
        goto done;
    }
    if (count == 0)
        columns[0].first = 0; /* no rows: row_bytes is never asked */
    Run run = {columns, count};
    Py_BEGIN_ALLOW_THREADS
    outcome = look_up(&run, codes, rows, &t, &judged, spans, (int64_t *)found_view->buf, weak);
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
    PyMem_Free(columns);
    PyMem_Free(views);
    Py_DECREF(sequence);
    return ready ? PyBool_FromLong(outcome) : NULL;
}

/* ---- Reading a plain TREC run ----
 *
 * A run line is `topic Q0 doc rank score run`. A block of the file whose every line is six
 * fields of printable ASCII but `#`, one space apart, with a score of the form
 * -?D+(.D+)?([eE][+-]?D+)? and a topic the qrels know, is read here in one pass: topic codes,
 * scores and the document ids as an Arrow binary column's offsets and bytes. Any other block
 * answers None, and the caller reads the file with pyarrow or, failing that, line by line
 * (trec_batches.py, trec.py), which name what is wrong: this reader only ever takes files those
 * readers take, and gives the same columns. */

static uint8_t TOKEN[256]; /* 1 for the bytes a field may hold */

/* The end of the field starting at p: the first byte at or after p (before stop) that a field
 * may not hold. Eight bytes at a time: a mask with the high bit of each byte below 0x21, above
 * 0x7E or equal to '#' (each test exact for the lowest byte it flags, the one wanted). */
static inline const uint8_t *field_end(const uint8_t *p, const uint8_t *stop) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    for (uint64_t w; p + 8 <= stop; p += 8) {
        memcpy(&w, p, 8);
        uint64_t below = (w - ones * 0x21) & ~w & highs;
        uint64_t above = ((w + ones * (0x7F - 0x7E)) | w) & highs;
        uint64_t hashes = w ^ (ones * '#');
        uint64_t hash = (hashes - ones) & ~hashes & highs;
        uint64_t special = below | above | hash;
        if (special)
            return p + (__builtin_ctzll(special) >> 3);
    }
    while (p < stop && TOKEN[*p])
        p++;
    return p;
}

static const double POWERS[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* The score in [p, end) (followed by a space), correctly rounded; 0 when not of the form above.
 * Up to 19 digits with a value below 2^53 and a power of ten within 10^22 of it: one division
 * or product of two exact doubles, rounded once, which is the correctly rounded value (Clinger's
 * fast path); otherwise the C library's strtod, also correctly rounded in glibc. */
static int read_score(const uint8_t *p, const uint8_t *end, double *value) {
    const uint8_t *start = p;
    int negative = p < end && *p == '-';
    p += negative;
    uint64_t m = 0;
    int digits = 0, fraction = 0, exponent = 0, exponent_digits = 0, exponent_negative = 0;
    for (; p < end && *p >= '0' && *p <= '9'; p++, digits++)
        m = digits < 19 ? m * 10 + (uint64_t)(*p - '0') : m;
    if (digits == 0)
        return 0;
    if (p < end && *p == '.') {
        for (p++; p < end && *p >= '0' && *p <= '9'; p++, fraction++)
            m = digits + fraction < 19 ? m * 10 + (uint64_t)(*p - '0') : m;
        if (fraction == 0)
            return 0;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            exponent_negative = *p++ == '-';
        for (; p < end && *p >= '0' && *p <= '9'; p++, exponent_digits++)
            exponent = exponent < 100000 ? exponent * 10 + (*p - '0') : exponent;
        if (exponent_digits == 0)
            return 0;
    }
    if (p != end)
        return 0;
    int power = (exponent_negative ? -exponent : exponent) - fraction;
    if (digits + fraction <= 19 && m <= (1ULL << 53) && power >= -22 && power <= 22) {
        double v = power < 0 ? (double)m / POWERS[-power] : (double)m * POWERS[power];
        *value = negative ? -v : v;
    } else {
        *value = strtod((const char *)start, NULL); /* stops at the space after the field */
    }
    return 1;
}

/* parse_run(block, final, bases, slots, name_offsets, name_bytes) -> None, or
 * (consumed, rows, codes, scores, doc_offsets, doc_bytes, run): the complete lines of `block`
 * (and, when `final`, a last line without a newline). `bases`/`slots`/`name_*`: one table
 * (index_pairs with every code 0) of the qrels' topic ids, whose rows are the topic codes.
 * codes: int32, scores: float64, doc_offsets: int32 from 0; run: the last line's run id. */
static PyObject *parse_run(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs) {
    static char *names[] = {"block", "final", "bases", "slots", "name_offsets", "name_bytes", NULL};
    PyObject *block_obj, *bases, *slots, *name_offsets, *name_bytes;
    int final;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OpOOOO", names, &block_obj, &final, &bases,
                                     &slots, &name_offsets, &name_bytes))
        return NULL;
    Py_buffer block, table_views[2], name_views[2];
    Tables t;
    Column topics;
    if (PyObject_GetBuffer(block_obj, &block, PyBUF_SIMPLE) < 0)
        return NULL;
    if (take_tables(bases, slots, table_views, &t) < 0) {
        PyBuffer_Release(&block);
        return NULL;
    }
    if (take_column(name_offsets, name_bytes, name_views, &topics) < 0) {
        PyBuffer_Release(&block);
        PyBuffer_Release(&table_views[0]);
        PyBuffer_Release(&table_views[1]);
        return NULL;
    }
    const uint8_t *data = (const uint8_t *)block.buf, *stop = data + block.len;
    if (!final) { /* up to the last newline */
        while (stop > data && stop[-1] != '\n')
            stop--;
    }
    Py_ssize_t lines = 0;
    for (const uint8_t *at = data; at < stop && (at = memchr(at, '\n', (size_t)(stop - at))); at++)
        lines++;
    lines += stop > data && stop[-1] != '\n';
    PyObject *codes = NULL, *scores = NULL, *offsets = NULL, *docs = NULL, *result = NULL;
    int plain = t.topics == 1 && block.len < INT32_MAX;
    if (plain) {
        codes = PyBytes_FromStringAndSize(NULL, 4 * lines);
        scores = PyBytes_FromStringAndSize(NULL, 8 * lines);
        offsets = PyBytes_FromStringAndSize(NULL, 4 * (lines + 1));
        docs = PyBytes_FromStringAndSize(NULL, stop - data);
    }
    const uint8_t *run = NULL;
    int64_t run_size = 0, used = 0;
    if (codes && scores && offsets && docs) {
        int32_t *code_out = (int32_t *)PyBytes_AS_STRING(codes);
        double *score_out = (double *)PyBytes_AS_STRING(scores);
        int32_t *offset_out = (int32_t *)PyBytes_AS_STRING(offsets);
        uint8_t *doc_out = (uint8_t *)PyBytes_AS_STRING(docs);
        Py_BEGIN_ALLOW_THREADS
        const uint8_t *last_topic = NULL;
        int64_t last_size = 0;
        int32_t last_code = -1;
        offset_out[0] = 0;
        const uint8_t *p = data;
        for (Py_ssize_t row = 0; plain && row < lines; row++) {
            const uint8_t *field[6], *ends[6];
            for (int f = 0; f < 6 && plain; f++) {
                field[f] = p;
                p = field_end(p, stop);
                ends[f] = p;
                int last = f == 5;
                plain = p > field[f] && (last ? (p == stop || *p == '\n') : (p < stop && *p == ' '));
                p++; /* past the space or the newline */
            }
            if (!plain)
                break;
            int64_t size = ends[0] - field[0];
            if (last_topic == NULL || !same_bytes(field[0], size, last_topic, last_size)) {
                last_code = (int32_t)probe(&t, 0, &topics, field[0], size,
                                           hash_bytes(field[0], (size_t)size, 0));
                last_topic = field[0];
                last_size = size;
            }
            plain = last_code >= 0 && read_score(field[4], ends[4], &score_out[row]);
            code_out[row] = last_code;
            memcpy(doc_out + used, field[2], (size_t)(ends[2] - field[2]));
            used += ends[2] - field[2];
            offset_out[row + 1] = (int32_t)used;
            run = field[5];
            run_size = ends[5] - field[5];
        }
        Py_END_ALLOW_THREADS
        if (plain && _PyBytes_Resize(&docs, used) == 0) {
            PyObject *run_id = run ? PyBytes_FromStringAndSize((const char *)run, run_size)
                                   : Py_NewRef(Py_None);
            if (run_id)
                result = Py_BuildValue("nnOOOON", (Py_ssize_t)(stop - data), lines, codes, scores,
                                       offsets, docs, run_id);
        } else if (!plain) {
            result = Py_NewRef(Py_None);
        }
    } else if (!plain) {
        result = Py_NewRef(Py_None);
    }
    Py_XDECREF(codes);
    Py_XDECREF(scores);
    Py_XDECREF(offsets);
    Py_XDECREF(docs);
    PyBuffer_Release(&block);
    PyBuffer_Release(&table_views[0]);
    PyBuffer_Release(&table_views[1]);
    PyBuffer_Release(&name_views[0]);
    PyBuffer_Release(&name_views[1]);
    return result;
}

/* ---- Reading plain TREC qrels ----
 *
 * A qrels line is `topic iter doc grade`. A file whose every line is four fields of printable
 * ASCII but `#`, one space apart, with a grade -?D{1,18}, is read here in one pass: each row's
 * topic numbered in order of first appearance (with the topic ids in that order), the document
 * ids as an Arrow binary column's offsets and bytes, and the grades. Any other file answers None,
 * and the caller reads it with pyarrow or line by line (trec.py), which name what is wrong. */

typedef struct {
    const uint8_t *at;
    int64_t size;
} Span;

/* The number of topic id `own` among `names` (hash table `slots`, mask `mask`), added if new;
 * -1 when memory runs out. */
static int32_t topic_number(Span **names, int64_t *count, int64_t *capacity, uint64_t **slots,
                            uint64_t *mask, const uint8_t *own, int64_t size) {
    uint64_t h = hash_bytes(own, (size_t)size, 0), tag = h >> 32;
    uint64_t s = h & *mask;
    for (;; s = (s + 1) & *mask) {
        uint64_t entry = (*slots)[s];
        if (entry == 0)
            break;
        Span *name = &(*names)[(entry & 0xFFFFFFFFULL) - 1];
        if (entry >> 32 == tag && same_bytes(own, size, name->at, name->size))
            return (int32_t)((entry & 0xFFFFFFFFULL) - 1);
    }
    if (*count == *capacity) { /* room for more names, and a table twice their number */
        int64_t more = 2 * *capacity;
        Span *grown = realloc(*names, (size_t)more * sizeof(Span));
        uint64_t *table = calloc((size_t)(4 * more), 8);
        if (grown == NULL || table == NULL) {
            free(table);
            if (grown != NULL)
                *names = grown;
            return -1;
        }
        *names = grown;
        *capacity = more;
        *mask = (uint64_t)(4 * more - 1);
        for (int64_t i = 0; i < *count; i++) {
            uint64_t g = hash_bytes(grown[i].at, (size_t)grown[i].size, 0), t = g & *mask;
            while (table[t] != 0)
                t = (t + 1) & *mask;
            table[t] = (g >> 32 << 32) | (uint64_t)(i + 1);
        }
        free(*slots);
        *slots = table;
        for (s = h & *mask; (*slots)[s] != 0; s = (s + 1) & *mask)
            ;
    }
    (*names)[*count] = (Span){own, size};
    (*slots)[s] = (tag << 32) | (uint64_t)(*count + 1);
    return (int32_t)(*count)++;
}

/* The grade in [p, end): -?D{1,18}; 0 when not of that form. */
static int read_grade(const uint8_t *p, const uint8_t *end, int64_t *value) {
    int negative = p < end && *p == '-';
    p += negative;
    if (end - p < 1 || end - p > 18)
        return 0;
    int64_t v = 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9')
            return 0;
        v = v * 10 + (*p - '0');
    }
    *value = negative ? -v : v;
    return 1;
}

/* parse_qrels(data) -> None, or (rows, codes, names, doc_offsets, doc_bytes, grades): codes
 * int32 (topics numbered as they first appear), names the topic ids in that order (bytes),
 * doc_offsets int32 from 0, grades int64. */
static PyObject *parse_qrels(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *data_obj;
    if (!PyArg_ParseTuple(args, "O", &data_obj))
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(data_obj, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const uint8_t *data = (const uint8_t *)view.buf, *stop = data + view.len;
    Py_ssize_t lines = 0;
    for (const uint8_t *at = data; at < stop && (at = memchr(at, '\n', (size_t)(stop - at))); at++)
        lines++;
    lines += stop > data && stop[-1] != '\n';
    int plain = lines > 0 && view.len < INT32_MAX;
    PyObject *codes = NULL, *offsets = NULL, *docs = NULL, *grades = NULL, *result = NULL;
    Span *names = NULL;
    uint64_t *slots = NULL, mask = 63;
    int64_t count = 0, capacity = 16, used = 0;
    if (plain) {
        codes = PyBytes_FromStringAndSize(NULL, 4 * lines);
        offsets = PyBytes_FromStringAndSize(NULL, 4 * (lines + 1));
        docs = PyBytes_FromStringAndSize(NULL, view.len);
        grades = PyBytes_FromStringAndSize(NULL, 8 * lines);
        names = malloc((size_t)capacity * sizeof(Span));
        slots = calloc(mask + 1, 8);
    }
    int memory = 1;
    if (codes && offsets && docs && grades && names && slots) {
        int32_t *code_out = (int32_t *)PyBytes_AS_STRING(codes);
        int32_t *offset_out = (int32_t *)PyBytes_AS_STRING(offsets);
        uint8_t *doc_out = (uint8_t *)PyBytes_AS_STRING(docs);
        int64_t *grade_out = (int64_t *)PyBytes_AS_STRING(grades);
        Py_BEGIN_ALLOW_THREADS
        const uint8_t *p = data, *last_topic = NULL;
        int64_t last_size = 0;
        int32_t last_code = -1;
        offset_out[0] = 0;
        for (Py_ssize_t row = 0; plain && row < lines; row++) {
            const uint8_t *field[4], *ends[4];
            for (int f = 0; f < 4 && plain; f++) {
                field[f] = p;
                p = field_end(p, stop);
                ends[f] = p;
                plain = p > field[f] && (f == 3 ? (p == stop || *p == '\n') : (p < stop && *p == ' '));
                p++;
            }
            if (!plain)
                break;
            int64_t size = ends[0] - field[0];
            if (last_topic == NULL || !same_bytes(field[0], size, last_topic, last_size)) {
                last_code = topic_number(&names, &count, &capacity, &slots, &mask, field[0], size);
                last_topic = field[0];
                last_size = size;
                memory = plain = last_code >= 0;
            }
            plain = plain && read_grade(field[3], ends[3], &grade_out[row]);
            code_out[row] = last_code;
            memcpy(doc_out + used, field[2], (size_t)(ends[2] - field[2]));
            used += ends[2] - field[2];
            offset_out[row + 1] = (int32_t)used;
        }
        Py_END_ALLOW_THREADS
        PyObject *ids = plain ? PyList_New(count) : NULL;
        for (int64_t i = 0; ids && i < count; i++) {
            PyObject *id = PyBytes_FromStringAndSize((const char *)names[i].at, names[i].size);
            if (id == NULL) {
                Py_CLEAR(ids);
                break;
            }
            PyList_SET_ITEM(ids, i, id);
        }
        if (ids != NULL) {
            if (_PyBytes_Resize(&docs, used) == 0)
                result = Py_BuildValue("nONOOO", lines, codes, ids, offsets, docs, grades);
            else
                Py_DECREF(ids);
        } else if (!plain && memory)
            result = Py_NewRef(Py_None);
        else if (!plain)
            PyErr_NoMemory();
    } else if (!plain) {
        result = Py_NewRef(Py_None);
    } else if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    free(names);
    free(slots);
    Py_XDECREF(codes);
    Py_XDECREF(offsets);
    Py_XDECREF(docs);
    Py_XDECREF(grades);
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef methods[] = {
    {"index_pairs", (PyCFunction)(void (*)(void))index_pairs, METH_VARARGS | METH_KEYWORDS,
     "Fill the qrels' per-topic tables; True when a (topic, document) pair occurs twice."},
    {"find_pairs", (PyCFunction)(void (*)(void))find_pairs, METH_VARARGS | METH_KEYWORDS,
     "The qrels row of each run row's pair (-1: not judged); True when the run repeats a pair."},
    {"parse_run", (PyCFunction)(void (*)(void))parse_run, METH_VARARGS | METH_KEYWORDS,
     "The columns of a block of a plain TREC run, or None (another reader takes the file)."},
    {"parse_qrels", parse_qrels, METH_VARARGS,
     "The columns of plain TREC qrels, or None (another reader takes the file)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_article_kernel",
    "Exact (topic code, document id) look-ups on Arrow buffers (see trec_keys.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__article_kernel(void) {
    for (int c = 0x21; c <= 0x7E; c++)
        TOKEN[c] = c != '#';
    return PyModule_Create(&module);
}
