/* The whole-file pass's Python entry `evaluate_block` (_kernel_pass.h; the driver is
 * engine/plain_pass.py): a block of plain qrels and plain run lines evaluated by
 * _kernel_topics.c without the interpreter lock, and its topics' values handed back, relstring's
 * as text (_kernel_text_rows.c). */
#include "_kernel_measures.h"
#include "_kernel_pass.h"

/* A tuple of the int64s at `at`; NULL with an exception set. */
static PyObject *tuple_of(const int64_t *at, int64_t count) {
    PyObject *tuple = PyTuple_New((Py_ssize_t)count);
    for (int64_t i = 0; tuple && i < count; i++) {
        PyObject *item = PyLong_FromLongLong(at[i]);
        if (item == NULL || PyTuple_SetItem(tuple, (Py_ssize_t)i, item) < 0) { /* (stolen) */
            Py_DECREF(tuple);
            return NULL;
        }
    }
    return tuple;
}

/* One topic's values: a float per numeric row (`values`), a str per relstring row; NULL with an
 * exception set. */
static PyObject *values_of(const Result *res, const double *values, const TextRows *text,
                           const Ints *kept) {
    PyObject *tuple = PyTuple_New(text->rows);
    for (Py_ssize_t i = 0, number = 0; tuple && i < text->rows; i++) {
        int64_t length = text->length[i];
        PyObject *item = length < 0 ? PyFloat_FromDouble(values[number++])
                                    : relstring_of(kept->at + res->grades_from,
                                                   res->grades_to - res->grades_from, length);
        if (item == NULL || PyTuple_SetItem(tuple, i, item) < 0) { /* (stolen) */
            Py_DECREF(tuple);
            return NULL;
        }
    }
    return tuple;
}

/* One topic's tuple: (id, answered, values, positive, judged, stop). */
static PyObject *topic_tuple(const Result *res, const IdTable *topics, const double *values,
                             const TextRows *text, int ranking_only, const Ints *kept) {
    const Bytes *id = &topics->keys[res->topic];
    PyObject *shown = NULL, *stop = NULL;
    if (!res->evaluated) {
        shown = Py_NewRef(Py_None);
    } else if (!ranking_only) {
        shown = values_of(res, values, text, kept);
    } else {
        PyObject *grades = tuple_of(kept->at + res->grades_from,
                                    res->grades_to - res->grades_from);
        PyObject *levels = tuple_of(kept->at + res->per_grade_from,
                                    res->per_grade_to - res->per_grade_from);
        if (grades && levels)
            shown = Py_BuildValue("OLLO", grades, (long long)res->num_rel,
                                  (long long)res->num_nonrel, levels);
        Py_XDECREF(grades);
        Py_XDECREF(levels);
    }
    if (res->stop == STOP_NONE)
        stop = Py_NewRef(Py_None);
    else
        stop = Py_BuildValue("sy#", res->stop == STOP_TWICE ? "appears twice" : "judged twice",
                             (const char *)res->stop_doc.at, (Py_ssize_t)res->stop_doc.size);
    PyObject *tuple = NULL;
    if (shown && stop)
        tuple = Py_BuildValue("y#OOLLO", (const char *)id->at, (Py_ssize_t)id->size,
                              res->answered ? Py_True : Py_False, shown,
                              (long long)res->positive, (long long)res->judged, stop);
    Py_XDECREF(shown);
    Py_XDECREF(stop);
    return tuple;
}

/* evaluate_block(qrels, run, rows, level, version, num_docs, max_docs, judged_only, stand_in,
 * ranking_only=False) -> None when a row's family is not computed here (measure_spec_from), or
 * (topics, unknown, tag): per qrels topic of the block in byte order, up to the first that stops
 * trec_eval, (id, answered, values, positive, judged, stop): values a tuple per row (None when
 * not evaluated; with `ranking_only`, for tests, (grades, num_rel, num_nonrel, per_grade)
 * instead), positive/judged its qrels lines of grade > 0 / >= 0, stop None or (reason, document)
 * with reason "judged twice" (the qrels) or "appears twice" (among the run's first -M);
 * unknown: the run topics of the block the qrels lack (byte order); tag: the run's last line's
 * run id. max_docs -1: no -M. A line that is not plain raises ValueError. */
