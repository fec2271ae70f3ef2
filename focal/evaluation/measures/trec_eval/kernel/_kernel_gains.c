/* trec_eval's cumulated-gain families in C, one topic at a time (_kernel_measures.h): binG, G,
 * dcg, ideal_dcg, ndcg, ndcg_cut, ndcg_rel and Rndcg, and rbp, whose gains are the same table's.
 * Each gives the value the numpy families of families/gains.py (with gain_table.py and
 * ideal.py; rbp: top_ranks.py) give for the topic, with the same additions in the same order,
 * as those follow trec_eval's m_ndcg.c, m_ndcg_cut.c, m_dcg.c, m_ideal_dcg.c, m_ndcg_rel.c,
 * m_Rndcg.c, m_G.c, m_binG.c and m_rbp.c (docs/trec_eval.md, "The C part"). The gain table
 * they share, and its order, are _kernel_gain_table.c's.
 *
 * G's normaliser adds the ideal gains one after the other, as trec_eval and CPython 3.11's
 * sum() do (3.12's sum() compensates: the same for gains that add exactly). ndcg and ndcg_cut
 * without pairs read the grades themselves and the ideal of the qrels' positive grades
 * (ideal.py), as the numpy family does. log2 is C's: Python's math.log2 calls it, and numpy's
 * log2 gives the same values on x86-64 without AVX-512 (all of 2..2,000,001 checked; numpy may
 * take its own AVX-512 code elsewhere: the tests would say).
 *
 * No Python object is touched: the families may run without the interpreter lock. Scratch is
 * malloc'd per call and freed; -1 only when it cannot be had.
 */
#include "_kernel_gains.h"

/* Σ v(i)/log2(i+2) over the nonzero values (gains._discounted). */
static double discounted(const double *values, Py_ssize_t n) {
    double found = 0.0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (values[i] != 0)
            found += values[i] / discount(i);
    return found;
}

static double ideal_sum(const Gains *g) { /* the ideal DCG: the steps but the last */
    return discounted(g->steps, g->step_count ? g->step_count - 1 : 0);
}

/* A C double division as gains._ratio writes it: x/0 is ±inf (by x's sign), 0/0 NaN. */
static double ratio(double numerator, double denominator) {
    if (denominator != 0.0)
        return numerator / denominator;
    return numerator == 0.0 ? NAN : copysign(INFINITY, numerator);
}

/* m_ndcg_rel.c step for step (gains._ndcg_rel): ndcg so far at each relevant rank, and at
 * the end for the relevant documents not retrieved; 0 unless that sum is positive. */
static double ndcg_rel_of(const Gains *g, Py_ssize_t n) {
    const double *gained = g->gained, *steps = g->steps;
    Py_ssize_t m = g->step_count, i = 0;
    double results = 0.0, best = 0.0, total = 0.0;
    int64_t relevant = 0, found = 0;
    for (; i < n && i < m; i++) {
        double discount_i = discount(i);
        if (gained[i] != 0)
            results += gained[i] / discount_i;
        if (steps[i] > 0.0) {
            relevant++;
            best += steps[i] / discount_i;
        }
        if (gained[i] > 0) {
            total += ratio(results, best);
            found++;
        }
    }
    for (; i < n; i++) {
        if (gained[i] != 0)
            results += gained[i] / discount(i);
        if (gained[i] > 0) {
            total += ratio(results, best);
            found++;
        }
    }
    for (; i < m; i++)
        if (steps[i] > 0.0) {
            relevant++;
            best += steps[i] / discount(i);
        }
    total += ratio((double)(relevant - found) * results, best);
    return total > 0.0 ? total / (double)relevant : 0.0;
}

