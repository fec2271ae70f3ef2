/* The topics of a block of plain qrels and plain run lines evaluated as trec_eval evaluates
 * them, in its order (_kernel_pass.h; the Python entry: _kernel_evaluate.c).
 *
 * Per qrels topic of the block, in its id's byte order: the qrels' document -> grade table (a
 * hash table of the topic's documents, which finds a document judged twice), the run's lines of
 * the topic ranked as trec_eval ranks them (score descending, then document id descending in byte
 * order; 9.0.x compares scores as C floats: engine/run.py, engine/order.py), cut to -M, checked
 * for a document twice among them (cli/trec_eval/control.py: trec_eval looks no further), each
 * given its grade (GRADE_NONPOOL outside the qrels, GRADE_UNJUDGED for a negative grade), then
 * with -J only the judged ones, the judged counts at the level and per grade, and every row of
 * the selection by measure_topic (_kernel_measures.h). A topic the run does not answer is
 * evaluated only when asked (`stand_in`: 10.0 with -c), as trec_eval's stand-in ranking of one
 * document outside the pool (none with -J: engine/run.py `_with_missing`). The first topic that
 * stops trec_eval (a duplicate) ends the block. All of it runs without the interpreter lock.
 */
#include <float.h>

#include "_kernel_measures.h"
#include "_kernel_pass.h"

typedef struct {
    Bytes doc;
    int64_t topic;
    int64_t grade; /* qrels */
    double key;    /* run: the score as the version compares it */
} Line;

int ints_reserve(Ints *v, int64_t more) {
    if (v->count + more <= v->room)
        return 1;
    int64_t room = 2 * v->room + more + 64;
    int64_t *grown = realloc(v->at, (size_t)room * sizeof(int64_t));
    if (grown == NULL)
        return 0;
    v->at = grown;
    v->room = room;
    return 1;
}

/* The score as `version` compares it: 9.0.x holds it as a C float (round to nearest; beyond
 * the largest float, infinite, as numpy's cast gives it, without C's undefined conversion). */
static double version_key(double score, int version) {
    if (version != 9)
        return score;
    const double overflow = 0x1.ffffffp127; /* FLT_MAX plus half its last place: rounds up */
    if (score >= overflow || score <= -overflow)
        return score > 0 ? (double)HUGE_VALF : -(double)HUGE_VALF;
    return (double)(float)score;
}

/* The lines of [data, stop), `fields` each, appended to *lines: a qrels line's topic numbered in
 * `topics` (added), a run line's looked up there (-1 when absent: its id goes to `unknown`).
 * 1 done, 0 a line not plain, -1 out of memory. */
static int read_lines(const uint8_t *data, const uint8_t *stop, int fields, int version,
                      IdTable *topics, IdTable *unknown, Line **lines, int64_t *count,
                      Bytes *tag) {
    int64_t room = 0;
    for (const uint8_t *at = data; at < stop && (at = memchr(at, '\n', (size_t)(stop - at)));
         at++)
        room++;
    room += stop > data && stop[-1] != '\n';
    if ((*lines = malloc((size_t)(room + 1) * sizeof(Line))) == NULL)
        return -1;
    *count = 0;
    Bytes last_topic = {NULL, 0};
    int64_t last_code = -1;
    for (const uint8_t *p = data; p < stop;) {
        const uint8_t *field[6], *ends[6];
        Line line = {{NULL, 0}, 0, 0, 0.0};
        double score = 0.0;
        if (*count == room || !split_line(&p, stop, fields, field, ends) ||
            !plain_fields(fields, field, ends, &line.grade, &score))
            return 0;
        int64_t size = ends[0] - field[0];
        if (last_topic.at == NULL || !same_bytes(field[0], size, last_topic.at, last_topic.size)) {
            uint64_t h = hash_bytes(field[0], (size_t)size, 0);
            int added = 0;
            last_code = fields == 4 ? ids_add(topics, field[0], size, h, &added)
                                    : ids_find(topics, field[0], size, h);
            if (fields == 4 && last_code < 0)
                return -1;
            if (last_code < 0 && ids_add(unknown, field[0], size, h, &added) < 0)
                return -1;
            last_topic = (Bytes){field[0], size};
        }
        line.doc = (Bytes){field[2], ends[2] - field[2]};
        line.topic = last_code;
        line.key = version_key(score, version);
        (*lines)[(*count)++] = line;
        if (fields == 6)
            *tag = (Bytes){field[5], ends[5] - field[5]};
    }
    return 1;
}

