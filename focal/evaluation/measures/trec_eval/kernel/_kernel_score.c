/* A run's scores read as Python's float() reads them: the double nearest the decimal (ties to
 * the even one), whatever the C library's locale says a decimal point is.
 *
 * A plain score is -?D+(.D+)?([eE][+-]?D+)? (docs/trec_eval.md, "Reading"). With up to 19
 * significant digits (a mantissa m below 2^64) and a power of ten within 10^22 it is read here,
 * without the interpreter lock:
 * - m up to 2^53: one division or product of two exact doubles, rounded once, which is the
 *   correctly rounded value (Clinger's fast path), where the compiler evaluates doubles in
 *   double precision (FLT_EVAL_METHOD 0; x87 code does not);
 * - otherwise an estimate from doubles (within a few units in the last place), corrected
 *   against the exact decimal: its distance from the estimate, in integers of 128 bits, says
 *   whether a neighbour is nearer, and the estimate moves until none is (`settle`; repr() of a
 *   double writes 17 digits: most such scores end here).
 * Any other score (more digits, larger powers, overflow, underflow) answers SCORE_LATER: the
 * caller reads it with the interpreter's own reader (PyOS_string_to_double, float()'s, the same
 * bits by definition) once it holds the lock again. tests/evaluation/measures/engines/
 * test_plain_files.py and test_kernel_fuzz.py compare every way with float(), bit for bit.
 */
#include "_article_kernel.h"

#include <float.h>

#if DBL_MANT_DIG != 53 || DBL_MAX_EXP != 1024 || FLT_RADIX != 2
#error "Focal's C part reads scores into IEEE 754 doubles (binary64), as CPython requires"
#endif

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0 && !defined(FOCAL_KERNEL_PORTABLE)
#define ROUNDED_ONCE 1 /* a double operation is rounded once, to double: Clinger's path holds */
#else
#define ROUNDED_ONCE 0
#endif

