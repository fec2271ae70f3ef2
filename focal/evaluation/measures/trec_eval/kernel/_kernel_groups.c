/* The whole-file pass's first look at plain qrels and a plain run (_kernel_pass.h).
 *
 * `index_groups` reads a file chunk after chunk (engine/plain_pass.py holds one chunk at a
 * time) and keeps no line: it checks that every line is plain and gives each group of lines of
 * one topic (the topic id and the group's byte range in the file), joining a group cut by a
 * chunk's end to the one before. `join_groups` then puts the qrels topics in trec_eval's order
 * (their ids' byte order), says whether each file is grouped (every topic in one group: then
 * the evaluation reads a block of topics at a time, and memory is bounded by a block), which
 * run group answers each qrels topic, and which run topics the qrels lack.
 */
#include "_kernel_pass.h"

typedef struct {
    Bytes id;
    int64_t start; /* in the chunk */
} Group;

/* index_groups(chunk, fields, final, base, id_base, previous) -> None (a line is not plain), or
 * (consumed, ids, id_ends, starts, tag): the groups of the chunk's complete lines (with `final`,
 * a last line without a newline too); `fields` 4 (qrels) or 6 (run). ids: the groups' topic ids
 * concatenated; id_ends: int32, each id's end counted from `id_base`; starts: int64, where each
 * group starts in the file (the chunk starts at `base`; a group ends where the next starts, the
 * last at the file's end). A first group of topic `previous` (the last group of the chunk
 * before) continues that group: it is left out. tag: the last line's run id (a run), or None. */
