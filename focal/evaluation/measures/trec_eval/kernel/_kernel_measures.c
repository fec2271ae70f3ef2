/* trec_eval's families in C, one topic at a time (_kernel_measures.h): the family table
 * (_kernel_families.h) and every family but the cumulated-gain ones (_kernel_gains.c). The rows
 * are read from Python by _kernel_rows.c (`measure_spec_from`); `measure_topics`
 * (_kernel_measure_topics.c) is the Python entry the tests compare with the numpy families'
 * `topic_values`.
 *
 * Computed here: num_ret, num_rel, num_rel_ret, map, gm_map, Rprec, bpref, recip_rank,
 * iprec_at_recall, P, recall, infAP, gm_bpref, Rprec_mult, utility, 11pt_avg, map_cut,
 * relative_P, success, set_P, set_relative_P, set_recall, set_map, set_F,
 * num_nonrel_judged_ret, yaap, rbp_resid, unj; in _kernel_gains.c, found by name in
 * GAIN_FAMILIES, the families of the gain table (rbp among them: its gains are the table's,
 * rescaled); relstring, text, apart from a spec's rows by _kernel_text_rows.c. So trec_eval's
 * default set (`-m official`) and the whole of `-m all_trec` are computed in C. Left to the
 * numpy engine (`measure_spec_from` answers 1): a relstring row in a spec, num_q (the caller
 * counts topics), the judgement-group and preference families (their numpy families have no
 * `compute` either), any family neither file declares.
 *
 * One pass over a topic's ranking gathers what every row reads (`Scan`): the rank of each
 * relevant document, the running sum of c(r)/r at each (map, map_cut_k and yaap read its
 * prefixes: a prefix of a sum taken in rank order is that sum cut, the same additions), bpref's
 * and infAP's sums when asked; a cut-off row then costs a binary search over the relevant
 * ranks, not a pass. Each value is formed with the operations, in the order, of the numpy
 * family it mirrors (the modules of families/: `np.bincount` and their Python loops add in
 * rank order, as these loops do), so that the values are the same to the last bit.
 */
#include "_kernel_families.h"

#include <math.h>

#define MIN_GEO_MEAN 1e-5   /* the geometric families' floor (measure.MIN_GEO_MEAN) */
#define INFAP_EPSILON 1e-5  /* m_infap.c's (average_precision.INFAP_EPSILON) */
#define RBP_PERSISTENCE 0.9 /* rbp_resid's p unless `rbp_resid.p=...` (top_ranks.py) */
#define STACK_RELEVANT 256  /* relevant documents a topic's scan holds without malloc */

const OwnFamily OWN[OWN_FAMILIES] = {
    [NUM_RET] = {"num_ret", TAKES_NOTHING},
    [NUM_REL] = {"num_rel", TAKES_NOTHING},
    [NUM_REL_RET] = {"num_rel_ret", TAKES_NOTHING},
    [MAP] = {"map", TAKES_NOTHING},
    [GM_MAP] = {"gm_map", TAKES_NOTHING},
    [RPREC] = {"Rprec", TAKES_NOTHING},
    [BPREF] = {"bpref", TAKES_NOTHING},
    [RECIP_RANK] = {"recip_rank", TAKES_NOTHING},
    [IPREC] = {"iprec_at_recall", TAKES_LEVEL},
    [P] = {"P", TAKES_CUTOFF},
    [RECALL] = {"recall", TAKES_CUTOFF},
    [INFAP] = {"infAP", TAKES_NOTHING},
    [GM_BPREF] = {"gm_bpref", TAKES_NOTHING},
    [RPREC_MULT] = {"Rprec_mult", TAKES_LEVEL},
    [UTILITY] = {"utility", TAKES_LIST4},
    [PT11_AVG] = {"11pt_avg", TAKES_LIST1},
    [MAP_CUT] = {"map_cut", TAKES_CUTOFF},
    [RELATIVE_P] = {"relative_P", TAKES_CUTOFF},
    [SUCCESS] = {"success", TAKES_CUTOFF},
    [SET_P] = {"set_P", TAKES_NOTHING},
    [SET_RELATIVE_P] = {"set_relative_P", TAKES_NOTHING},
    [SET_RECALL] = {"set_recall", TAKES_NOTHING},
    [SET_MAP] = {"set_map", TAKES_NOTHING},
    [SET_F] = {"set_F", TAKES_LIST1},
    [NUM_NONREL_JUDGED_RET] = {"num_nonrel_judged_ret", TAKES_NOTHING},
    [YAAP] = {"yaap", TAKES_NOTHING},
    [RBP_RESID] = {"rbp_resid", TAKES_NOTHING},
    [UNJ] = {"unj", TAKES_CUTOFF},
};

