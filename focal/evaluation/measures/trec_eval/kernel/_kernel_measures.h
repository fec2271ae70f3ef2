/* trec_eval's measures computed in C, one topic at a time, in one pass over its ranking: the
 * interface between the families (_kernel_measures.c: every family but the gain ones, and the
 * table that names them; _kernel_gains.c: the cumulated-gain families) and their callers (the
 * whole-file pass of _kernel_evaluate.c, and the article engine's per-topic loops).
 *
 * Each family gives, for one topic, exactly the value the numpy families of
 * focal/evaluation/measures/trec_eval/families/ give for that topic (`topic_values`: geometric
 * families as ln max(x, 1e-5); counts as doubles), with the same additions in the same order, so
 * that the bytes printed are the same (docs/trec_eval.md, "The C part").
 *
 * Nothing here touches the interpreter (no Python object, no exception): the callers may run
 * them without the interpreter lock; a failure is a return value.
 */
#ifndef KERNEL_MEASURES_H
#define KERNEL_MEASURES_H

#include "_article_kernel.h"

#define GRADE_NONPOOL (-1)  /* retrieved, absent from the qrels */
#define GRADE_UNJUDGED (-2) /* retrieved, listed by the qrels with a negative grade */
#define ROW_LIST_MAX 16     /* a `list` parameter's values (utility's four, 11pt_avg's 11, ...) */
#define ROW_PAIRS_MAX 32    /* a `pairs` parameter's `name=value` items (ndcg.1=3,2=9; rbp.p=0.8) */
#define ROW_PAIR_NAME 32    /* bytes of a pair's name, its final NUL included */

/* One topic as the measures read it: its retrieved documents' grades in trec_eval's order (score
 * descending, then document id descending), cut to -M and, with -J, to the judged ones. */
typedef struct {
    const int64_t *grades;     /* per rank: the qrels grade, GRADE_NONPOOL or GRADE_UNJUDGED */
    Py_ssize_t num_ret;        /* ranks */
    int64_t num_rel;           /* judged documents with grade >= level */
    int64_t num_nonrel;        /* judged documents with 0 <= grade < level */
    const int64_t *per_grade;  /* judged documents of grade g, for g in [0, grade_count) */
    Py_ssize_t grade_count;    /* 0: no judged document with a grade >= 0 */
} TopicRanking;

/* One printed row (`P_10`, `map`, `set_F_0.5`, `ndcg_1=3,2=9`): its family and parameters. */
typedef struct {
    int family;                   /* index in the family table (_kernel_measures.c) */
    int has_parameter;            /* a cut-off or level row (`P_10`, `iprec_at_recall_0.10`) */
    double parameter;             /* that cut-off or level */
    int list_len;                 /* a `list` family's values, as the selection gives them */
    double list[ROW_LIST_MAX];
    int pairs;                    /* a `pairs` family's items, as typed */
    char pair_names[ROW_PAIRS_MAX][ROW_PAIR_NAME];
    double pair_values[ROW_PAIRS_MAX];
} MeasureRow;

/* The rows asked for, and what every family reads besides the topic. */
typedef struct {
    int level;        /* -l: the lowest relevant grade */
    int version;      /* 9 or 10: which trec_eval's numbers */
    int64_t num_docs; /* -N: documents in the collection */
    Py_ssize_t rows;
    MeasureRow *row;  /* owned (measure_spec_free) */
} MeasureSpec;

/* A family's value(s) for one topic: writes out[0] for its row; 0 done, -1 out of memory. */
typedef int (*FamilyFn)(const TopicRanking *topic, const MeasureRow *row,
                        const MeasureSpec *spec, double *out);

typedef struct {
    const char *name; /* trec_eval's family name */
    FamilyFn compute;
} FamilyEntry;

/* The cumulated-gain families (_kernel_gains.c), found by name by the table of
 * _kernel_measures.c. */
extern const FamilyEntry GAIN_FAMILIES[];
extern const int GAIN_FAMILY_COUNT;

/* `rows`: a sequence of (family: str, parameter: float | None, list: tuple[float, ...],
 * pairs: tuple[tuple[str, float], ...]) in printed order. 0: built; 1: a family (or a parameter)
 * this C part does not compute, nothing allocated (the caller takes the numpy engine); -1: a
 * Python exception set. Needs the interpreter lock. (_kernel_rows.c) */
int measure_spec_from(PyObject *rows, int level, int version, int64_t num_docs,
                      MeasureSpec *spec);
void measure_spec_free(MeasureSpec *spec);

/* Every row of `spec` for one topic: out[i] for row i. 0 done; -1 out of memory. */
int measure_topic(const TopicRanking *topic, const MeasureSpec *spec, double *out);

#endif