/* m_Rndcg.c step for step (gains._rndcg): ndcg sampled wherever the ideal gain changes. */
static double rndcg_of(const Gains *g, Py_ssize_t n, int64_t num_rel) {
    const double *gained = g->gained, *steps = g->steps;
    Py_ssize_t m = g->step_count, i = 0;
    double results = 0.0, best = 0.0, total = 0.0, previous = g->first;
    int64_t changes = 0;
    if (!num_rel)
        return 0.0;
    for (; i < n && i < m; i++) {
        double discount_i = discount(i);
        if (steps[i] != previous) {
            if (best > 0.0) {
                total += results / best;
                changes++;
            }
            previous = steps[i];
        }
        if (gained[i] != 0)
            results += gained[i] / discount_i;
        if (steps[i] > 0.0)
            best += steps[i] / discount_i;
    }
    if (i < n) {
        for (; i < n; i++)
            if (gained[i] != 0)
                results += gained[i] / discount(i);
        if (best > 0.0) {
            total += results / best;
            changes++;
        }
    }
    for (; i < m; i++) {
        if (steps[i] != previous) {
            if (best > 0.0) {
                total += results / best;
                changes++;
            }
            previous = steps[i];
        }
        if (steps[i] > 0.0)
            best += steps[i] / discount(i);
    }
    return changes ? total / (double)changes : NAN;
}

/* m_G.c (gains._g): a rank's cost is its ideal gain, at least 1; ÷ the ideal gains' sum. */
static double g_of(const Gains *g, Py_ssize_t n) {
    const double *gained = g->gained, *steps = g->steps;
    Py_ssize_t m = g->step_count, i = 0;
    double value = 0.0, so_far = 0.0, cost = 0.0, total = 0.0;
    for (; i < n && i < m; i++) {
        so_far += gained[i];
        cost += steps[i] >= 1.0 ? steps[i] : 1.0;
        if (gained[i] != 0)
            value += gained[i] / log2(2 + cost - so_far);
    }
    for (; i < n; i++) {
        so_far += gained[i];
        cost += 1.0;
        if (gained[i] != 0)
            value += gained[i] / log2(2 + cost - so_far);
    }
    for (i = 0; i + 1 < m; i++) /* the ideal's gains, summed one after the other */
        total += steps[i];
    return total > 0.0 ? value / total : 0.0;
}

enum { DCG, IDEAL_DCG, NDCG, NDCG_REL, RNDCG, G };

/* The families read through the gain table, one topic's value. */
static int through_gains(const TopicRanking *topic, const MeasureRow *row, int which,
                         double *out) {
    Gains g;
    if (gains_build(topic, row, &g) < 0)
        return -1;
    Py_ssize_t n = topic->num_ret;
    double found, best;
    switch (which) {
    case DCG:
        *out = discounted(g.gained, n);
        break;
    case IDEAL_DCG:
        *out = ideal_sum(&g);
        break;
    case NDCG:
        found = discounted(g.gained, n);
        best = ideal_sum(&g);
        *out = best > 0.0 ? found / best : 0.0;
        break;
    case NDCG_REL:
        *out = ndcg_rel_of(&g, n);
        break;
    case RNDCG:
        *out = rndcg_of(&g, n, topic->num_rel);
        break;
    default:
        *out = g_of(&g, n);
    }
    gains_free(&g);
    return 0;
}

/* ndcg and ndcg_cut without gains given (gains.ndcg): the grade (> 0) over log2(rank + 1)
 * summed to the cut-off, over the ideal DCG of the positive judged grades, best first, summed
 * to the same rank (or to the last; ideal.IdealDCG.at). */
static double ndcg_of_grades(const TopicRanking *topic, const MeasureRow *row) {
    double found = 0.0, best = 0.0;
    Py_ssize_t judged = judged_grades(topic);
    int64_t rank = 0;
    for (Py_ssize_t r = 0; r < topic->num_ret; r++) {
        if (row->has_parameter && (double)(r + 1) > row->parameter)
            break;
        int64_t grade = topic->grades[r];
        found += (grade > 0 ? (double)grade : 0.0) / discount(r);
    }
    for (Py_ssize_t grade = judged - 1; grade >= 1; grade--)
        for (int64_t c = 0; c < topic->per_grade[grade]; c++, rank++) {
            if (row->has_parameter && (double)(rank + 1) > row->parameter)
                return best > 0.0 ? found / best : 0.0;
            best += (double)grade / discount((Py_ssize_t)rank);
        }
    return best > 0.0 ? found / best : 0.0;
}

