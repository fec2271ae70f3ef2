/* trec_eval's families in C, one topic at a time (_kernel_measures.h). Placeholder: no family
 * yet, so every selection is left to the numpy engine. */
#include "_kernel_measures.h"

int measure_spec_from(PyObject *rows, int level, int version, int64_t num_docs,
                      MeasureSpec *spec) {
    (void)rows;
    (void)level;
    (void)version;
    (void)num_docs;
    spec->rows = 0;
    spec->row = NULL;
    return 1;
}

void measure_spec_free(MeasureSpec *spec) {
    free(spec->row);
    spec->row = NULL;
    spec->rows = 0;
}

int measure_topic(const TopicRanking *topic, const MeasureSpec *spec, double *out) {
    (void)topic;
    (void)spec;
    (void)out;
    return 0;
}

PyObject *kernel_measure_topics(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    PyErr_SetString(PyExc_NotImplementedError, "measure_topics: not built yet");
    return NULL;
}
