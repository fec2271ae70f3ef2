/* The whole-file pass of plain qrels and a plain run (docs/trec_eval.md, "The C part"): what
 * its two files share.
 *
 * _kernel_groups.c: the first look at each file, chunk by chunk (every line plain? where does
 * each topic's group of lines lie?), and the two files' topics joined in trec_eval's order;
 * _kernel_evaluate.c: the Python entry that evaluates a block of topics from the bytes of their
 * lines, _kernel_topics.c the evaluation itself, _kernel_text_rows.c relstring's text;
 * _kernel_ids.c: tables of ids and their byte order;
 * _kernel_merge.c: the topic index of files of many topics, sorted outside memory (sorted runs
 * in a temporary file, merged and joined: engine/topic_index.py).
 * engine/plain_pass.py drives both. A line is "plain" as the readers of _kernel_plain.c and
 * _kernel_qrels.c take it (six or four fields of printable ASCII but `#`, one space apart), with
 * two more refusals that leave the file to the numpy engine: a score the interpreter would have
 * to read (read_score's SCORE_LATER: more than 19 digits, powers beyond 10^22, overflow), and a
 * grade above PASS_GRADE_LIMIT (a per-grade table of that size is not worth a fast path).
 */
#ifndef KERNEL_PASS_H
#define KERNEL_PASS_H

#include "_article_kernel.h"
#include "_kernel_measures.h"

#define PASS_GRADE_LIMIT (1 << 20)

typedef struct {
    const uint8_t *at;
    int64_t size;
} Bytes;

/* Byte order of two ids, as strcmp and Python's bytes order them (trec_eval's topic order). */
static inline int compare_ids(const uint8_t *a, int64_t n, const uint8_t *b, int64_t m) {
    int64_t shorter = n < m ? n : m;
    int c = shorter > 0 ? memcmp(a, b, (size_t)shorter) : 0;
    return c != 0 ? c : (n > m) - (n < m);
}

/* Whether the fields of a line split by split_line are plain for the pass: a grade (qrels, four
 * fields) -?D{1,18} of at most PASS_GRADE_LIMIT, or a score (run, six fields) read here. */
static inline int plain_fields(int count, const uint8_t *const *field, const uint8_t *const *ends,
                               int64_t *grade, double *score) {
    if (count == 4)
        return read_grade(field[3], ends[3], grade) && *grade <= PASS_GRADE_LIMIT;
    return read_score(field[4], ends[4], score) == SCORE;
}

/* A table of distinct byte strings (open addressing): each key's number, in order of first
 * addition. Slots hold the top 32 bits of the hash and the number + 1. */
typedef struct {
    uint64_t *slots;
    uint64_t mask;
    Bytes *keys;
    int64_t count, room;
} IdTable;

/* Empty, with room for `expected` keys without growing; 0 when memory runs out. */
int ids_reset(IdTable *t, int64_t expected);
void ids_free(IdTable *t);
/* The number of the key (hash h): found, or added as the next (*added set); -1 out of memory. */
int64_t ids_add(IdTable *t, const uint8_t *at, int64_t size, uint64_t h, int *added);
/* The number of the key, or -1. */
int64_t ids_find(const IdTable *t, const uint8_t *at, int64_t size, uint64_t h);
/* Byte strings: an array of them (`keys`), or their bytes concatenated (`ids`, the i-th ending
 * at ends[i]): the first look's index keeps only the latter, a few bytes a topic. */
typedef struct {
    const Bytes *keys;
    const uint8_t *ids;
    const int32_t *ends;
} Keys;

static inline Bytes key_at(const Keys *k, int64_t i) {
    if (k->keys != NULL)
        return k->keys[i];
    int64_t from = i > 0 ? k->ends[i - 1] : 0;
    return (Bytes){k->ids + from, k->ends[i] - from};
}

/* Positions 0..count-1 of the keys in their byte order, equal keys in position order (a merge
 * sort: malloc'd, NULL when memory runs out or with 2^31 keys or more; 8 bytes a key while it
 * runs: the first look's index is sorted whole). */
int32_t *ids_sorted(const Keys *keys, int64_t count);

/* The evaluation of a block (_kernel_topics.c). */
typedef struct { /* a run line as ranked: its score as the version compares it, its document */
    double key;
    Bytes doc;
} Entry;

enum { STOP_NONE = 0, STOP_JUDGED_TWICE = 1, STOP_TWICE = 2 };

typedef struct { /* one topic of the block, as evaluated */
    int64_t topic, positive, judged; /* its number in the block's table; qrels grades > 0, >= 0 */
    int answered, evaluated, stop;   /* run lines? values? STOP_*: where trec_eval stops */
    Bytes stop_doc;                  /* the document named by the stop */
    int64_t grades_from, grades_to, per_grade_from, per_grade_to; /* what it keeps in `kept` */
    int64_t num_rel, num_nonrel;
} Result;

typedef struct { /* a growable array of int64 */
    int64_t *at;
    int64_t count, room;
} Ints;

int ints_reserve(Ints *v, int64_t more);

typedef struct {
    const MeasureSpec *spec; /* NULL: ranking only (tests) */
    int64_t text_grades;     /* the first ranked grades kept for relstring's rows */
    int64_t max_docs;        /* -1: every document */
    int judged_only, stand_in, level;
    IdTable docs;
    Entry *entries;
    int64_t *seen, *per_grade, *grades, entry_room, seen_room, grade_room, per_grade_room;
} Scratch;

/* The topics of a block evaluated (no interpreter lock): 1 done, 0 a line not plain, -1 out of
 * memory. results[] in the topics' byte order, *done of them (up to a stop). */
int evaluate_lines(const Py_buffer *qrels_view, const Py_buffer *run_view, int version,
                   Scratch *s, IdTable *topics, IdTable *unknown, Bytes *tag,
                   Result **results, int64_t *done, double **values, Ints *kept);

/* relstring's rows (_kernel_text_rows.c): per row of the selection, -1 for a number, else the
 * characters relstring prints (its length); the longest. */
typedef struct {
    Py_ssize_t rows;
    int64_t *length;
    int64_t longest;
} TextRows;

/* The rows split: *numeric a new list of the other rows (measure_spec_from's). 0 done; 1 a
 * relstring row this part does not take (a length that is not a finite number: the numpy engine
 * decides); -1 with an exception set. Needs the interpreter lock. */
int text_rows_from(PyObject *rows, TextRows *text, PyObject **numeric);
void text_rows_free(TextRows *text);
/* relstring of a topic's ranked grades: a str, or NULL with an exception set. */
PyObject *relstring_of(const int64_t *grades, int64_t count, int64_t length);

#endif