/* What the rows of one topic read, gathered in one pass over its ranking. */
typedef struct {
    Py_ssize_t found;   /* relevant documents retrieved: c(n) */
    int64_t *rank;      /* [found]: the rank of each, in order */
    double *ap_sum;     /* [found + 1]: Σ c(r)/r over the first m of them (map's sum, cut) */
    double *best;       /* [found]: the best precision at or below each (iprec_at_recall) */
    int64_t nonrel;     /* judged documents below the level retrieved */
    int64_t negative;   /* retrieved documents without a judgement (grade < 0) */
    double bpref_sum;   /* Σ over relevant r of bpref's term */
    double infap_sum;   /* Σ over relevant r of infAP's term */
} Scan;

/* What the rows ask beyond the scan's counts and ranks. */
typedef struct {
    int bpref, infap, best;
} Needs;

static Needs needs_of(const MeasureSpec *spec) {
    Needs needs = {0, 0, 0};
    for (Py_ssize_t i = 0; i < spec->rows; i++) {
        int f = spec->row[i].family;
        needs.bpref |= f == BPREF || f == GM_BPREF;
        needs.infap |= f == INFAP;
        needs.best |= f == IPREC || f == PT11_AVG;
    }
    return needs;
}

/* The one pass (numpy: `Context.found_at`, `precision_found`, average_precision.py's bpref and
 * infAP terms). Counts "at or above" a position include it, as the numpy cumulative sums do. */
static void scan_topic(const TopicRanking *topic, int level, Needs needs, Scan *s) {
    const int64_t *grades = topic->grades;
    int64_t num_rel = topic->num_rel;
    int64_t denominator = topic->num_nonrel < num_rel ? topic->num_nonrel : num_rel;
    if (denominator < 1)
        denominator = 1;
    int64_t c = 0, nonrel = 0, unjudged = 0, negative = 0;
    double bpref = 0.0, infap = 0.0;
    s->ap_sum[0] = 0.0;
    for (Py_ssize_t i = 0; i < topic->num_ret; i++) {
        int64_t g = grades[i], r = (int64_t)i + 1;
        unjudged += g == GRADE_UNJUDGED;
        negative += g < 0;
        if (g < level) {
            nonrel += g >= 0;
            continue;
        }
        c++;
        s->rank[c - 1] = r;
        s->ap_sum[c] = s->ap_sum[c - 1] + (double)c / (double)r;
        if (needs.bpref) {
            int64_t above = nonrel < num_rel ? nonrel : num_rel;
            bpref += nonrel > 0 ? 1.0 - (double)above / (double)denominator : 1.0;
        }
        if (needs.infap) {
            if (r == 1) {
                infap += 1.0;
            } else {
                double j = (double)(r - 1), before = (double)(c - 1);
                double seen = before + (double)nonrel;
                infap += 1.0 / (j + 1.0) + (j / (j + 1.0)) * ((seen + (double)unjudged) / j) *
                                               ((before + INFAP_EPSILON) /
                                                (seen + 2 * INFAP_EPSILON));
            }
        }
    }
    s->found = (Py_ssize_t)c;
    s->nonrel = nonrel;
    s->negative = negative;
    s->bpref_sum = bpref;
    s->infap_sum = infap;
    if (needs.best) { /* the best c(r)/r at or below each relevant rank: between two relevant
                       * ranks c is constant and r grows, so the best is at a relevant rank */
        double best = 0.0;
        for (Py_ssize_t m = s->found - 1; m >= 0; m--) {
            double precision = (double)(m + 1) / (double)s->rank[m];
            if (precision > best)
                best = precision;
            s->best[m] = best;
        }
    }
}

/* c(k): the relevant documents at rank k or better. */
static Py_ssize_t found_within(const Scan *s, double k) {
    Py_ssize_t low = 0, high = s->found;
    while (low < high) {
        Py_ssize_t middle = low + (high - low) / 2;
        if ((double)s->rank[middle] <= k)
            low = middle + 1;
        else
            high = middle;
    }
    return low;
}