static int family_ndcg(const TopicRanking *topic, const MeasureRow *row, const MeasureSpec *spec,
                       double *out) {
    (void)spec;
    if (row->pairs > 0)
        return through_gains(topic, row, NDCG, out);
    *out = ndcg_of_grades(topic, row);
    return 0;
}

/* binG (gains.binary_g): Σ over relevant ranks r of 1/log2(2 + r − c(r)), ÷ R (0 without). */
static int family_bin_g(const TopicRanking *topic, const MeasureRow *row, const MeasureSpec *spec,
                        double *out) {
    double sum = 0.0;
    int64_t found = 0;
    (void)row;
    for (Py_ssize_t r = 0; r < topic->num_ret; r++)
        if (topic->grades[r] >= spec->level) {
            found++;
            sum += 1.0 / discount((Py_ssize_t)(r + 1 - found)); /* log2(2 + r - c(r)) */
        }
    *out = topic->num_rel > 0 ? sum / (double)topic->num_rel : 0.0;
    return 0;
}

#define THROUGH_GAINS(fn, which)                                                                \
    static int fn(const TopicRanking *topic, const MeasureRow *row, const MeasureSpec *spec,    \
                  double *out) {                                                                \
        (void)spec;                                                                             \
        return through_gains(topic, row, which, out);                                           \
    }
THROUGH_GAINS(family_g, G)
THROUGH_GAINS(family_dcg, DCG)
THROUGH_GAINS(family_ideal_dcg, IDEAL_DCG)
THROUGH_GAINS(family_ndcg_rel, NDCG_REL)
THROUGH_GAINS(family_rndcg, RNDCG)

/* rbp (top_ranks.rank_biased_precision, m_rbp.c): (1 − p)·Σ g(r)·p^(r−1) in rank order, the
 * powers one multiplication a rank, p = 0.9 unless `rbp.p=...` (the last one given), the gain
 * table's gains rescaled to [0, 1] when any lies outside (a grade without a level still gains
 * 0), as the numpy family rescales its gain table: low and high start at 0, as 10.0's
 * uninitialised min and max behave (top_ranks._rescaled), so no range is ever 0. */
static int family_rbp(const TopicRanking *topic, const MeasureRow *row, const MeasureSpec *spec,
                      double *out) {
    Gains g;
    (void)spec;
    if (gains_build(topic, row, &g) < 0)
        return -1;
    double p = 0.9, low = 0.0, high = 0.0, power = 1.0, total = 0.0;
    for (int i = 0; i < row->pairs; i++)
        if (strcmp(row->pair_names[i], "p") == 0)
            p = row->pair_values[i];
    for (Py_ssize_t i = 0; i < g.levels; i++) { /* 0 first; Python keeps the first of equals */
        if (g.level[i].gain < low)
            low = g.level[i].gain;
        if (g.level[i].gain > high)
            high = g.level[i].gain;
    }
    int rescale = low < 0 || high > 1;
    for (Py_ssize_t r = 0; r < topic->num_ret; r++) {
        double gain = g.gained[r];
        if (rescale) {
            Py_ssize_t i = 0;
            int64_t grade = topic->grades[r];
            while (i < g.levels && (g.level[i].named_beyond || g.level[i].grade != grade))
                i++;
            gain = i < g.levels ? (g.level[i].gain - low) / (high - low) : 0.0;
        }
        total += gain != 0 ? gain * power : 0.0;
        power *= p;
    }
    *out = (1.0 - p) * total;
    gains_free(&g);
    return 0;
}

const FamilyEntry GAIN_FAMILIES[] = {
    {"rbp", family_rbp},
    {"binG", family_bin_g},         {"G", family_g},
    {"dcg", family_dcg},            {"ideal_dcg", family_ideal_dcg},
    {"ndcg", family_ndcg},          {"ndcg_rel", family_ndcg_rel},
    {"Rndcg", family_rndcg},        {"ndcg_cut", family_ndcg},
};
const int GAIN_FAMILY_COUNT = (int)(sizeof GAIN_FAMILIES / sizeof GAIN_FAMILIES[0]);