PyObject *kernel_evaluate_block(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs) {
    static char *names[] = {"qrels", "run", "rows", "level", "version", "num_docs", "max_docs",
                            "judged_only", "stand_in", "ranking_only", NULL};
    PyObject *qrels_obj, *run_obj, *rows_obj;
    int level, version, judged_only, stand_in, ranking_only = 0;
    long long num_docs, max_docs;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOiiLLpp|p", names, &qrels_obj, &run_obj,
                                     &rows_obj, &level, &version, &num_docs, &max_docs,
                                     &judged_only, &stand_in, &ranking_only))
        return NULL;
    MeasureSpec spec = {level, version, (int64_t)num_docs, 0, NULL};
    TextRows text = {0, NULL, 0};
    if (!ranking_only) {
        PyObject *numeric = NULL;
        int built = text_rows_from(rows_obj, &text, &numeric);
        if (built == 0) {
            built = measure_spec_from(numeric, level, version, (int64_t)num_docs, &spec);
            Py_DECREF(numeric);
            if (built != 0)
                text_rows_free(&text);
        }
        if (built != 0)
            return built < 0 ? NULL : Py_NewRef(Py_None);
    }
    Py_buffer qrels_view, run_view;
    if (PyObject_GetBuffer(qrels_obj, &qrels_view, PyBUF_SIMPLE) < 0) {
        measure_spec_free(&spec);
        text_rows_free(&text);
        return NULL;
    }
    if (PyObject_GetBuffer(run_obj, &run_view, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&qrels_view);
        measure_spec_free(&spec);
        text_rows_free(&text);
        return NULL;
    }
    Scratch s;
    memset(&s, 0, sizeof s);
    s.spec = ranking_only ? NULL : &spec;
    s.text_grades = text.longest;
    s.max_docs = max_docs < 0 ? -1 : (int64_t)max_docs;
    s.judged_only = judged_only;
    s.stand_in = stand_in;
    s.level = level;
    IdTable topics = {0}, unknown = {0};
    Bytes tag = {NULL, 0};
    Result *results = NULL;
    double *values = NULL;
    Ints kept = {NULL, 0, 0};
    int64_t done = 0;
    int status = 0;
    Py_BEGIN_ALLOW_THREADS
    status = ids_reset(&topics, 64) && ids_reset(&unknown, 16) ? 1 : -1;
    if (status == 1)
        status = evaluate_lines(&qrels_view, &run_view, version, &s, &topics, &unknown, &tag,
                                &results, &done, &values, &kept);
    Py_END_ALLOW_THREADS
    PyObject *result = NULL, *list = NULL, *strange = NULL, *run_id = NULL;
    int32_t *strange_order = NULL;
    if (status < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (status == 0) {
        PyErr_SetString(PyExc_ValueError, "evaluate_block: a line is not plain");
        goto done;
    }
    if ((list = PyList_New((Py_ssize_t)done)) == NULL)
        goto done;
    for (int64_t i = 0; i < done; i++) {
        PyObject *item = topic_tuple(&results[i], &topics, values + i * spec.rows, &text,
                                     ranking_only, &kept);
        if (item == NULL || PyList_SetItem(list, (Py_ssize_t)i, item) < 0) /* (stolen) */
            goto done;
    }
    strange_order = ids_sorted(&(Keys){unknown.keys, NULL, NULL}, unknown.count);
    if (strange_order == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if ((strange = PyList_New((Py_ssize_t)unknown.count)) == NULL)
        goto done;
    for (int64_t i = 0; i < unknown.count; i++) {
        const Bytes *id = &unknown.keys[strange_order[i]];
        PyObject *item = PyBytes_FromStringAndSize((const char *)id->at, id->size);
        if (item == NULL || PyList_SetItem(strange, (Py_ssize_t)i, item) < 0)
            goto done;
    }
    run_id = tag.at ? PyBytes_FromStringAndSize((const char *)tag.at, tag.size)
                    : Py_NewRef(Py_None);
    if (run_id != NULL)
        result = Py_BuildValue("OOO", list, strange, run_id);
done:
    Py_XDECREF(list);
    Py_XDECREF(strange);
    Py_XDECREF(run_id);
    free(strange_order);
    free(results);
    free(values);
    free(kept.at);
    free(s.entries);
    free(s.seen);
    free(s.per_grade);
    free(s.grades);
    ids_free(&s.docs);
    ids_free(&topics);
    ids_free(&unknown);
    PyBuffer_Release(&qrels_view);
    PyBuffer_Release(&run_view);
    measure_spec_free(&spec);
    text_rows_free(&text);
    return result;
}