/* `x` as numpy's astype(int64) gives it where it fits (truncated), bounded where it does not. */
static int64_t truncated(double x) {
    if (x >= 9.2e18)
        return INT64_MAX;
    if (x <= -9.2e18)
        return INT64_MIN;
    return (int64_t)x;
}

static double per_rel(double sum, int64_t num_rel) {
    return num_rel > 0 ? sum / (double)num_rel : 0.0;
}

static double geometric(double x) { return log(x < MIN_GEO_MEAN ? MIN_GEO_MEAN : x); }

/* How many relevant documents recall level p needs (interpolated.recall_cutoffs). */
static int64_t recall_cutoff(double fraction, int64_t num_rel, int version) {
    double product = fraction * (double)num_rel;
    if (version == 9)
        return truncated(product + 0.9);
    double whole = floor(product);
    return truncated(whole + (product - whole >= 0.5 ? 1.0 : 0.0));
}

/* iprec_at_recall at level p (interpolated.at_level): NaN when the level needs no document and
 * nothing was retrieved (0/0 in trec_eval). */
static double iprec(const TopicRanking *topic, const Scan *s, double fraction, int version) {
    int64_t needed = recall_cutoff(fraction, topic->num_rel, version), found = s->found;
    if (needed <= found && found > 0)
        return s->best[(needed > 1 ? needed : 1) - 1];
    if (needed <= found && topic->num_ret == 0)
        return NAN;
    return 0.0;
}

/* rbp_resid: p^n + (1 − p)·Σ over unjudged r of p^(r−1), 0 when every document is judged. */
static double rbp_residual(const TopicRanking *topic, const Scan *s, const MeasureRow *row) {
    if (s->negative == 0)
        return 0.0;
    double p = RBP_PERSISTENCE;
    for (int i = 0; i < row->pairs; i++)
        if (strcmp(row->pair_names[i], "p") == 0)
            p = row->pair_values[i];
    double power = 1.0, sum = 0.0;
    for (Py_ssize_t i = 0; i < topic->num_ret; i++) {
        if (topic->grades[i] < 0)
            sum += power;
        power *= p;
    }
    return power + (1 - p) * sum;
}

/* unj_k: the share of the first k ranks without a judgement. */
static double unjudged_at(const TopicRanking *topic, double k) {
    int64_t cut = truncated(k), count = 0;
    Py_ssize_t end = cut < (int64_t)topic->num_ret ? (Py_ssize_t)cut : topic->num_ret;
    for (Py_ssize_t i = 0; i < end; i++)
        count += topic->grades[i] < 0;
    return (double)count / (double)cut;
}

/* One of this file's families for one row (sets.py, average_precision.py, precision.py,
 * interpolated.py, top_ranks.py, in the same operations). */
