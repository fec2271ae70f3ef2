/* A whole plain TREC run evaluated against plain qrels in C (placeholder: not built yet). */
#include "_kernel_measures.h"

PyObject *kernel_evaluate_block(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    (void)args;
    (void)kwargs;
    PyErr_SetString(PyExc_NotImplementedError, "evaluate_block: not built yet");
    return NULL;
}
