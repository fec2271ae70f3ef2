/* relstring, trec_eval's one text row (`m_relstring.c`; families/top_ranks.py), for the
 * whole-file pass (_kernel_evaluate.c): the families of _kernel_measures.h give numbers only, so
 * the pass takes relstring's rows out of the selection, keeps each topic's first ranked grades,
 * and writes the row's characters itself: a digit per grade 0-9, `>` above 9, `-` outside the
 * pool, `.` unjudged. */
#include <math.h>

#include "_kernel_measures.h"
#include "_kernel_pass.h"

void text_rows_free(TextRows *text) {
    free(text->length);
    text->length = NULL;
    text->rows = 0;
}

/* relstring's length for a row's `list` (relstring.20; none or 0: 10, as `or 10.0` reads it):
 * 1 with *length set, 0 when it is not a finite number (the numpy engine decides). */
static int text_length(PyObject *row, int64_t *length) {
    PyObject *values = PySequence_Size(row) > 2 ? PySequence_GetItem(row, 2) : NULL;
    double value = 0.0;
    if (values != NULL && PySequence_Size(values) > 0) {
        PyObject *first = PySequence_GetItem(values, 0);
        value = first ? PyFloat_AsDouble(first) : -1.0;
        Py_XDECREF(first);
    }
    Py_XDECREF(values);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (!isfinite(value))
        return 0;
    value = value == 0.0 ? 10.0 : value;
    *length = value <= 0.0 ? 0 : value >= 1e18 ? (int64_t)1e18 : (int64_t)value; /* (int())*/
    return 1;
}

int text_rows_from(PyObject *rows, TextRows *text, PyObject **numeric) {
    text->rows = PySequence_Size(rows);
    text->longest = 0;
    text->length = NULL;
    *numeric = NULL;
    if (text->rows < 0)
        return -1;
    text->length = malloc((size_t)(text->rows + 1) * sizeof(int64_t));
    if (text->length == NULL || (*numeric = PyList_New(0)) == NULL) {
        text_rows_free(text);
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return -1;
    }
    int status = 0;
    for (Py_ssize_t i = 0; status == 0 && i < text->rows; i++) {
        PyObject *row = PySequence_GetItem(rows, i);
        PyObject *family = row && PySequence_Check(row) && PySequence_Size(row) > 0
                               ? PySequence_GetItem(row, 0)
                               : NULL;
        PyErr_Clear(); /* (a malformed row: measure_spec_from names it) */
        int text_row = family && PyUnicode_Check(family) &&
                       PyUnicode_CompareWithASCIIString(family, "relstring") == 0;
        text->length[i] = -1;
        if (text_row && !text_length(row, &text->length[i]))
            status = 1;
        else if (text_row)
            text->longest = text->length[i] > text->longest ? text->length[i] : text->longest;
        else if (PyList_Append(*numeric, row ? row : Py_None) < 0)
            status = -1;
        Py_XDECREF(family);
        Py_XDECREF(row);
    }
    if (status != 0) {
        Py_CLEAR(*numeric);
        text_rows_free(text);
    }
    return status;
}

PyObject *relstring_of(const int64_t *grades, int64_t count, int64_t length) {
    int64_t size = count < length ? count : length;
    char *out = malloc((size_t)size + 1);
    if (out == NULL)
        return PyErr_NoMemory();
    for (int64_t i = 0; i < size; i++) {
        int64_t g = grades[i];
        out[i] = g > 9                  ? '>'
                 : g >= 0               ? (char)('0' + g)
                 : g == GRADE_NONPOOL   ? '-'
                 : g == GRADE_UNJUDGED  ? '.'
                                        : '<';
    }
    PyObject *text = PyUnicode_FromStringAndSize(out, (Py_ssize_t)size);
    free(out);
    return text;
}
