/* trec_eval's measure rows read from Python into a MeasureSpec (_kernel_measures.h,
 * `measure_spec_from`): each row's family found by name in the family table (_kernel_families.h:
 * this C part's own families, then GAIN_FAMILIES), its parameter, list and pairs checked
 * against the fixed sizes of a MeasureRow and what its family reads (`Takes`). A row this C
 * part does not compute, or cannot hold, makes the answer 1, so that the caller takes the numpy
 * engine, which names what is wrong with it; a row of the wrong shape is a TypeError.
 */
#include "_kernel_families.h"

#include <math.h>

/* The cumulated-gain families that print a row per cut-off: their rows must carry one too. */
static const char *const GAIN_CUTOFFS[] = {"ndcg_cut"};

static int finite_all(const double *values, int count) {
    for (int i = 0; i < count; i++)
        if (!isfinite(values[i]))
            return 0;
    return 1;
}

/* A family's index in the table (own families first, then GAIN_FAMILIES), or -1. */
static int family_index(const char *name) {
    for (int i = 0; i < OWN_FAMILIES; i++)
        if (strcmp(OWN[i].name, name) == 0)
            return i;
    for (int i = 0; i < GAIN_FAMILY_COUNT; i++)
        if (GAIN_FAMILIES[i].name && GAIN_FAMILIES[i].compute &&
            strcmp(GAIN_FAMILIES[i].name, name) == 0)
            return OWN_FAMILIES + i;
    return -1;
}

static Takes takes_of(int family, const char *name) {
    if (family < OWN_FAMILIES)
        return OWN[family].takes;
    for (size_t i = 0; i < sizeof GAIN_CUTOFFS / sizeof *GAIN_CUTOFFS; i++)
        if (strcmp(GAIN_CUTOFFS[i], name) == 0)
            return TAKES_CUTOFF;
    return TAKES_NOTHING;
}

/* A number of a row, as a double: 0, or -1 with an exception naming it. */
static int number(PyObject *obj, double *value, const char *what) {
    *value = PyFloat_AsDouble(obj);
    if (*value == -1.0 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "measure rows: %s must be a number", what);
        return -1;
    }
    return 0;
}

/* The `list` of a row: 0, 1 (more values than a row holds), -1 (an exception). */
static int read_list(PyObject *seq, MeasureRow *row) {
    Py_ssize_t size = PySequence_Size(seq);
    if (size < 0) {
        PyErr_SetString(PyExc_TypeError, "measure rows: a row's list must be a sequence");
        return -1;
    }
    if (size > ROW_LIST_MAX)
        return 1;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *item = PySequence_GetItem(seq, i);
        if (!item)
            return -1;
        int bad = number(item, &row->list[i], "a list's value");
        Py_DECREF(item);
        if (bad)
            return -1;
    }
    row->list_len = (int)size;
    return 0;
}

/* The `pairs` of a row, each (name, value): 0, 1 (beyond the fixed sizes), -1 (an exception). */
static int read_pairs(PyObject *seq, MeasureRow *row) {
    Py_ssize_t size = PySequence_Size(seq);
    if (size < 0) {
        PyErr_SetString(PyExc_TypeError, "measure rows: a row's pairs must be a sequence");
        return -1;
    }
    if (size > ROW_PAIRS_MAX)
        return 1;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *pair = PySequence_GetItem(seq, i);
        if (!pair)
            return -1;
        int status = 0;
        PyObject *name = NULL, *value = NULL;
        if (!PySequence_Check(pair) || PySequence_Size(pair) != 2) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "measure rows: a pair must be (name, value)");
            status = -1;
        } else if (!(name = PySequence_GetItem(pair, 0)) ||
                   !(value = PySequence_GetItem(pair, 1))) {
            status = -1;
        } else if (!PyUnicode_Check(name)) {
            PyErr_SetString(PyExc_TypeError, "measure rows: a pair's name must be a str");
            status = -1;
        } else {
            Py_ssize_t length;
            const char *text = PyUnicode_AsUTF8AndSize(name, &length);
            if (!text)
                status = -1;
            else if (length >= ROW_PAIR_NAME || (Py_ssize_t)strlen(text) != length)
                status = 1; /* too long for a row, or a NUL inside */
            else {
                memcpy(row->pair_names[i], text, (size_t)length + 1);
                status = number(value, &row->pair_values[i], "a pair's value");
            }
        }
        Py_XDECREF(name);
        Py_XDECREF(value);
        Py_DECREF(pair);
        if (status)
            return status;
    }
    row->pairs = (int)size;
    return 0;
}

/* Whether a row carries what its family reads, every number finite. */
static int row_complete(const MeasureRow *row, Takes takes) {
    if (!finite_all(row->list, row->list_len) || !finite_all(row->pair_values, row->pairs))
        return 0;
    if (row->has_parameter && !isfinite(row->parameter))
        return 0;
    switch (takes) {
    case TAKES_CUTOFF:
        return row->has_parameter && row->parameter >= 1.0;
    case TAKES_LEVEL:
        return row->has_parameter;
    case TAKES_LIST1:
        return row->list_len >= 1;
    case TAKES_LIST4:
        return row->list_len >= 4;
    default:
        return 1;
    }
}

/* One row (family, parameter, list, pairs): 0, 1 (not computed here), -1 (an exception). */
static int read_row(PyObject *item, MeasureRow *row) {
    if (!PySequence_Check(item) || PySequence_Size(item) != 4) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError,
                        "measure rows: each row must be (family, parameter, list, pairs)");
        return -1;
    }
    PyObject *field[4] = {NULL, NULL, NULL, NULL};
    int status = 0;
    for (int i = 0; i < 4 && status == 0; i++)
        if (!(field[i] = PySequence_GetItem(item, i)))
            status = -1;
    const char *name = NULL;
    if (status == 0 && !PyUnicode_Check(field[0])) {
        PyErr_SetString(PyExc_TypeError, "measure rows: a row's family must be a str");
        status = -1;
    }
    if (status == 0 && !(name = PyUnicode_AsUTF8AndSize(field[0], NULL)))
        status = -1;
    if (status == 0 && (row->family = family_index(name)) < 0)
        status = 1;
    if (status == 0 && field[1] != Py_None) {
        row->has_parameter = 1;
        status = number(field[1], &row->parameter, "a row's parameter");
    }
    if (status == 0)
        status = read_list(field[2], row);
    if (status == 0)
        status = read_pairs(field[3], row);
    if (status == 0 && !row_complete(row, takes_of(row->family, name)))
        status = 1;
    for (int i = 0; i < 4; i++)
        Py_XDECREF(field[i]);
    return status;
}

int measure_spec_from(PyObject *rows, int level, int version, int64_t num_docs,
                      MeasureSpec *spec) {
    spec->level = level;
    spec->version = version;
    spec->num_docs = num_docs;
    spec->rows = 0;
    spec->row = NULL;
    Py_ssize_t count = PySequence_Size(rows);
    if (count < 0) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "measure rows: a sequence of rows expected");
        return -1;
    }
    MeasureRow *row = calloc((size_t)(count ? count : 1), sizeof *row);
    if (!row) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *item = PySequence_GetItem(rows, i);
        int status = item ? read_row(item, &row[i]) : -1;
        Py_XDECREF(item);
        if (status) {
            free(row);
            return status;
        }
    }
    spec->rows = count;
    spec->row = row;
    return 0;
}

void measure_spec_free(MeasureSpec *spec) {
    free(spec->row);
    spec->row = NULL;
    spec->rows = 0;
}

