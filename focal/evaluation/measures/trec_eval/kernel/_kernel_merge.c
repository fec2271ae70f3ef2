/* The whole-file pass's topic index sorted outside memory (_kernel_pass.h, engine/topic_index.py):
 * a file of more topic groups than memory holds is indexed in batches, each batch sorted by its
 * ids and written to a temporary file as a sorted run; the runs of both files are then merged
 * and joined in trec_eval's order (the ids' byte order), a buffer of each run at a time.
 *
 * A record of a run: its group's start and end in the file (int64 each), its id's size (int32),
 * then the id's bytes; native byte order (the file never leaves the process).
 */
#include "_kernel_pass.h"

#define HEAD 20 /* a record's fixed part: start, end, size */

/* sort_groups(ids, id_ends, starts, end) -> bytes: a batch of groups of a file's first look
 * (ids concatenated, the i-th ending at id_ends[i], int32 counted from the batch's first id;
 * starts[i] int64, where the group starts; a group ends where the next starts, the last at
 * `end`) as records in their ids' byte order, equal ids in file order. */
PyObject *kernel_sort_groups(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *ids_obj, *ends_obj, *starts_obj;
    long long last_end;
    if (!PyArg_ParseTuple(args, "OOOL", &ids_obj, &ends_obj, &starts_obj, &last_end))
        return NULL;
    Py_buffer views[3];
    PyObject *objects[3] = {ids_obj, ends_obj, starts_obj}, *result = NULL;
    int taken = 0;
    for (; taken < 3; taken++)
        if (PyObject_GetBuffer(objects[taken], &views[taken], PyBUF_SIMPLE) < 0)
            goto done;
    int64_t count = views[1].len / 4, total = 0;
    if (views[1].len % 4 != 0 || views[2].len != 8 * count) {
        PyErr_SetString(PyExc_ValueError, "id_ends (int32) and starts (int64): one per group");
        goto done;
    }
    int32_t *id_ends = malloc((size_t)(count + 1) * sizeof(int32_t));
    if (id_ends == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (count > 0)
        memcpy(id_ends, views[1].buf, (size_t)(4 * count)); /* (aligned, whatever the buffer) */
    for (int64_t i = 0, from = 0; i < count; from = id_ends[i], i++) {
        if (id_ends[i] < from || id_ends[i] > views[0].len) {
            free(id_ends);
            PyErr_SetString(PyExc_ValueError, "id_ends must rise within the ids");
            goto done;
        }
    }
    total = HEAD * count + (count > 0 ? id_ends[count - 1] : 0);
    const Keys keys = {NULL, (const uint8_t *)views[0].buf, id_ends};
    int32_t *order = NULL;
    Py_BEGIN_ALLOW_THREADS
    order = ids_sorted(&keys, count);
    Py_END_ALLOW_THREADS
    PyObject *records = order ? PyBytes_FromStringAndSize(NULL, total) : PyErr_NoMemory();
    if (records != NULL) {
        uint8_t *out = (uint8_t *)PyBytes_AsString(records);
        const uint8_t *starts = (const uint8_t *)views[2].buf;
        Py_BEGIN_ALLOW_THREADS
        for (int64_t i = 0; i < count; i++) {
            int32_t g = order[i];
            Bytes id = key_at(&keys, g);
            int64_t end = last_end;
            int32_t size = (int32_t)id.size;
            if (g + 1 < count)
                memcpy(&end, starts + 8 * (g + 1), 8);
            memcpy(out, starts + 8 * g, 8);
            memcpy(out + 8, &end, 8);
            memcpy(out + 16, &size, 4);
            if (size > 0)
                memcpy(out + HEAD, id.at, (size_t)size);
            out += HEAD + size;
        }
        Py_END_ALLOW_THREADS
        result = records;
    }
    free(order);
    free(id_ends);
done:
    for (int i = 0; i < taken; i++)
        PyBuffer_Release(&views[i]);
    return result;
}

typedef struct { /* one sorted run as merged: a buffer of its records, its head parsed */
    Py_buffer view;
    const uint8_t *at, *end;
    int final, full; /* the buffer holds the run's rest; a complete record at `at` */
    Bytes id;
    int64_t start, stop;
} Run;

/* The record at r->at parsed (r->full), or none there: 0, or -1 when a final run ends in part
 * of a record (or a record is malformed). */
static int parse_head(Run *r) {
    int64_t left = r->end - r->at;
    int32_t size = 0;
    r->full = 0;
    if (left >= HEAD)
        memcpy(&size, r->at + 16, 4);
    if (left < HEAD || size < 0 || left - HEAD < size)
        return left > 0 && (r->final || size < 0) ? -1 : 0;
    memcpy(&r->start, r->at, 8);
    memcpy(&r->stop, r->at + 8, 8);
    r->id = (Bytes){r->at + HEAD, size};
    r->full = 1;
    return 0;
}

/* The run whose head comes first (the lowest run among equal heads), -1 when every run is
 * done; *wait set when a run that is not final has no complete record (it must be read on). */
static int64_t first_head(const Run *runs, int64_t count, int *wait) {
    int64_t best = -1;
    for (int64_t i = 0; i < count; i++) {
        if (!runs[i].full) {
            *wait |= !runs[i].final;
            continue;
        }
        if (best < 0 || compare_ids(runs[i].id.at, runs[i].id.size, runs[best].id.at,
                                    runs[best].id.size) < 0)
            best = i;
    }
    return best;
}

static int same_id(Bytes a, Bytes b) { return a.size >= 0 && same_bytes(a.at, a.size, b.at, b.size); }

/* The runs of one file from a list of (buffer, final); 0, or -1 with an exception set. */
static int take_runs(PyObject *list, Run **runs, int64_t *count) {
    if (!PyList_Check(list)) {
        PyErr_SetString(PyExc_TypeError, "runs: a list of (buffer, final) expected");
        return -1;
    }
    *count = PyList_Size(list);
    *runs = calloc((size_t)(*count + 1), sizeof(Run));
    if (*runs == NULL) {
        *count = 0;
        PyErr_NoMemory();
        return -1;
    }
    for (int64_t i = 0; i < *count; i++) {
        PyObject *item = PyList_GetItem(list, (Py_ssize_t)i), *buffer;
        Run *r = &(*runs)[i];
        if (!PyTuple_Check(item)) {
            PyErr_SetString(PyExc_TypeError, "runs: a list of (buffer, final) expected");
            *count = i;
            return -1;
        }
        if (!PyArg_ParseTuple(item, "Op", &buffer, &r->final) ||
            PyObject_GetBuffer(buffer, &r->view, PyBUF_SIMPLE) < 0) {
            *count = i;
            return -1;
        }
        r->at = (const uint8_t *)r->view.buf;
        r->end = r->at + r->view.len;
    }
    return 0;
}

static void drop_runs(Run *runs, int64_t count) {
    for (int64_t i = 0; i < count; i++)
        PyBuffer_Release(&runs[i].view);
    free(runs);
}

static PyObject *id_or_none(Bytes id) {
    return id.size >= 0 ? PyBytes_FromStringAndSize((const char *)id.at, id.size)
                        : Py_NewRef(Py_None);
}

static PyObject *used_list(const Run *runs, int64_t count) {
    PyObject *list = PyList_New((Py_ssize_t)count);
    for (int64_t i = 0; list != NULL && i < count; i++) {
        PyObject *n = PyLong_FromSsize_t(runs[i].at - (const uint8_t *)runs[i].view.buf);
        if (n == NULL || PyList_SetItem(list, (Py_ssize_t)i, n) < 0) {
            Py_CLEAR(list);
        }
    }
    return list;
}

/* merge_join(qrels_runs, run_runs, qrels_last, run_last) -> (joined, unknown, qrels_used,
 * run_used, repeated, qrels_last, run_last): the sorted runs of both files (per run, a buffer
 * of its next records and whether it holds the run's rest) merged in their ids' byte order and
 * joined, as far as every run that is not final has a complete record. joined: per qrels topic
 * (int64 each) its group's start and end, and its run group's (-1, -1: none); unknown: the run
 * topics the qrels lack (once each); *_used: the bytes taken from each run's buffer; repeated:
 * an id came twice in a file (the file is not grouped: joined is then no use, unknown is still
 * right); *_last: the last id taken from each file (None: none yet), given back next call. */
PyObject *kernel_merge_join(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *q_list, *r_list, *q_last_obj, *r_last_obj, *result = NULL;
    if (!PyArg_ParseTuple(args, "OOOO", &q_list, &r_list, &q_last_obj, &r_last_obj))
        return NULL;
    Run *q_runs = NULL, *r_runs = NULL;
    int64_t q_count = 0, r_count = 0;
    Bytes q_last = {NULL, -1}, r_last = {NULL, -1};
    if (take_runs(q_list, &q_runs, &q_count) < 0 || take_runs(r_list, &r_runs, &r_count) < 0)
        goto done;
    if ((q_last_obj != Py_None && !PyBytes_Check(q_last_obj)) ||
        (r_last_obj != Py_None && !PyBytes_Check(r_last_obj))) {
        PyErr_SetString(PyExc_TypeError, "qrels_last, run_last: bytes or None expected");
        goto done;
    }
    if (q_last_obj != Py_None)
        q_last = (Bytes){(const uint8_t *)PyBytes_AsString(q_last_obj), PyBytes_Size(q_last_obj)};
    if (r_last_obj != Py_None)
        r_last = (Bytes){(const uint8_t *)PyBytes_AsString(r_last_obj), PyBytes_Size(r_last_obj)};
    Ints joined = {0};
    Bytes *unknown = NULL;
    int64_t unknown_count = 0, unknown_room = 0;
    int bad = 0, memory = 1, repeated = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int64_t i = 0; i < q_count + r_count; i++)
        bad |= parse_head(i < q_count ? &q_runs[i] : &r_runs[i - q_count]) < 0;
    while (!bad && memory) {
        int wait = 0;
        int64_t qi = first_head(q_runs, q_count, &wait), ri = first_head(r_runs, r_count, &wait);
        if (wait || (qi < 0 && ri < 0))
            break;
        Run *q = qi >= 0 ? &q_runs[qi] : NULL, *r = ri >= 0 ? &r_runs[ri] : NULL;
        int c = q == NULL ? 1 : r == NULL ? -1 : compare_ids(q->id.at, q->id.size, r->id.at,
                                                              r->id.size);
        if (c <= 0) { /* a qrels topic, answered (c == 0) or not */
            repeated |= same_id(q_last, q->id);
            if (!ints_reserve(&joined, 4)) {
                memory = 0;
                break;
            }
            int64_t *out = joined.at + joined.count;
            out[0] = q->start, out[1] = q->stop;
            out[2] = c == 0 ? r->start : -1, out[3] = c == 0 ? r->stop : -1;
            joined.count += 4;
            q_last = q->id;
        } else if (!same_id(q_last, r->id) && !same_id(r_last, r->id)) { /* a topic not judged */
            if (unknown_count == unknown_room) {
                unknown_room = 2 * unknown_room + 16;
                Bytes *grown = realloc(unknown, (size_t)unknown_room * sizeof(Bytes));
                if (grown == NULL) {
                    memory = 0;
                    break;
                }
                unknown = grown;
            }
            unknown[unknown_count++] = r->id;
        }
        if (c >= 0) {
            repeated |= same_id(r_last, r->id);
            r_last = r->id;
            r->at = r->id.at + r->id.size;
            bad |= parse_head(r) < 0;
        }
        if (c <= 0) {
            q->at = q->id.at + q->id.size;
            bad |= parse_head(q) < 0;
        }
    }
    Py_END_ALLOW_THREADS
    if (!memory || bad) {
        if (memory)
            PyErr_SetString(PyExc_ValueError, "a sorted run ends in part of a record");
        else
            PyErr_NoMemory();
    } else {
        PyObject *out = PyBytes_FromStringAndSize((const char *)joined.at, 8 * joined.count);
        PyObject *names = PyList_New((Py_ssize_t)unknown_count);
        for (int64_t i = 0; names != NULL && i < unknown_count; i++) {
            PyObject *id = PyBytes_FromStringAndSize((const char *)unknown[i].at, unknown[i].size);
            if (id == NULL || PyList_SetItem(names, (Py_ssize_t)i, id) < 0) /* (stolen) */
                Py_CLEAR(names);
        }
        PyObject *q_used = used_list(q_runs, q_count), *r_used = used_list(r_runs, r_count);
        PyObject *q_id = id_or_none(q_last), *r_id = id_or_none(r_last);
        if (out && names && q_used && r_used && q_id && r_id)
            result = Py_BuildValue("OOOOOOO", out, names, q_used, r_used,
                                   repeated ? Py_True : Py_False, q_id, r_id);
        Py_XDECREF(out);
        Py_XDECREF(names);
        Py_XDECREF(q_used);
        Py_XDECREF(r_used);
        Py_XDECREF(q_id);
        Py_XDECREF(r_id);
    }
    free(joined.at);
    free(unknown);
done:
    drop_runs(q_runs, q_count);
    drop_runs(r_runs, r_count);
    return result;
}