/* Each topic's lines together, in file order: positions into `lines` (from[t] to from[t + 1]);
 * run lines of no qrels topic left out. NULL when memory runs out. */
static int64_t *bucketed(const Line *lines, int64_t count, int64_t topics, int64_t **from) {
    int64_t *order = malloc((size_t)(count + 1) * sizeof(int64_t));
    int64_t *starts = calloc((size_t)(topics + 2), sizeof(int64_t));
    if (order == NULL || starts == NULL) {
        free(order);
        free(starts);
        return NULL;
    }
    for (int64_t i = 0; i < count; i++)
        if (lines[i].topic >= 0)
            starts[lines[i].topic + 2]++;
    for (int64_t t = 0; t < topics; t++)
        starts[t + 2] += starts[t + 1];
    for (int64_t i = 0; i < count; i++) /* starts[t + 1]: where topic t's next line goes */
        if (lines[i].topic >= 0)
            order[starts[lines[i].topic + 1]++] = i;
    *from = starts;
    return order;
}

static int ranked_order(const void *a, const void *b) {
    const Entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return compare_ids(y->doc.at, y->doc.size, x->doc.at, x->doc.size);
}

static int room_for(void **at, int64_t *room, int64_t want, size_t size) {
    if (want <= *room)
        return 1;
    void *grown = realloc(*at, (size_t)want * size);
    if (grown == NULL)
        return 0;
    *at = grown;
    *room = want;
    return 1;
}

/* One topic: its qrels lines `q` and run lines `r` (positions into the lines), evaluated into
 * *res and out[] (and in `kept` the grades relstring prints, or with a ranking only, every
 * grade and the judged documents per grade); 0 when memory runs out. */
static int evaluate_topic(Scratch *s, const Line *qrels, const int64_t *q, int64_t qn,
                          const Line *run, const int64_t *r, int64_t rn, Result *res,
                          double *out, Ints *kept) {
    int64_t largest = -1;
    for (int64_t i = 0; i < qn; i++) {
        int64_t g = qrels[q[i]].grade;
        res->positive += g > 0;
        res->judged += g >= 0;
        largest = g > largest ? g : largest;
    }
    res->answered = rn > 0;
    if (!res->answered && !s->stand_in)
        return 1;
    int64_t m = s->max_docs >= 0 && s->max_docs < rn ? s->max_docs : rn;
    if (!ids_reset(&s->docs, qn + m) ||
        !room_for((void **)&s->seen, &s->seen_room, qn + m + 1, sizeof(int64_t)) ||
        !room_for((void **)&s->per_grade, &s->per_grade_room, largest + 2, sizeof(int64_t)) ||
        !room_for((void **)&s->grades, &s->grade_room, m + 1, sizeof(int64_t)) ||
        !room_for((void **)&s->entries, &s->entry_room, rn + 1, sizeof(Entry)))
        return 0;
    int64_t twice = -1;
    memset(s->per_grade, 0, (size_t)(largest + 1) * sizeof(int64_t));
    for (int64_t i = 0; i < qn; i++) {
        const Line *line = &qrels[q[i]];
        int added = 0;
        int64_t k = ids_add(&s->docs, line->doc.at, line->doc.size,
                            hash_bytes(line->doc.at, (size_t)line->doc.size, 0), &added);
        if (k < 0)
            return 0;
        if (!added) /* control.py names the last such document in order of first mention */
            twice = k > twice ? k : twice;
        s->seen[k] = -1;
        if (line->grade >= 0)
            s->per_grade[line->grade]++;
    }
    if (twice >= 0) {
        res->stop = STOP_JUDGED_TWICE;
        res->stop_doc = s->docs.keys[twice];
        return 1;
    }
    int64_t judged_docs = s->docs.count, count = 0, first_twice = -1;
    if (res->answered) {
        int in_order = 1;
        for (int64_t i = 0; i < rn; i++) {
            s->entries[i] = (Entry){run[r[i]].key, run[r[i]].doc};
            if (i > 0 && in_order) /* (most runs come ranked: no sort) */
                in_order = ranked_order(&s->entries[i - 1], &s->entries[i]) <= 0;
        }
        if (!in_order)
            qsort(s->entries, (size_t)rn, sizeof(Entry), ranked_order);
        for (int64_t i = 0; i < m; i++) {
            const Bytes *doc = &s->entries[i].doc;
            int added = 0;
            int64_t k = ids_add(&s->docs, doc->at, doc->size,
                                hash_bytes(doc->at, (size_t)doc->size, 0), &added);
            if (k < 0)
                return 0;
            if (added)
                s->seen[k] = -1;
            if (s->seen[k] >= 0) { /* control.py names the twice-seen document ranked first */
                first_twice = first_twice < 0 || s->seen[k] < first_twice ? s->seen[k]
                                                                           : first_twice;
                continue;
            }
            s->seen[k] = i;
            int64_t g = k >= judged_docs ? GRADE_NONPOOL
                        : qrels[q[k]].grade < 0 ? GRADE_UNJUDGED : qrels[q[k]].grade;
            if (!s->judged_only || g >= 0)
                s->grades[count++] = g;
        }
        if (first_twice >= 0) {
            res->stop = STOP_TWICE;
            res->stop_doc = s->entries[first_twice].doc;
            return 1;
        }
    } else if (!s->judged_only) {
        s->grades[count++] = GRADE_NONPOOL;
    }
    int64_t level = s->level > 0 ? s->level : 0;
    res->evaluated = 1;
    for (int64_t g = 0; g <= largest; g++) {
        if (g >= level)
            res->num_rel += s->per_grade[g];
        else
            res->num_nonrel += s->per_grade[g];
    }
    int64_t grade_count = largest + 1; /* up to the largest judged grade (GradeTable.levels) */
    TopicRanking topic = {s->grades, (Py_ssize_t)count, res->num_rel, res->num_nonrel,
                          s->per_grade, (Py_ssize_t)(grade_count > 0 ? grade_count : 0)};
    if (s->spec != NULL) {
        int64_t text = count < s->text_grades ? count : s->text_grades;
        if (!ints_reserve(kept, text + 1))
            return 0;
        res->grades_from = kept->count;
        memcpy(kept->at + kept->count, s->grades, (size_t)text * sizeof(int64_t));
        res->grades_to = kept->count += text;
        return measure_topic(&topic, s->spec, out) == 0;
    }
    if (!ints_reserve(kept, count + grade_count + 1))
        return 0;
    res->grades_from = kept->count;
    memcpy(kept->at + kept->count, s->grades, (size_t)count * sizeof(int64_t));
    kept->count += count;
    res->grades_to = res->per_grade_from = kept->count;
    if (grade_count > 0)
        memcpy(kept->at + kept->count, s->per_grade, (size_t)grade_count * sizeof(int64_t));
    kept->count += grade_count > 0 ? grade_count : 0;
    res->per_grade_to = kept->count;
    return 1;
}

