/* The article engine's C part (`_article_kernel`): what its six files share (and, from
 * _kernel_portable.h, the ways of the compiler and machine at hand).
 *
 * _article_kernel.c: the module, and the checks of the buffers it is given;
 * _kernel_index.c: the qrels' per-topic tables filled;
 * _kernel_pairs.c: the look-up of a run's pairs in them, and its repeats;
 * _kernel_plain.c: plain TREC runs read into columns;
 * _kernel_qrels.c: plain TREC qrels read into columns;
 * _kernel_score.c: a run's decimal scores read as Python's float() reads them.
 * docs/trec_eval.md ("Reading", "The article engine", "The C part") says what they do and why.
 *
 * Portable C99 under CPython's limited API (3.11 on: one abi3 build serves every later CPython),
 * no locale (docs/trec_eval.md, "The C part").
 */
#ifndef ARTICLE_KERNEL_H
#define ARTICLE_KERNEL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_kernel_portable.h"

typedef struct {
    const uint8_t *bytes;
    const void *offsets;
    int wide;         /* 64-bit offsets (large_binary) rather than 32-bit */
    Py_ssize_t first; /* row number of the column's first id in the whole run */
    Py_ssize_t rows;
} Column;

static inline int64_t offset_at(const Column *c, Py_ssize_t i) {
    return c->wide ? ((const int64_t *)c->offsets)[i] : (int64_t)((const int32_t *)c->offsets)[i];
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* A 64-bit hash of a byte string; `weak` keeps one bit of it (tests force collisions). */
static inline uint64_t hash_bytes(const uint8_t *p, size_t n, int weak) {
    uint64_t h = (uint64_t)n * 0x9E3779B97F4A7C15ULL, word;
    while (n >= 8) {
        word = load_le64(p);
        h = (h ^ word) * 0xFF51AFD7ED558CCDULL;
        h ^= h >> 32;
        p += 8;
        n -= 8;
    }
    word = 0;
    for (size_t i = 0; i < n; i++) /* the last bytes, little-endian (a short loop, no call) */
        word |= (uint64_t)p[i] << (8 * i);
    h = mix(h ^ word);
    return weak ? (h & 1) : h;
}

typedef struct {
    const int64_t *bases; /* topic t's slots: [bases[t], bases[t + 1]) */
    uint32_t *slots;
    Py_ssize_t topics;
} Tables;


/* Whether two byte strings are equal: inline, as ids are short (a call to memcmp costs more). */
static inline int same_bytes(const uint8_t *a, int64_t n, const uint8_t *b, int64_t m) {
    if (n != m)
        return 0;
    uint64_t x, y;
    for (; n >= 8; a += 8, b += 8, n -= 8) {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y)
            return 0;
    }
    for (; n > 0; n--)
        if (*a++ != *b++)
            return 0;
    return 1;
}

extern uint8_t TOKEN[256]; /* 1 for the bytes a field may hold */

#if KERNEL_SSE2
#include <emmintrin.h>

/* Bit i set when q[i] may not be in a field: below 0x21, above 0x7E, or '#' (compared as
 * signed bytes after flipping their top bit, which orders them as unsigned). */
static inline uint32_t specials16(const uint8_t *q) {
    __m128i v = _mm_loadu_si128((const __m128i *)q);
    __m128i s = _mm_xor_si128(v, _mm_set1_epi8((char)0x80));
    __m128i low = _mm_cmplt_epi8(s, _mm_set1_epi8((char)(0x21 ^ 0x80)));
    __m128i high = _mm_cmpgt_epi8(s, _mm_set1_epi8((char)(0x7E ^ 0x80)));
    __m128i hash = _mm_cmpeq_epi8(v, _mm_set1_epi8('#'));
    return (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(low, high), hash));
}
#endif

/* The end of the field starting at p: the first byte at or after p (before stop) that a field
 * may not hold. Sixteen bytes at a time where SSE2 is (every x86-64): most fields end in the
 * first sixteen, so the loop's one branch is predicted, where a field's end found eight bytes
 * at a time mispredicted about once a field. Otherwise eight bytes at a time: a mask with the
 * high bit of each byte below 0x21, above 0x7E or equal to '#' (each test exact for the lowest
 * byte it flags, the one wanted). */
static inline const uint8_t *field_end(const uint8_t *p, const uint8_t *stop) {
#if KERNEL_SSE2
    for (; stop - p >= 16; p += 16) {
        uint32_t special = specials16(p);
        if (special)
            return p + ctz32(special);
    }
#endif
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    for (uint64_t w; stop - p >= 8; p += 8) {
        w = load_le64(p);
        uint64_t below = (w - ones * 0x21) & ~w & highs;
        uint64_t above = ((w + ones * (0x7F - 0x7E)) | w) & highs;
        uint64_t hashes = w ^ (ones * '#');
        uint64_t hash = (hashes - ones) & ~hashes & highs;
        uint64_t special = below | above | hash;
        if (special)
            return p + (ctz64(special) >> 3);
    }
    while (p < stop && TOKEN[*p])
        p++;
    return p;
}

