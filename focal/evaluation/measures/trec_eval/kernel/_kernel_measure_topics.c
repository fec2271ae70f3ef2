/* `measure_topics`: trec_eval's rows for ranked topics given as buffers, from Python (the tests
 * compare it with the numpy families' `topic_values`; the article engine's loops may call it).
 *
 *   measure_topics(rows, level, version, num_docs, grades, starts, num_rel, num_nonrel,
 *                  per_grade) -> list[tuple[float | str, ...]] | None
 *
 * `rows` as measure_spec_from reads them (_kernel_measures.h), relstring's too: its value is
 * a str, as the numpy family's is, written as the whole-file pass writes it
 * (_kernel_text_rows.c); `grades`: int64, every topic's ranked grades concatenated; `starts`:
 * int64, each topic's first index (rising from 0 within `grades`); `num_rel`, `num_nonrel`:
 * int64, one a topic; `per_grade`: one int64 buffer a topic (its judged documents per grade
 * 0..n-1, none negative). A topic's grades must be GRADE_UNJUDGED, GRADE_NONPOOL or below the
 * length of its per_grade (every judged grade is counted there), so that no family reads past a
 * table. Every buffer is checked before any is read, and a wrong call raises ValueError
 * (TypeError for a wrong kind of argument); None when a family is not computed in C (the
 * caller takes the numpy engine). The topics are measured without the interpreter lock.
 */
#include "_kernel_measures.h"
#include "_kernel_pass.h"

