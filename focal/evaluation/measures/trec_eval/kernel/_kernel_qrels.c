/* Plain TREC qrels read into the article engine's columns, in one pass.
 *
 * A qrels line is `topic iter doc grade`. A file whose every line is four fields of printable
 * ASCII but `#`, one space apart, with a grade -?D{1,18}, is read here in one pass: each row's
 * topic numbered in the topic ids' byte order (with the topic ids in that order), the document
 * ids as an Arrow binary column's offsets and bytes, and the grades. Any other file answers None,
 * and the caller reads it with pyarrow or line by line (trec.py), which name what is wrong. */
#include "_article_kernel.h"

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
    for (;; s = (s + 1) & *mask) { /* ends: the table is never more than a quarter full */
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
int read_grade(const uint8_t *p, const uint8_t *end, int64_t *value) {
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
    int plain = lines > 0 && view.len < INT32_MAX, memory = 1;
    PyObject *codes = NULL, *offsets = NULL, *grades = NULL, *ids = NULL, *result = NULL;
    uint8_t *doc_out = NULL; /* the ids' bytes, made a bytes object of their size at the end */
    Span *names = NULL;
    uint64_t *slots = NULL, mask = 63;
    int64_t count = 0, capacity = 16, used = 0;
    if (plain) {
        codes = PyBytes_FromStringAndSize(NULL, 4 * lines);
        offsets = PyBytes_FromStringAndSize(NULL, 4 * (lines + 1));
        grades = PyBytes_FromStringAndSize(NULL, 8 * lines);
        doc_out = PyMem_Malloc((size_t)view.len + 1);
        names = malloc((size_t)capacity * sizeof(Span));
        slots = calloc(mask + 1, 8);
        if (!codes || !offsets || !grades || !doc_out || !names || !slots) {
            if (!PyErr_Occurred())
                PyErr_NoMemory();
            goto done;
        }
        int32_t *code_out = (int32_t *)PyBytes_AsString(codes);
        int32_t *offset_out = (int32_t *)PyBytes_AsString(offsets);
        int64_t *grade_out = (int64_t *)PyBytes_AsString(grades);
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
        if (!memory) {
            PyErr_NoMemory();
            goto done;
        }
        if (plain) {
            if ((ids = PyList_New((Py_ssize_t)count)) == NULL)
                goto done;
            for (int64_t i = 0; i < count; i++) {
                PyObject *id = PyBytes_FromStringAndSize((const char *)names[i].at, names[i].size);
                if (id == NULL || PyList_SetItem(ids, (Py_ssize_t)i, id) < 0) /* (stolen) */
                    goto done;
            }
            PyObject *docs = PyBytes_FromStringAndSize((const char *)doc_out, used);
            if (docs != NULL)
                result = Py_BuildValue("nOOOOO", lines, codes, ids, offsets, docs, grades);
            Py_XDECREF(docs);
            goto done;
        }
    }
    result = Py_NewRef(Py_None); /* not plain: the other readers take the file */
done:
    free(names);
    free(slots);
    PyMem_Free(doc_out);
    Py_XDECREF(ids);
    Py_XDECREF(codes);
    Py_XDECREF(offsets);
    Py_XDECREF(grades);
    PyBuffer_Release(&view);
    return result;
}
