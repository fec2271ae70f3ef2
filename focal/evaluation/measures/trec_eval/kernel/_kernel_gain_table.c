/* The gain table of trec_eval's cumulated-gain families (_kernel_gains.h), one topic and row
 * at a time.
 *
 * The gain table (gain_table.py, trec_eval's gain_init.c): the grades named by the row's pairs
 * (`ndcg.1=3,2=9`; a name that is not an integer is ignored), then each grade 0..the topic's
 * largest judged one at its own value, sorted by trec_eval's comparison (the integer part of
 * the gains' difference) as glibc's qsort sorts them: a merge sort. That is every stable
 * sort's order when the comparison is a consistent order (integral gains); for a gain within 1
 * of two gains 1 or more apart, which C leaves undefined, it is what trec_eval built on glibc
 * gives, and the numpy family's order (gain_table.sort_levels). A document gains its grade's
 * first level in that order, 0 without one; the ideal ranking walks the levels from the top
 * (`walk_steps`).
 *
 * No Python object is touched; scratch is malloc'd and freed by gains_free.
 */
#include "_kernel_gains.h"

double gain_log2_rank[LOG2_RANKS]; /* (_kernel_gains.h) */
int gain_log2_ready;

void gain_tables_init(void) {
    if (gain_log2_ready)
        return;
    for (int i = 0; i < LOG2_RANKS; i++)
        gain_log2_rank[i] = log2((double)i + 2.0);
    gain_log2_ready = 1;
}

/* A pair's name as an integer grade, as gain_table._is_int and int() read it: an optional sign
 * and ASCII digits. 0: not one; 1: `grade` set; 2: beyond int64 (matches no grade). */
static int named_grade(const char *name, int64_t *grade) {
    int negative = name[0] == '-';
    const char *p = name + (name[0] == '-' || name[0] == '+');
    uint64_t value = 0, limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    int beyond = 0;
    if (*p == '\0')
        return 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9')
            return 0;
        if (!beyond && value > (limit - (uint64_t)(*p - '0')) / 10)
            beyond = 1;
        if (!beyond)
            value = value * 10 + (uint64_t)(*p - '0');
    }
    *grade = 0;
    if (beyond)
        return 2;
    *grade = negative ? (int64_t)(0 - value) : (int64_t)value;
    return 1;
}

/* trec_eval's comparison of two levels, `(int)(a - b) < 0`, as gain_table._below makes it:
 * a difference of at most -1, without C's cast (undefined for a NaN or a difference beyond
 * int: an infinite difference orders, a NaN does not). */
static int below(const Level *a, const Level *b) { return a->gain - b->gain <= -1.0; }

/* Sorted in place as glibc's qsort sorts trec_eval's table (a merge sort: the first n / 2 and
 * the rest, each sorted so, merged taking the first half's level unless the second's is below
 * it), gain_table.sort_levels' order; `scratch` holds n levels. */
static void sort_levels(Level *x, Level *scratch, Py_ssize_t n) {
    Py_ssize_t half = n / 2, i = 0, j = half, k = 0;
    if (n < 2)
        return;
    sort_levels(x, scratch, half);
    sort_levels(x + half, scratch, n - half);
    while (i < half && j < n)
        scratch[k++] = below(&x[j], &x[i]) ? x[j++] : x[i++];
    while (i < half)
        scratch[k++] = x[i++];
    memcpy(x, scratch, (size_t)k * sizeof(Level)); /* (x[j..n) is in place already) */
}

Py_ssize_t judged_grades(const TopicRanking *topic) {
    Py_ssize_t n = topic->grade_count;
    while (n > 0 && topic->per_grade[n - 1] <= 0)
        n--;
    return n;
}

static double gain_of(const Gains *g, int64_t grade) {
    for (Py_ssize_t i = 0; i < g->levels; i++)
        if (!g->level[i].named_beyond && g->level[i].grade == grade)
            return g->level[i].gain;
    return 0.0;
}

void gains_free(Gains *g) {
    free(g->level);
    free(g->gained);
    free(g->steps);
}

/* The row's gain table for the topic, each rank's gain and the ideal walk (gain_table.py). */
int gains_build(const TopicRanking *topic, const MeasureRow *row, Gains *g) {
    Py_ssize_t judged = judged_grades(topic), named = 0, total = 1;
    memset(g, 0, sizeof *g);
    g->level = malloc((size_t)(row->pairs + judged + 1) * sizeof(Level));
    g->gained = malloc((size_t)(topic->num_ret + 1) * sizeof(double));
    if (!g->level || !g->gained)
        goto fail;
    for (int i = 0; i < row->pairs; i++) {
        Level *at = &g->level[named];
        int read = named_grade(row->pair_names[i], &at->grade);
        if (read) {
            at->named_beyond = read == 2;
            at->gain = row->pair_values[i];
            at->count = 0;
            named++;
        }
    }
    g->levels = named;
    for (Py_ssize_t grade = 0; grade < judged; grade++) {
        Py_ssize_t i = 0;
        while (i < named && (g->level[i].named_beyond || g->level[i].grade != grade))
            i++;
        if (i == named)
            g->level[g->levels++] = (Level){grade, 0, (double)grade, topic->per_grade[grade]};
        else
            g->level[i].count = topic->per_grade[grade];
    }
    Level *scratch = malloc((size_t)(g->levels + 1) * sizeof(Level));
    if (!scratch)
        goto fail;
    sort_levels(g->level, scratch, g->levels);
    free(scratch);
    /* each rank's gain: the grades 0..judged-1 and the two negative ones looked up once */
    double known[2 + 64];
    Py_ssize_t span = judged + 2 < 66 ? judged + 2 : 66;
    for (Py_ssize_t i = 0; i < span; i++)
        known[i] = gain_of(g, (int64_t)i - 2);
    for (Py_ssize_t r = 0; r < topic->num_ret; r++) {
        int64_t grade = topic->grades[r];
        g->gained[r] = grade >= -2 && grade < (int64_t)span - 2 ? known[grade + 2]
                                                                  : gain_of(g, grade);
    }
    /* the ideal walk: top level first, each level's gain once per document, stopping at the
     * first gain that is not positive (kept as the last step) or past the last level (0) */
    g->first = g->levels ? g->level[g->levels - 1].gain : 0.0;
    for (Py_ssize_t i = 0; i < g->levels; i++)
        if (g->level[i].count > 0)
            total += (Py_ssize_t)g->level[i].count;
    g->steps = malloc((size_t)total * sizeof(double));
    if (!g->steps)
        goto fail;
    if (!(g->first > 0.0))
        return 0;
    for (Py_ssize_t i = g->levels - 1; i >= 0; i--) {
        const Level *at = &g->level[i];
        if (at->count <= 0)
            continue;
        if (!(at->gain > 0.0)) {
            g->steps[g->step_count++] = at->gain;
            return 0;
        }
        for (int64_t c = 0; c < at->count; c++)
            g->steps[g->step_count++] = at->gain;
    }
    g->steps[g->step_count++] = 0.0;
    return 0;
fail:
    gains_free(g);
    return -1;
}
