/* The gain table that trec_eval's cumulated-gain families share (_kernel_gain_table.c), and
 * the discount of a rank, for the families of _kernel_gains.c (docs/trec_eval.md, "The C part").
 */
#ifndef KERNEL_GAINS_H
#define KERNEL_GAINS_H

#include <math.h>

#include "_kernel_measures.h"

#define LOG2_RANKS 4096 /* ranks whose discount is read from the table (the depths runs have) */

/* log2(i + 2), the discount of rank i + 1, for i < LOG2_RANKS: C's own values, computed once
 * (gain_tables_init, at the module's import, before any family runs; written never again). */
extern double gain_log2_rank[LOG2_RANKS];
extern int gain_log2_ready;

/* log2(i + 2): the table's value or, past it (or before the import filled it), C's log2. */
static inline double discount(Py_ssize_t i) {
    return i < LOG2_RANKS && gain_log2_ready ? gain_log2_rank[i] : log2((double)i + 2.0);
}

/* One level of a topic's gain table (gain_table.Gain). */
typedef struct {
    int64_t grade;
    int named_beyond; /* a named grade past int64: no document has it */
    double gain;
    int64_t count; /* judged documents of the grade (0 for a second level of one grade) */
} Level;

/* A topic's gains as a row's family reads them (gain_table.TopicGains). */
typedef struct {
    Level *level; /* sorted, lowest gain first */
    Py_ssize_t levels;
    double *gained; /* per rank: the document's gain */
    double first;   /* the gain before the ideal walk's first step */
    double *steps;  /* the walk's steps (gain_table.walk_steps); the ideal is all but the last */
    Py_ssize_t step_count;
} Gains;

/* The topic's judged grades 0..n-1 as the numpy engine keeps them: up to the largest present. */
Py_ssize_t judged_grades(const TopicRanking *topic);

/* The row's gain table for the topic, each rank's gain and the ideal walk: 0, or -1 out of
 * memory (nothing left to free); gains_free frees what 0 gave. */
int gains_build(const TopicRanking *topic, const MeasureRow *row, Gains *g);
void gains_free(Gains *g);

#endif