/* The topics of a block evaluated (no interpreter lock): 1 done, 0 a line not plain, -1 out of
 * memory. results[] in the topics' byte order, *evaluated of them (up to a stop). */
int evaluate_lines(const Py_buffer *qrels_view, const Py_buffer *run_view, int version,
                          Scratch *s, IdTable *topics, IdTable *unknown, Bytes *tag,
                          Result **results, int64_t *done, double **values, Ints *kept) {
    Line *qrels = NULL, *run = NULL;
    int64_t q_count = 0, r_count = 0, *q_order = NULL, *r_order = NULL, *q_from = NULL,
            *r_from = NULL;
    int32_t *order = NULL;
    const uint8_t *q_data = qrels_view->buf, *r_data = run_view->buf;
    int status = read_lines(q_data, q_data + qrels_view->len, 4, version, topics, unknown, &qrels,
                            &q_count, tag);
    if (status == 1)
        status = read_lines(r_data, r_data + run_view->len, 6, version, topics, unknown, &run,
                            &r_count, tag);
    int64_t count = topics->count, rows = s->spec ? s->spec->rows : 0;
    if (status == 1) {
        q_order = bucketed(qrels, q_count, count, &q_from);
        r_order = bucketed(run, r_count, count, &r_from);
        order = ids_sorted(&(Keys){topics->keys, NULL, NULL}, count);
        *results = calloc((size_t)(count + 1), sizeof(Result));
        *values = malloc((size_t)(count * rows + 1) * sizeof(double));
        status = q_order && r_order && order && *results && *values ? 1 : -1;
    }
    for (int64_t i = 0; status == 1 && i < count; i++) {
        int64_t t = order[i];
        Result *res = &(*results)[i];
        res->topic = t;
        *done = i + 1;
        if (!evaluate_topic(s, qrels, q_order + q_from[t], q_from[t + 1] - q_from[t], run,
                            r_order + r_from[t], r_from[t + 1] - r_from[t], res,
                            *values + i * rows, kept))
            status = -1;
        else if (res->stop != STOP_NONE)
            break;
    }
    free(qrels);
    free(run);
    free(q_order);
    free(r_order);
    free(q_from);
    free(r_from);
    free(order);
    return status;
}
