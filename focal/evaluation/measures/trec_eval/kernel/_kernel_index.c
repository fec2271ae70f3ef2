/* The qrels' per-topic tables filled: each topic's judged documents in its own open-addressing
 * table of 32-bit slots (see _kernel_pairs.c for the layout and the look-ups). */
#include "_article_kernel.h"

/* Whether every slot is empty (0): the tables are filled from empty, so that each slot met holds
 * a row this call stored (a slot left from elsewhere could name any row, or leave no slot free). */
static int all_empty(const uint32_t *slots, Py_ssize_t count) {
    uint32_t any = 0;
    for (Py_ssize_t i = 0; i < count; i++)
        any |= slots[i];
    return any == 0;
}

/* index_pairs(codes, offsets, bytes, bases, slots, weak=False) -> bool: fill the qrels' tables
 * (slots all 0, else ValueError); True when a pair occurs twice. */
PyObject *kernel_index_pairs(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs) {
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
    else if (overlapping(&table_views[1], &code_view) ||
             overlapping(&table_views[1], &column_views[0]) ||
             overlapping(&table_views[1], &column_views[1]) ||
             overlapping(&table_views[1], &table_views[0]))
        problem = "slots may not share memory with the other arrays";
    else if (filled == NULL)
        problem = "out of memory";
    Py_ssize_t topic_end = 0; /* the end of the current topic's rows */
    uint32_t row_mask = row_bits(rows);
    Py_BEGIN_ALLOW_THREADS
    if (problem == NULL && !all_empty(t.slots, (Py_ssize_t)(t.bases[t.topics])))
        problem = "slots must be all 0 before the tables are filled";
    for (Py_ssize_t r = 0; problem == NULL && !repeated && r < rows; r++) {
        int32_t code = codes[r];
        if (code < 0 || code >= t.topics || ++filled[code] >= t.bases[code + 1] - t.bases[code]) {
            problem = "a code outside the tables, or a table too small";
            break;
        }
        if (r == topic_end) { /* a new topic: fetch the next one's slots (see fetch_region) */
            while (topic_end < rows && codes[topic_end] == code)
                topic_end++;
            int32_t next = topic_end < rows ? codes[topic_end] : -1;
            if (next >= 0 && next < t.topics)
                fetch_region((const char *)(t.slots + t.bases[next]),
                             (const char *)(t.slots + t.bases[next + 1]));
        }
        int64_t at = offset_at(&column, r), size = offset_at(&column, r + 1) - at;
        uint64_t h = hash_bytes(column.bytes + at, (size_t)size, weak);
        uint32_t *base = t.slots + t.bases[code], tag = tag_of(h, row_mask);
        uint64_t mask = (uint64_t)(t.bases[code + 1] - t.bases[code] - 1);
        /* at most every slot of the topic's table once: a full table is refused, not spun on */
        for (uint64_t s = h & mask, probes = 0;; s = (s + 1) & mask, probes++) {
            if (probes > mask) {
                problem = "a table is full (its slots must be at least its rows + 1)";
                break;
            }
            uint32_t entry = base[s];
            if (entry == 0) {
                base[s] = tag | (uint32_t)(r + 1);
                break;
            }
            if ((entry & ~row_mask) == tag) {
                int64_t other = (int64_t)(entry & row_mask) - 1; /* a row stored before r */
                if (other < 0 || other >= r) {
                    problem = "slots must be all 0 before the tables are filled";
                    break;
                }
                int64_t from = offset_at(&column, other);
                int64_t length = offset_at(&column, other + 1) - from;
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
