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

/* A score left to the interpreter's reader (read_score's SCORE_LATER): its row, and where it
 * is in the block. */
typedef struct {
    Py_ssize_t row, at, size;
} Later;

/* The scores left to the interpreter's reader, read now that the lock is held (the field is
 * followed by a space, where the reader stops): 1; 0 when one is not read whole after all (the
 * other readers then take the block); -1 with an exception set. */
static int read_later(const uint8_t *data, const Later *later, Py_ssize_t count,
                      double *scores) {
    for (Py_ssize_t i = 0; i < count; i++) {
        const char *start = (const char *)data + later[i].at;
        char *stop = NULL;
        double v = PyOS_string_to_double(start, &stop, NULL); /* NULL: overflow gives inf */
        if (v == -1.0 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_ValueError))
                return -1;
            PyErr_Clear();
            return 0;
        }
        if (stop != start + later[i].size)
            return 0;
        scores[later[i].row] = v;
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
    PyObject *codes = NULL, *scores = NULL, *offsets = NULL, *result = NULL;
    uint8_t *doc_out = NULL; /* the ids' bytes, made a bytes object of their size at the end */
    Later *later = NULL;
    Py_ssize_t later_count = 0, later_room = 0;
    int plain = t.topics == 1 && block.len < INT32_MAX, memory = 1;
    if (plain) {
        codes = PyBytes_FromStringAndSize(NULL, 4 * lines);
        scores = PyBytes_FromStringAndSize(NULL, 8 * lines);
        offsets = PyBytes_FromStringAndSize(NULL, 4 * (lines + 1));
        doc_out = PyMem_Malloc((size_t)(stop - data) + 1);
        if (!codes || !scores || !offsets || !doc_out) {
            if (!PyErr_Occurred())
                PyErr_NoMemory();
            goto done;
        }
        int32_t *code_out = (int32_t *)PyBytes_AsString(codes);
        double *score_out = (double *)PyBytes_AsString(scores);
        int32_t *offset_out = (int32_t *)PyBytes_AsString(offsets);
        const uint8_t *run = NULL;
        int64_t run_size = 0, used = 0;
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
            int score = last_code >= 0 ? read_score(field[4], ends[4], &score_out[row])
                                       : NOT_A_SCORE;
            if (score == SCORE_LATER) { /* read once the lock is held again (read_later) */
                if (later_count == later_room) {
                    Py_ssize_t room = 2 * later_room + 64;
                    Later *grown = realloc(later, (size_t)room * sizeof(Later));
                    if (grown == NULL) {
                        memory = plain = 0;
                        break;
                    }
                    later = grown;
                    later_room = room;
                }
                later[later_count++] = (Later){row, field[4] - data, ends[4] - field[4]};
                score_out[row] = 0.0;
            }
            plain = score != NOT_A_SCORE;
            code_out[row] = last_code;
            memcpy(doc_out + used, field[2], (size_t)(ends[2] - field[2]));
            used += ends[2] - field[2];
            offset_out[row + 1] = (int32_t)used;
            run = field[5];
            run_size = ends[5] - field[5];
        }
        Py_END_ALLOW_THREADS
        if (!memory) {
            PyErr_NoMemory();
            goto done;
        }
        if (plain && (plain = read_later(data, later, later_count, score_out)) < 0)
            goto done;
        if (plain) {
            PyObject *docs = PyBytes_FromStringAndSize((const char *)doc_out, used);
            PyObject *run_id = run ? PyBytes_FromStringAndSize((const char *)run, run_size)
                                   : Py_NewRef(Py_None);
            if (docs != NULL && run_id != NULL)
                result = Py_BuildValue("nnOOONN", (Py_ssize_t)(stop - data), lines, codes, scores,
                                       offsets, docs, run_id);
            else {
                Py_XDECREF(docs);
                Py_XDECREF(run_id);
            }
            goto done;
        }
    }
    result = Py_NewRef(Py_None); /* not plain: the other readers take the file */
done:
    free(later);
    PyMem_Free(doc_out);
    Py_XDECREF(codes);
    Py_XDECREF(scores);
    Py_XDECREF(offsets);
    PyBuffer_Release(&block);
    PyBuffer_Release(&table_views[0]);
    PyBuffer_Release(&table_views[1]);
    PyBuffer_Release(&name_views[0]);
    PyBuffer_Release(&name_views[1]);
    return result;
}