/* An int64 buffer (numpy's 'l' or 'q', array's 'q'), or -1 with an exception naming it. */
static int take_int64(PyObject *obj, Py_buffer *view, const char *what) {
    if (take(obj, view, 0, 8, what) < 0)
        return -1;
    const char *format = view->format ? view->format : "B";
    if (*format == '@' || *format == '=' || *format == '<')
        format++;
    if (!((format[0] == 'l' || format[0] == 'q') && format[1] == '\0')) {
        PyErr_Format(PyExc_ValueError, "%s: an int64 buffer expected", what);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* What measure_topics holds while it runs. */
typedef struct {
    Py_buffer grades, starts, num_rel, num_nonrel;
    Py_buffer *per_grade; /* [topics] */
    Py_ssize_t taken;     /* per_grade views taken */
    int held;             /* the four buffers taken */
    Py_ssize_t topics;
    double *out; /* [topics × rows] */
} Call;

static void release(Call *call) {
    for (Py_ssize_t t = 0; t < call->taken; t++)
        PyBuffer_Release(&call->per_grade[t]);
    if (call->held) {
        PyBuffer_Release(&call->grades);
        PyBuffer_Release(&call->starts);
        PyBuffer_Release(&call->num_rel);
        PyBuffer_Release(&call->num_nonrel);
    }
    free(call->per_grade);
    free(call->out);
}

static int fail(const char *message) {
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
}

/* The four buffers and the per_grade ones taken and checked: 0, or -1 with an exception. */
static int take_call(Call *call, PyObject *const objects[4], PyObject *per_grade) {
    static const char *const names[4] = {"grades", "starts", "num_rel", "num_nonrel"};
    Py_buffer *views[4] = {&call->grades, &call->starts, &call->num_rel, &call->num_nonrel};
    for (int i = 0; i < 4; i++)
        if (take_int64(objects[i], views[i], names[i]) < 0) {
            for (int j = 0; j < i; j++)
                PyBuffer_Release(views[j]);
            return -1;
        }
    call->held = 1;
    Py_ssize_t size = call->grades.len / 8, topics = call->starts.len / 8;
    const int64_t *grades = call->grades.buf, *starts = call->starts.buf;
    call->topics = topics;
    if (call->num_rel.len / 8 != topics || call->num_nonrel.len / 8 != topics)
        return fail("num_rel and num_nonrel must hold one count a topic, as starts does");
    for (Py_ssize_t t = 0; t < topics; t++)
        if ((t == 0 ? starts[t] != 0 : starts[t] < starts[t - 1]) || starts[t] > size)
            return fail("starts must rise from 0 within grades");
    if (!PySequence_Check(per_grade) || PySequence_Size(per_grade) != topics) {
        PyErr_Clear();
        return fail("per_grade must hold one buffer a topic, as starts does");
    }
    call->per_grade = calloc((size_t)(topics ? topics : 1), sizeof(Py_buffer));
    if (!call->per_grade) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t t = 0; t < topics; t++) {
        PyObject *item = PySequence_GetItem(per_grade, t);
        int bad = !item || take_int64(item, &call->per_grade[t], "per_grade") < 0;
        Py_XDECREF(item);
        if (bad)
            return -1;
        call->taken = t + 1;
        const int64_t *counts = call->per_grade[t].buf;
        Py_ssize_t grade_count = call->per_grade[t].len / 8;
        for (Py_ssize_t g = 0; g < grade_count; g++)
            if (counts[g] < 0)
                return fail("per_grade: judged documents per grade cannot be negative");
        Py_ssize_t end = t + 1 < topics ? (Py_ssize_t)starts[t + 1] : size;
        for (Py_ssize_t i = (Py_ssize_t)starts[t]; i < end; i++)
            if (grades[i] < GRADE_UNJUDGED || grades[i] >= (int64_t)grade_count)
                return fail("grades: each must be -2 (unjudged), -1 (outside the pool) or a "
                            "grade its topic's per_grade counts");
    }
    return 0;
}

/* Topic t as the families read it. */
static TopicRanking topic_at(const Call *call, Py_ssize_t t) {
    const int64_t *grades = call->grades.buf, *starts = call->starts.buf;
    Py_ssize_t end = t + 1 < call->topics ? (Py_ssize_t)starts[t + 1] : call->grades.len / 8;
    TopicRanking topic = {
        .grades = grades ? grades + starts[t] : NULL,
        .num_ret = end - (Py_ssize_t)starts[t],
        .num_rel = ((const int64_t *)call->num_rel.buf)[t],
        .num_nonrel = ((const int64_t *)call->num_nonrel.buf)[t],
        .per_grade = call->per_grade[t].buf,
        .grade_count = call->per_grade[t].len / 8,
    };
    return topic;
}

/* The values as a list of tuples (per topic, per row: a float, or relstring's str), or NULL
 * with an exception. */
static PyObject *values_of(const Call *call, const TextRows *text, Py_ssize_t numeric) {
    PyObject *list = PyList_New(call->topics);
    for (Py_ssize_t t = 0; list && t < call->topics; t++) {
        TopicRanking topic = topic_at(call, t);
        const double *out = call->out + (size_t)t * (size_t)numeric;
        PyObject *values = PyTuple_New(text->rows);
        for (Py_ssize_t i = 0; values && i < text->rows; i++) {
            PyObject *value = text->length[i] < 0
                                  ? PyFloat_FromDouble(*out++)
                                  : relstring_of(topic.grades, topic.num_ret, text->length[i]);
            if (!value || PyTuple_SetItem(values, i, value) < 0)
                Py_CLEAR(values);
        }
        if (!values || PyList_SetItem(list, t, values) < 0)
            Py_CLEAR(list);
    }
    return list;
}

PyObject *kernel_measure_topics(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rows, *objects[4], *per_grade, *numeric = NULL;
    int level, version;
    long long num_docs;
    if (!PyArg_ParseTuple(args, "OiiLOOOOO:measure_topics", &rows, &level, &version, &num_docs,
                          &objects[0], &objects[1], &objects[2], &objects[3], &per_grade))
        return NULL;
    if (version != 9 && version != 10) {
        PyErr_SetString(PyExc_ValueError, "measure_topics: version must be 9 or 10");
        return NULL;
    }
    if (!PySequence_Check(rows)) {
        PyErr_SetString(PyExc_TypeError, "measure rows: a sequence of rows expected");
        return NULL;
    }
    Call call;
    memset(&call, 0, sizeof call);
    TextRows text = {0, NULL, 0};
    MeasureSpec spec;
    int built = take_call(&call, objects, per_grade);
    if (built == 0) /* relstring's rows apart: text (_kernel_text_rows.c), as the pass does */
        built = text_rows_from(rows, &text, &numeric);
    if (built == 0)
        built = measure_spec_from(numeric, level, version, (int64_t)num_docs, &spec);
    Py_XDECREF(numeric);
    if (built != 0) {
        release(&call);
        text_rows_free(&text);
        if (built < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    size_t cells = (size_t)call.topics * (size_t)spec.rows;
    call.out = malloc((cells ? cells : 1) * sizeof(double));
    int status = call.out ? 0 : -1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t t = 0; t < call.topics && status == 0; t++) {
        TopicRanking topic = topic_at(&call, t);
        status = measure_topic(&topic, &spec, call.out + (size_t)t * (size_t)spec.rows);
    }
    Py_END_ALLOW_THREADS
    PyObject *result = status == 0 ? values_of(&call, &text, spec.rows) : PyErr_NoMemory();
    measure_spec_free(&spec);
    release(&call);
    text_rows_free(&text);
    return result;
}