static double own_value(const TopicRanking *topic, const Scan *s, const MeasureRow *row,
                        const MeasureSpec *spec) {
    int64_t num_ret = (int64_t)topic->num_ret, num_rel = topic->num_rel, found = s->found;
    double hits = (double)found, k = row->parameter;
    switch ((Own)row->family) {
    case NUM_RET:
        return (double)num_ret;
    case NUM_REL:
        return (double)num_rel;
    case NUM_REL_RET:
        return hits;
    case NUM_NONREL_JUDGED_RET:
        return (double)s->nonrel;
    case MAP:
        return per_rel(s->ap_sum[found], num_rel);
    case GM_MAP:
        return geometric(per_rel(s->ap_sum[found], num_rel));
    case MAP_CUT:
        return per_rel(s->ap_sum[found_within(s, k)], num_rel);
    case YAAP:
        return log((1.0 + s->ap_sum[found]) / (1.0 + (double)num_rel - s->ap_sum[found]));
    case BPREF:
        return per_rel(s->bpref_sum, num_rel);
    case GM_BPREF:
        return geometric(per_rel(s->bpref_sum, num_rel));
    case INFAP:
        return per_rel(s->infap_sum, num_rel);
    case RPREC:
        return per_rel((double)found_within(s, (double)num_rel), num_rel);
    case RPREC_MULT: {
        int64_t cut = truncated(k * (double)num_rel + 0.9);
        return cut > 0 ? (double)found_within(s, (double)cut) / (double)cut : 0.0;
    }
    case RECIP_RANK:
        return found > 0 ? 1.0 / (double)s->rank[0] : 0.0;
    case P:
        return (double)found_within(s, k) / k;
    case RECALL:
        return per_rel((double)found_within(s, k), num_rel);
    case RELATIVE_P: {
        double limit = (double)num_rel < k ? (double)num_rel : k;
        return num_rel > 0 ? (double)found_within(s, k) / limit : 0.0;
    }
    case SUCCESS:
        return found > 0 && (double)s->rank[0] <= k ? 1.0 : 0.0;
    case IPREC:
        return iprec(topic, s, k, spec->version);
    case PT11_AVG: {
        double total = 0.0;
        for (int i = row->list_len - 1; i >= 0; i--)
            total = total + iprec(topic, s, row->list[i], spec->version);
        return total / (double)row->list_len;
    }
    case SET_P:
        return num_ret > 0 ? hits / (double)num_ret : 0.0;
    case SET_RECALL:
        return num_rel > 0 ? hits / (double)num_rel : 0.0;
    case SET_RELATIVE_P: {
        int64_t limit = num_ret < num_rel ? num_ret : num_rel;
        return limit > 0 ? hits / (double)limit : 0.0;
    }
    case SET_MAP: { /* c(n)·c(n) / (n·R), the product of counts wrapping as numpy's int64 */
        double ret_rel = (double)(int64_t)((uint64_t)num_ret * (uint64_t)num_rel);
        return ret_rel > 0 ? hits * hits / ret_rel : 0.0;
    }
    case SET_F: {
        double weight = row->list[0];
        double precision = num_ret > 0 ? hits / (double)num_ret : 0.0;
        double recall = num_rel > 0 ? hits / (double)num_rel : 0.0;
        double denominator = weight * precision + recall;
        return denominator > 0 ? (weight + 1.0) * precision * recall / denominator : 0.0;
    }
    case UTILITY: { /* the counts in int64 (wrapping as numpy's), the terms as sets.utility */
        const double *p = row->list;
        uint64_t h = (uint64_t)found, n = (uint64_t)num_ret, r = (uint64_t)num_rel;
        int64_t rest = (int64_t)((uint64_t)spec->num_docs + h - n - r);
        return p[0] * hits + p[1] * (double)(int64_t)(n - h) + p[2] * (double)(int64_t)(r - h) +
               p[3] * (double)rest;
    }
    case RBP_RESID:
        return rbp_residual(topic, s, row);
    case UNJ:
        return unjudged_at(topic, k);
    case OWN_FAMILIES:
        break;
    }
    return NAN; /* (not reached: measure_spec_from takes only the families above) */
}

int measure_topic(const TopicRanking *topic, const MeasureSpec *spec, double *out) {
    int64_t rank_stack[STACK_RELEVANT];
    double sum_stack[STACK_RELEVANT + 1], best_stack[STACK_RELEVANT];
    Scan s;
    s.rank = rank_stack;
    s.ap_sum = sum_stack;
    s.best = best_stack;
    void *scratch = NULL;
    if (topic->num_ret > STACK_RELEVANT) { /* room for every relevant document retrieved */
        Py_ssize_t relevant = 0;
        for (Py_ssize_t i = 0; i < topic->num_ret; i++)
            relevant += topic->grades[i] >= spec->level;
        if (relevant > STACK_RELEVANT) {
            size_t count = (size_t)relevant;
            scratch = malloc(count * sizeof(int64_t) + (2 * count + 1) * sizeof(double));
            if (!scratch)
                return -1;
            s.rank = (int64_t *)scratch;
            s.ap_sum = (double *)(s.rank + count);
            s.best = s.ap_sum + count + 1;
        }
    }
    scan_topic(topic, spec->level, needs_of(spec), &s);
    int status = 0;
    for (Py_ssize_t i = 0; i < spec->rows && status == 0; i++) {
        const MeasureRow *row = &spec->row[i];
        if (row->family < OWN_FAMILIES)
            out[i] = own_value(topic, &s, row, spec);
        else
            status = GAIN_FAMILIES[row->family - OWN_FAMILIES].compute(topic, row, spec, &out[i]);
    }
    free(scratch);
    return status;
}

