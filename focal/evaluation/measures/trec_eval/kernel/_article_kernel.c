/* The article engine's C part: the module `focal.evaluation.measures.trec_eval.kernel._article_kernel`.
 *
 * trec_eval gives each retrieved document the grade its topic's qrels give it and refuses a run
 * that names a document twice in a topic (docs/trec_eval.md). At 10,000 topics and a million
 * rows a run, reading the files and that look-up are most of the engine's work, and numpy can
 * only do them in whole-array passes. Here each is one pass in C, without the interpreter lock:
 * plain TREC runs and qrels read straight into the engine's columns (_kernel_plain.c,
 * _kernel_qrels.c), and a run's pairs looked up in per-topic hash tables of the qrels (filled by
 * _kernel_index.c, probed by _kernel_pairs.c), on the document ids' own Arrow buffers.
 *
 * The Python side sizes the tables and owns every array (trec_keys.py, trec_files.py); the
 * buffers are checked here (lengths, offsets within the bytes, codes within the tables, tables
 * empty before they are filled, an array written sharing no memory with those read), so that a
 * wrong call raises ValueError instead of reading or writing outside memory or looping for
 * ever. What the checks cannot see is another thread changing an array during a call (the
 * calls run without the interpreter lock): the callers own their arrays, as numpy's do.
 */
#include "_article_kernel.h"

uint8_t TOKEN[256];

/* Take a readable buffer of `itemsize`-byte items (0: any); -1 with an exception set. */
int take(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t itemsize,
                const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0)
        return -1;
    if (view->itemsize < 1 || (itemsize && view->itemsize != itemsize)) {
        if (itemsize)
            PyErr_Format(PyExc_ValueError, "%s: items of %zd bytes expected", what, itemsize);
        else
            PyErr_Format(PyExc_ValueError, "%s: items of at least one byte expected", what);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* A column from its offsets (32- or 64-bit) and bytes, checked: offsets rising within the bytes. */
int take_column(PyObject *offsets, PyObject *bytes, Py_buffer views[2], Column *c) {
    if (take(offsets, &views[0], 0, 0, "offsets") < 0)
        return -1;
    if (take(bytes, &views[1], 0, 0, "bytes") < 0) {
        PyBuffer_Release(&views[0]);
        return -1;
    }
    c->wide = views[0].itemsize == 8;
    c->offsets = views[0].buf;
    c->bytes = (const uint8_t *)views[1].buf;
    c->rows = views[0].len / views[0].itemsize - 1; /* (take: itemsize >= 1) */
    int bad = (views[0].itemsize != 4 && views[0].itemsize != 8) || c->rows < 0;
    if (!bad) { /* rising from at least 0 up to at most the bytes' length */
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


int take_tables(PyObject *bases, PyObject *slots, Py_buffer views[2], Tables *t) {
    if (take(bases, &views[0], 0, 8, "bases") < 0)
        return -1;
    if (take(slots, &views[1], 1, 4, "slots") < 0) {
        PyBuffer_Release(&views[0]);
        return -1;
    }
    t->bases = (const int64_t *)views[0].buf;
    t->slots = (uint32_t *)views[1].buf;
    t->topics = views[0].len / 8 - 1;
    int bad = t->topics < 0 || t->bases[0] != 0 || t->bases[t->topics] != views[1].len / 4;
    for (Py_ssize_t i = 0; !bad && i < t->topics; i++) { /* rising: no difference overflows */
        bad = t->bases[i + 1] <= t->bases[i];
        int64_t span = bad ? 0 : t->bases[i + 1] - t->bases[i];
        bad = bad || (span & (span - 1)) != 0;
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "bases must cut the slots into powers of two");
        PyBuffer_Release(&views[0]);
        PyBuffer_Release(&views[1]);
        return -1;
    }
    return 0;
}


/* Whether an array written and one read share memory (a write could change what was checked). */
int overlapping(const Py_buffer *written, const Py_buffer *read) {
    uintptr_t w = (uintptr_t)written->buf, r = (uintptr_t)read->buf;
    return written->len > 0 && read->len > 0 && w < r + (uintptr_t)read->len &&
           r < w + (uintptr_t)written->len;
}

/* The row of `judged` holding the bytes `own` in topic `code`'s table (hash h), or -1. */
int64_t probe(const Tables *t, int32_t code, const Column *judged, const uint8_t *own,
                     int64_t size, uint64_t h) {
    const uint32_t *base = t->slots + t->bases[code];
    uint64_t mask = (uint64_t)(t->bases[code + 1] - t->bases[code] - 1);
    uint32_t rows = row_bits(judged->rows), tag = tag_of(h, rows);
    for (uint64_t s = h & mask, probes = 0; probes <= mask; s = (s + 1) & mask, probes++) {
        uint32_t entry = base[s];
        if (entry == 0)
            return -1;
        int64_t q = (int64_t)(entry & rows) - 1;
        if ((entry & ~rows) == tag && q >= 0 && q < judged->rows) { /* (else not ours) */
            int64_t from = offset_at(judged, q);
            if (same_bytes(own, size, judged->bytes + from, offset_at(judged, q + 1) - from))
                return q;
        }
    }
    return -1;
}

static PyMethodDef methods[] = {
    {"index_pairs", (PyCFunction)(void (*)(void))kernel_index_pairs, METH_VARARGS | METH_KEYWORDS,
     "Fill the qrels' per-topic tables; True when a (topic, document) pair occurs twice."},
    {"find_pairs", (PyCFunction)(void (*)(void))kernel_find_pairs, METH_VARARGS | METH_KEYWORDS,
     "The qrels row of each run row's pair (-1: not judged); True when the run repeats a pair."},
    {"parse_run", (PyCFunction)(void (*)(void))kernel_parse_run, METH_VARARGS | METH_KEYWORDS,
     "The columns of a block of a plain TREC run, or None (another reader takes the file)."},
    {"parse_qrels", kernel_parse_qrels, METH_VARARGS,
     "The columns of plain TREC qrels, or None (another reader takes the file)."},
    {"measure_topics", kernel_measure_topics, METH_VARARGS,
     "trec_eval's rows for ranked topics, or None (a family the C part does not compute)."},
    {"evaluate_block", (PyCFunction)(void (*)(void))kernel_evaluate_block,
     METH_VARARGS | METH_KEYWORDS,
     "A block of plain qrels and run topics evaluated, or None (the numpy engine decides)."},
    {"index_groups", (PyCFunction)(void (*)(void))kernel_index_groups,
     METH_VARARGS | METH_KEYWORDS,
     "The topic groups of a chunk of plain qrels or a plain run, or None (a line not plain)."},
    {"join_groups", kernel_join_groups, METH_VARARGS,
     "The qrels topics in byte order, the run group of each, the run's unknown topics."},
    {"sort_groups", kernel_sort_groups, METH_VARARGS,
     "A batch of topic groups as records in their ids' byte order (a sorted run)."},
    {"merge_join", kernel_merge_join, METH_VARARGS,
     "Sorted runs of both files merged and joined in byte order, as far as their buffers go."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_article_kernel",
    "The article engine's C part: plain TREC files read, (topic, document) pairs looked up.", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__article_kernel(void) {
    for (int c = 0x21; c <= 0x7E; c++)
        TOKEN[c] = c != '#';
    gain_tables_init();
    return PyModule_Create(&module);
}