PyObject *kernel_index_groups(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs) {
    static char *names[] = {"chunk", "fields", "final", "base", "id_base", "previous", NULL};
    PyObject *chunk_obj, *previous;
    int fields, final;
    Py_ssize_t base, id_base;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OipnnO", names, &chunk_obj, &fields, &final,
                                     &base, &id_base, &previous))
        return NULL;
    if (fields != 4 && fields != 6) {
        PyErr_SetString(PyExc_ValueError, "fields: 4 (qrels) or 6 (a run) expected");
        return NULL;
    }
    if (previous != Py_None && !PyBytes_Check(previous)) {
        PyErr_SetString(PyExc_TypeError, "previous: bytes or None expected");
        return NULL;
    }
    Py_buffer chunk;
    if (PyObject_GetBuffer(chunk_obj, &chunk, PyBUF_SIMPLE) < 0)
        return NULL;
    const uint8_t *data = (const uint8_t *)chunk.buf, *stop = data + chunk.len;
    if (!final)
        while (stop > data && stop[-1] != '\n')
            stop--;
    Group *groups = NULL;
    int64_t count = 0, room = 0;
    const uint8_t *tag = NULL;
    int64_t tag_size = 0;
    int plain = 1, memory = 1;
    Py_BEGIN_ALLOW_THREADS
    for (const uint8_t *p = data; p < stop;) {
        const uint8_t *line = p, *field[6], *ends[6];
        int64_t grade = 0;
        double score = 0.0;
        if (!split_line(&p, stop, fields, field, ends) ||
            !plain_fields(fields, field, ends, &grade, &score)) {
            plain = 0;
            break;
        }
        int64_t size = ends[0] - field[0];
        if (count == 0 ||
            !same_bytes(field[0], size, groups[count - 1].id.at, groups[count - 1].id.size)) {
            if (count == room) {
                room = 2 * room + 64;
                Group *grown = realloc(groups, (size_t)room * sizeof(Group));
                if (grown == NULL) {
                    memory = plain = 0;
                    break;
                }
                groups = grown;
            }
            groups[count++] = (Group){{field[0], size}, line - data};
        }
        if (fields == 6) {
            tag = field[5];
            tag_size = ends[5] - field[5];
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *result = NULL;
    if (!memory) {
        PyErr_NoMemory();
        goto done;
    }
    if (!plain) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    int64_t first = count > 0 && previous != Py_None &&
                    same_bytes(groups[0].id.at, groups[0].id.size,
                               (const uint8_t *)PyBytes_AsString(previous), PyBytes_Size(previous));
    int64_t used = 0;
    for (int64_t g = first; g < count; g++)
        used += groups[g].id.size;
    if (id_base + used > INT32_MAX) { /* (ids of 2 GiB: hundreds of millions of topics) */
        result = Py_NewRef(Py_None);
        goto done;
    }
    PyObject *ids = PyBytes_FromStringAndSize(NULL, used);
    PyObject *id_ends = PyBytes_FromStringAndSize(NULL, 4 * (count - first));
    PyObject *starts = PyBytes_FromStringAndSize(NULL, 8 * (count - first));
    PyObject *run = tag ? PyBytes_FromStringAndSize((const char *)tag, tag_size)
                        : Py_NewRef(Py_None);
    if (ids && id_ends && starts && run) {
        uint8_t *id_out = (uint8_t *)PyBytes_AsString(ids);
        char *end_out = PyBytes_AsString(id_ends), *start_out = PyBytes_AsString(starts);
        int64_t at = 0;
        for (int64_t g = first; g < count; g++) { /* (memcpy: a bytes object's data may not be
                                                    * aligned for int64) */
            memcpy(id_out + at, groups[g].id.at, (size_t)groups[g].id.size);
            at += groups[g].id.size;
            int32_t end = (int32_t)(id_base + at);
            int64_t start = base + groups[g].start;
            memcpy(end_out + 4 * (g - first), &end, 4);
            memcpy(start_out + 8 * (g - first), &start, 8);
        }
        result = Py_BuildValue("nOOOO", (Py_ssize_t)(stop - data), ids, id_ends, starts, run);
    }
    Py_XDECREF(ids);
    Py_XDECREF(id_ends);
    Py_XDECREF(starts);
    Py_XDECREF(run);
done:
    free(groups);
    PyBuffer_Release(&chunk);
    return result;
}

/* A file's group ids (`ids`, `id_ends` from index_groups, checked: ends rising within the ids);
 * 0, or -1 with an exception set. */
static int group_ids(PyObject *ids, PyObject *id_ends, Py_buffer views[2], Keys *keys,
                     int64_t *count) {
    if (PyObject_GetBuffer(ids, &views[0], PyBUF_SIMPLE) < 0)
        return -1;
    if (take(id_ends, &views[1], 0, 4, "id_ends") < 0) {
        PyBuffer_Release(&views[0]);
        return -1;
    }
    *keys = (Keys){NULL, (const uint8_t *)views[0].buf, (const int32_t *)views[1].buf};
    *count = views[1].len / 4;
    for (int64_t i = 0, from = 0; i < *count; from = keys->ends[i], i++) {
        if (keys->ends[i] < from || keys->ends[i] > views[0].len) {
            PyBuffer_Release(&views[0]);
            PyBuffer_Release(&views[1]);
            PyErr_SetString(PyExc_ValueError, "id_ends must rise within the ids");
            return -1;
        }
    }
    return 0;
}

/* Whether a key repeats among keys in `order` (byte order). */
static int repeats(const Keys *keys, const int32_t *order, int64_t count) {
    for (int64_t i = 1; i < count; i++) {
        Bytes a = key_at(keys, order[i - 1]), b = key_at(keys, order[i]);
        if (same_bytes(a.at, a.size, b.at, b.size))
            return 1;
    }
    return 0;
}

/* join_groups(qrels_ids, qrels_id_ends, run_ids, run_id_ends) -> (order, match, unknown,
 * grouped): `order` (int32) the qrels groups in their ids' byte order; `match` (int32) for each
 * of them in that order, the run group of that topic (-1: none); `unknown` the run topics the
 * qrels lack (bytes, in byte order, once each); `grouped`: no id repeats in either file (when
 * it is False, order and match are empty: the caller evaluates the files whole). */
PyObject *kernel_join_groups(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *q_ids, *q_ends, *r_ids, *r_ends;
    if (!PyArg_ParseTuple(args, "OOOO", &q_ids, &q_ends, &r_ids, &r_ends))
        return NULL;
    Py_buffer q_views[2], r_views[2];
    Keys q_keys, r_keys;
    int64_t q_count = 0, r_count = 0;
    if (group_ids(q_ids, q_ends, q_views, &q_keys, &q_count) < 0)
        return NULL;
    if (group_ids(r_ids, r_ends, r_views, &r_keys, &r_count) < 0) {
        PyBuffer_Release(&q_views[0]);
        PyBuffer_Release(&q_views[1]);
        return NULL;
    }
    int32_t *q_order = NULL, *r_order = NULL, *match = NULL, *unknown = NULL;
    int64_t unknown_count = 0;
    int grouped = 0, memory = 0;
    Py_BEGIN_ALLOW_THREADS
    q_order = ids_sorted(&q_keys, q_count);
    r_order = ids_sorted(&r_keys, r_count);
    match = malloc((size_t)(q_count + 1) * sizeof(int32_t));
    unknown = malloc((size_t)(r_count + 1) * sizeof(int32_t));
    memory = q_order && r_order && match && unknown;
    grouped = memory && !repeats(&q_keys, q_order, q_count) && !repeats(&r_keys, r_order, r_count);
    if (memory) { /* a merge of the two sorted lists */
        int64_t j = 0;
        for (int64_t i = 0; i <= q_count; i++) { /* (i == q_count: the run's ids past the last) */
            Bytes q = i < q_count ? key_at(&q_keys, q_order[i]) : (Bytes){NULL, -1};
            Bytes known = i > 0 ? key_at(&q_keys, q_order[i - 1]) : (Bytes){NULL, -1};
            int c = -1; /* (known: the qrels id before q; run ids in [known, q) come next) */
            for (; j < r_count; j++) {
                Bytes r = key_at(&r_keys, r_order[j]);
                Bytes last = j > 0 ? key_at(&r_keys, r_order[j - 1]) : (Bytes){NULL, -1};
                if (q.size >= 0 && (c = compare_ids(r.at, r.size, q.at, q.size)) >= 0)
                    break;
                if (!(known.size >= 0 && same_bytes(r.at, r.size, known.at, known.size)) &&
                    !(last.size >= 0 && same_bytes(r.at, r.size, last.at, last.size)))
                    unknown[unknown_count++] = r_order[j];
            }
            if (i < q_count)
                match[i] = j < r_count && c == 0 ? r_order[j] : -1;
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *result = NULL, *order_out = NULL, *match_out = NULL, *names = NULL;
    if (!memory) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t kept = grouped ? q_count : 0;
    order_out = PyBytes_FromStringAndSize((const char *)q_order, 4 * kept);
    match_out = PyBytes_FromStringAndSize((const char *)match, 4 * kept);
    names = PyList_New((Py_ssize_t)unknown_count);
    if (!order_out || !match_out || !names)
        goto done;
    for (int64_t i = 0; i < unknown_count; i++) {
        Bytes r = key_at(&r_keys, unknown[i]);
        PyObject *id = PyBytes_FromStringAndSize((const char *)r.at, r.size);
        if (id == NULL || PyList_SetItem(names, (Py_ssize_t)i, id) < 0) /* (stolen) */
            goto done;
    }
    result = Py_BuildValue("OOOO", order_out, match_out, names, grouped ? Py_True : Py_False);
done:
    Py_XDECREF(order_out);
    Py_XDECREF(match_out);
    Py_XDECREF(names);
    free(q_order);
    free(r_order);
    free(match);
    free(unknown);
    PyBuffer_Release(&q_views[0]);
    PyBuffer_Release(&q_views[1]);
    PyBuffer_Release(&r_views[0]);
    PyBuffer_Release(&r_views[1]);
    return result;
}
