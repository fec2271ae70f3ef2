/* Plain TREC runs read into the engine's columns, in one pass (the qrels: _kernel_qrels.c).
 *
 * A run line is `topic Q0 doc rank score run`. A block of the file whose every line is six
 * fields of printable ASCII but `#`, one space apart, with a score of the form
 * -?D+(.D+)?([eE][+-]?D+)? and a topic the qrels know, is read here in one pass: topic codes,
 * scores and the document ids as an Arrow binary column's offsets and bytes. Any other block
 * answers None, and the caller reads the file with pyarrow or, failing that, line by line
 * (trec_batches.py, trec.py), which name what is wrong: this reader only ever takes files those
 * readers take, and gives the same columns. */
#include "_article_kernel.h"

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
