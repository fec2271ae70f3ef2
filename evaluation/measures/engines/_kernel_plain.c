/* Plain TREC runs and qrels read into the engine's columns, in one pass.
 *
 * A run line is `topic Q0 doc rank score run`. A block of the file whose every line is six
 * fields of printable ASCII but `#`, one space apart, with a score of the form
 * -?D+(.D+)?([eE][+-]?D+)? and a topic the qrels know, is read here in one pass: topic codes,
 * scores and the document ids as an Arrow binary column's offsets and bytes. Any other block
 * answers None, and the caller reads the file with pyarrow or, failing that, line by line
 * (trec_batches.py, trec.py), which name what is wrong: this reader only ever takes files those
 * readers take, and gives the same columns. */
#include "_article_kernel.h"

/* The `count` fields of the line at *p: one space apart, the last one ending at a newline (or
 * at `stop`: a last line without one), none empty. Their starts and ends, and *p moved past the
 * line; 0 when the line is not that.
 *
 * Where SSE2 is, a line within the next 64 bytes is split from one mask of the bytes no field
 * holds (`specials16`): each field ends at the next bit, with no branch that depends on the
 * field's length (finding each field's end in turn was 40% of reading a run, its branches
 * mispredicted). Longer lines, and the last 64 bytes of the buffer, go field by field. */
static int split_line(const uint8_t **at, const uint8_t *stop, int count, const uint8_t **field,
                      const uint8_t **ends) {
    const uint8_t *p = *at;
#if defined(__SSE2__)
    if (stop - p >= 64) {
        uint64_t mask = (uint64_t)specials16(p) | (uint64_t)specials16(p + 16) << 16 |
                        (uint64_t)specials16(p + 32) << 32 | (uint64_t)specials16(p + 48) << 48;
        const uint8_t *start = p;
        int f = 0;
        for (; f < count && mask; f++, mask &= mask - 1) {
            const uint8_t *end = p + __builtin_ctzll(mask);
            if (end == start || *end != (f == count - 1 ? '\n' : ' '))
                return 0;
            field[f] = start;
            ends[f] = end;
            start = end + 1;
        }
        if (f == count) {
            *at = start;
            return 1;
        }
    }
#endif
    for (int f = 0; f < count; f++) {
        field[f] = p;
        p = field_end(p, stop);
        ends[f] = p;
        int last = f == count - 1;
        if (p == field[f] || !(last ? (p == stop || *p == '\n') : (p < stop && *p == ' ')))
            return 0;
        p++; /* past the space or the newline */
    }
    *at = p;
    return 1;
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
PyObject *kernel_parse_run(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs) {
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
            if (!(plain = split_line(&p, stop, 6, field, ends)))
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
 * topic numbered in the topic ids' byte order (with the topic ids in that order), the document
 * ids as an Arrow binary column's offsets and bytes, and the grades. Any other file answers None,
 * and the caller reads it with pyarrow or line by line (trec.py), which name what is wrong. */

typedef struct {
    const uint8_t *at;
    int64_t size;
} Span;

typedef struct {
    Span name;
    int32_t number; /* in order of first appearance */
} Named;

/* Byte order of two topic ids, as strcmp and Python's bytes order them. */
static int byte_order(const void *a, const void *b) {
    const Span *x = &((const Named *)a)->name, *y = &((const Named *)b)->name;
    int64_t shorter = x->size < y->size ? x->size : y->size;
    int c = memcmp(x->at, y->at, (size_t)shorter);
    return c != 0 ? c : (x->size > y->size) - (x->size < y->size);
}

/* The topics numbered in their ids' byte order (trec_eval's topic order) instead of in order
 * of first appearance: `names` sorted, each row's number changed to its id's rank, in place
 * (the caller then needs no second array of numbers). 0 when memory runs out. */
static int number_in_byte_order(Span *names, int64_t count, int32_t *codes, Py_ssize_t rows) {
    Named *sorted = malloc((size_t)(count + 1) * sizeof(Named));
    int32_t *rank = malloc((size_t)(count + 1) * sizeof(int32_t));
    if (sorted == NULL || rank == NULL) {
        free(sorted);
        free(rank);
        return 0;
    }
    for (int64_t i = 0; i < count; i++)
        sorted[i] = (Named){names[i], (int32_t)i};
    qsort(sorted, (size_t)count, sizeof(Named), byte_order);
    for (int64_t i = 0; i < count; i++) {
        rank[sorted[i].number] = (int32_t)i;
        names[i] = sorted[i].name;
    }
    for (Py_ssize_t r = 0; r < rows; r++)
        codes[r] = rank[codes[r]];
    free(sorted);
    free(rank);
    return 1;
}

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
 * int32 (topics numbered in their ids' byte order), names the topic ids in that order (bytes),
 * doc_offsets int32 from 0, grades int64. */
PyObject *kernel_parse_qrels(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *data_obj;
    if (!PyArg_ParseTuple(args, "O", &data_obj))
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(data_obj, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const uint8_t *data = (const uint8_t *)view.buf, *stop = data + view.len;
    Py_ssize_t lines = 0;
    Py_BEGIN_ALLOW_THREADS /* (qrels are read on a thread while the interpreter imports) */
    for (const uint8_t *at = data; at < stop && (at = memchr(at, '\n', (size_t)(stop - at))); at++)
        lines++;
    Py_END_ALLOW_THREADS
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
            if (!(plain = split_line(&p, stop, 4, field, ends)))
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
        if (plain && !number_in_byte_order(names, count, code_out, lines))
            memory = plain = 0;
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
