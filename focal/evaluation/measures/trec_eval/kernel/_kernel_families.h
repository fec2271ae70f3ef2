/* The family table of trec_eval's families in C (_kernel_measures.h), inside the C part: the
 * families _kernel_measures.c computes, by index (`Own`), and what a row of each must carry
 * (`Takes`). The rows' reader (_kernel_rows.c) finds a family there first, then in
 * GAIN_FAMILIES: a MeasureRow's `family` is an `Own`, or OWN_FAMILIES + its index there.
 */
#ifndef KERNEL_FAMILIES_H
#define KERNEL_FAMILIES_H

#include "_kernel_measures.h"

/* What a family's row must carry; anything else is left to the numpy engine (which names it). */
typedef enum {
    TAKES_NOTHING,
    TAKES_CUTOFF, /* a rank >= 1 (`P_10`) */
    TAKES_LEVEL,  /* a fraction (`iprec_at_recall_0.10`, `Rprec_mult_0.20`) */
    TAKES_LIST1,  /* at least one value (set_F's weight, 11pt_avg's levels) */
    TAKES_LIST4,  /* utility's four coefficients */
} Takes;

typedef enum {
    NUM_RET, NUM_REL, NUM_REL_RET, MAP, GM_MAP, RPREC, BPREF, RECIP_RANK, IPREC, P,
    RECALL, INFAP, GM_BPREF, RPREC_MULT, UTILITY, PT11_AVG, MAP_CUT, RELATIVE_P, SUCCESS, SET_P,
    SET_RELATIVE_P, SET_RECALL, SET_MAP, SET_F, NUM_NONREL_JUDGED_RET, YAAP, RBP_RESID, UNJ,
    OWN_FAMILIES
} Own;

typedef struct {
    const char *name;
    Takes takes;
} OwnFamily;

extern const OwnFamily OWN[OWN_FAMILIES];

#endif