/* A slot of a table of `rows` rows holds its row + 1 (0: empty) in the low bits `row_bits`
 * gives, and the top bits of the key's hash in the others (a tag: most probes of another key
 * stop there, without reading its bytes). 2 million qrels rows leave 11 bits of tag. */
static inline uint32_t row_bits(Py_ssize_t rows) {
    uint32_t r = (uint32_t)rows;
    return r ? UINT32_MAX >> clz32(r) : 1u;
}

static inline uint32_t tag_of(uint64_t h, uint32_t rows) { return (uint32_t)(h >> 32) & ~rows; }

/* The `count` fields of the line at *p: one space apart, the last one ending at a newline (or
 * at `stop`: a last line without one), none empty. Their starts and ends, and *p moved past the
 * line; 0 when the line is not that.
 *
 * Where SSE2 is, a line within the next 64 bytes is split from one mask of the bytes no field
 * holds (`specials16`): each field ends at the next bit, with no branch that depends on the
 * field's length (finding each field's end in turn was 40% of reading a run, its branches
 * mispredicted). Longer lines, and the last 64 bytes of the buffer, go field by field. */
static inline int split_line(const uint8_t **at, const uint8_t *stop, int count,
                             const uint8_t **field, const uint8_t **ends) {
    const uint8_t *p = *at;
#if KERNEL_SSE2
    if (stop - p >= 64) {
        uint64_t mask = (uint64_t)specials16(p) | (uint64_t)specials16(p + 16) << 16 |
                        (uint64_t)specials16(p + 32) << 32 | (uint64_t)specials16(p + 48) << 48;
        const uint8_t *start = p;
        int f = 0;
        for (; f < count && mask; f++, mask &= mask - 1) {
            const uint8_t *end = p + ctz64(mask);
            if (end == start || *end != (f == count - 1 ? '\n' : ' '))
                return 0;
            field[f] = start;
            ends[f] = end;
            start = end + 1;
        }
        if (f == count) {
            *at = start;
            return 1;
        }
    }
#endif
    for (int f = 0; f < count; f++) {
        field[f] = p;
        p = field_end(p, stop);
        ends[f] = p;
        int last = f == count - 1;
        if (p == field[f] || !(last ? (p == stop || *p == '\n') : (p < stop && *p == ' ')))
            return 0;
        p += p < stop; /* past the space or the newline (a last line may end at stop) */
    }
    *at = p;
    return 1;
}

/* Bring [from, to) into the cache, at most REGION bytes, with a load a cache line (why loads and
 * not prefetch hints: fetch_topic in _kernel_pairs.c). */
enum { REGION = 1 << 15 };

static volatile uint8_t fetched; /* where the loaded bytes go, so that the loads are kept */

static inline void fetch_region(const char *from, const char *to) {
    uint8_t loaded = 0;
    size_t size = to > from ? (size_t)(to - from) : 0;
    for (size_t i = 0; i < size && i < REGION; i += 64)
        loaded ^= ((const volatile uint8_t *)from)[i];
    fetched = loaded;
}

int take(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t itemsize, const char *what);
int take_column(PyObject *offsets, PyObject *bytes, Py_buffer views[2], Column *c);
int take_tables(PyObject *bases, PyObject *slots, Py_buffer views[2], Tables *t);
int overlapping(const Py_buffer *written, const Py_buffer *read);

enum { NOT_A_SCORE = 0, SCORE = 1, SCORE_LATER = 2 }; /* what read_score found (_kernel_score.c) */
int read_score(const uint8_t *p, const uint8_t *end, double *value);
int read_grade(const uint8_t *p, const uint8_t *end, int64_t *value); /* _kernel_qrels.c */
int64_t probe(const Tables *t, int32_t code, const Column *judged, const uint8_t *own,
              int64_t size, uint64_t h);

PyObject *kernel_index_pairs(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *kernel_find_pairs(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *kernel_parse_run(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *kernel_parse_qrels(PyObject *self, PyObject *args);
/* _kernel_measures.c: rows of ranked topics measured (tests, and the engine's loops) */
PyObject *kernel_measure_topics(PyObject *self, PyObject *args);
/* _kernel_gains.c: the gain families' table of log2 discounts, filled once at the import */
void gain_tables_init(void);
/* _kernel_evaluate.c (with _kernel_topics.c, _kernel_ids.c, _kernel_text_rows.c: see
 * _kernel_pass.h): plain qrels and a plain run, topic blocks, evaluated in one pass */
PyObject *kernel_evaluate_block(PyObject *self, PyObject *args, PyObject *kwargs);
/* _kernel_groups.c: the first look at plain qrels and a run, and their topics joined */
PyObject *kernel_index_groups(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *kernel_join_groups(PyObject *self, PyObject *args);
/* _kernel_merge.c: the topic index sorted outside memory (sorted runs merged and joined) */
PyObject *kernel_sort_groups(PyObject *self, PyObject *args);
PyObject *kernel_merge_join(PyObject *self, PyObject *args);

#endif