static const double POWERS[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

enum { LIMBS = 4 }; /* 128 bits: the integers compared below stay under 2^118 */

typedef struct {
    uint32_t limb[LIMBS]; /* least significant first */
} Wide;

static const uint32_t FIVES[14] = {1,       5,        25,        125,        625,
                                   3125,    15625,    78125,     390625,     1953125,
                                   9765625, 48828125, 244140625, 1220703125}; /* 5^0..5^13 */

static void wide_set(Wide *w, uint64_t value) {
    memset(w, 0, sizeof *w);
    w->limb[0] = (uint32_t)value;
    w->limb[1] = (uint32_t)(value >> 32);
}

/* w times f; 0 when the product does not fit (never for the scores read here). */
static int wide_times(Wide *w, uint32_t f) {
    uint64_t carry = 0;
    for (int i = 0; i < LIMBS; i++) {
        uint64_t x = (uint64_t)w->limb[i] * f + carry;
        w->limb[i] = (uint32_t)x;
        carry = x >> 32;
    }
    return carry == 0;
}

static int wide_times_five(Wide *w, int power) { /* w times 5^power */
    for (; power > 13; power -= 13)
        if (!wide_times(w, FIVES[13]))
            return 0;
    return wide_times(w, FIVES[power]);
}

/* w times 2^bits; 0 when the product does not fit. */
static int wide_shift(Wide *w, int bits) {
    if (bits >= 32 * LIMBS)
        return 0;
    int words = bits / 32, rest = bits % 32;
    for (int i = LIMBS - words; i < LIMBS; i++)
        if (w->limb[i])
            return 0;
    if (rest && (w->limb[LIMBS - words - 1] >> (32 - rest)))
        return 0;
    for (int i = LIMBS - 1; i >= 0; i--) {
        uint64_t high = i >= words ? w->limb[i - words] : 0;
        uint64_t low = rest && i > words ? w->limb[i - words - 1] : 0;
        w->limb[i] = (uint32_t)((high << rest) | (rest ? low >> (32 - rest) : 0));
    }
    return 1;
}

static int wide_compare(const Wide *a, const Wide *b) {
    for (int i = LIMBS - 1; i >= 0; i--)
        if (a->limb[i] != b->limb[i])
            return a->limb[i] < b->limb[i] ? -1 : 1;
    return 0;
}

static Wide wide_minus(const Wide *a, const Wide *b) { /* a - b, a >= b */
    Wide d;
    uint64_t borrow = 0;
    for (int i = 0; i < LIMBS; i++) {
        uint64_t x = (uint64_t)a->limb[i] - b->limb[i] - borrow;
        d.limb[i] = (uint32_t)x;
        borrow = (x >> 32) & 1;
    }
    return d;
}

/* *value, an estimate of m * 10^power (m > 0) within a few units in the last place, made the
 * correctly rounded value; 0 when that could not be settled here.
 *
 * For the double d = M * 2^e, all three of the decimal m * 5^power * 2^power, d and half the gap
 * above d (2^(e - 1)) are written as integers in one unit (the powers of two and five moved to
 * whichever side keeps them whole): the decimal's distance from d, against that half gap (or
 * half the gap below, half as large at the bottom of a binade), says whether d is the nearest
 * double or which neighbour is nearer; a tie goes to the even one, as in float(). */
static int settle(uint64_t m, int power, double *value) {
    uint64_t bits;
    memcpy(&bits, value, 8);
    for (int moves = 0; moves < 8; moves++) {
        int biased = (int)(bits >> 52);
        if (biased < 1 || biased > 2046)
            return 0;
        uint64_t fraction = bits & ((1ULL << 52) - 1);
        int e = biased - 1075, shift = power - e + 1;
        Wide decimal, twice, half; /* the decimal; d / 2^(e - 1) = 2M; the half gap, 1 */
        wide_set(&decimal, m);
        wide_set(&twice, 2 * (fraction | (1ULL << 52)));
        wide_set(&half, 1);
        int fits = power >= 0 ? wide_times_five(&decimal, power)
                              : wide_times_five(&twice, -power) && wide_times_five(&half, -power);
        fits = fits && (shift >= 0 ? wide_shift(&decimal, shift)
                                   : wide_shift(&twice, -shift) && wide_shift(&half, -shift));
        if (!fits)
            return 0;
        int side = wide_compare(&decimal, &twice);
        if (side != 0) {
            Wide gap = side > 0 ? wide_minus(&decimal, &twice) : wide_minus(&twice, &decimal);
            if (side < 0 && fraction == 0 && !wide_shift(&gap, 1)) /* the gap below is half */
                return 0;
            int beyond = wide_compare(&gap, &half);
            if (beyond > 0 || (beyond == 0 && (bits & 1))) { /* a neighbour is nearer, or ties */
                bits = side > 0 ? bits + 1 : bits - 1;
                continue;
            }
        }
        memcpy(value, &bits, 8);
        return 1;
    }
    return 0;
}

/* The score in [p, end): SCORE with *value set, SCORE_LATER (of the plain form, for the
 * interpreter's reader), or NOT_A_SCORE. */
int read_score(const uint8_t *p, const uint8_t *end, double *value) {
    int negative = p < end && *p == '-';
    p += negative;
    uint64_t m = 0;
    int64_t digits = 0, significant = 0, fraction = 0, exponent = 0, exponent_digits = 0;
    int exponent_negative = 0;
    for (; p < end && *p >= '0' && *p <= '9'; p++, digits++) {
        significant += significant > 0 || *p != '0';
        m = significant <= 19 ? m * 10 + (uint64_t)(*p - '0') : m;
    }
    if (digits == 0)
        return NOT_A_SCORE;
    if (p < end && *p == '.') {
        for (p++; p < end && *p >= '0' && *p <= '9'; p++, fraction++) {
            significant += significant > 0 || *p != '0';
            m = significant <= 19 ? m * 10 + (uint64_t)(*p - '0') : m;
        }
        if (fraction == 0)
            return NOT_A_SCORE;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            exponent_negative = *p++ == '-';
        for (; p < end && *p >= '0' && *p <= '9'; p++, exponent_digits++)
            exponent = exponent < 100000 ? exponent * 10 + (*p - '0') : exponent;
        if (exponent_digits == 0)
            return NOT_A_SCORE;
    }
    if (p != end)
        return NOT_A_SCORE;
    int64_t power = (exponent_negative ? -exponent : exponent) - fraction;
    double v;
    if (m == 0) {
        v = 0.0; /* every digit zero: zero whatever the exponent */
    } else if (significant > 19 || power < -22 || power > 22) {
        return SCORE_LATER;
    } else if (ROUNDED_ONCE && m <= (1ULL << 53)) {
        v = power < 0 ? (double)m / POWERS[-power] : (double)m * POWERS[power];
    } else {
        v = power < 0 ? (double)m / POWERS[-power] : (double)m * POWERS[power];
        if (!settle(m, (int)power, &v))
            return SCORE_LATER;
    }
    *value = negative ? -v : v;
    return SCORE;
}
