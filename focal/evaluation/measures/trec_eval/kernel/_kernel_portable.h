/* The article engine's C part on any compiler and machine: the bit scans, SSE2 where it is,
 * words read from bytes as little-endian numbers (docs/trec_eval.md, "The C part").
 *
 * GCC and Clang have builtins for the scans, MSVC its _BitScanForward/_BitScanReverse; any other
 * compiler gets plain C. A known little-endian machine reads a word with one load; any other
 * assembles it from its bytes, so that hashes, tables and the field scans are the same
 * everywhere. FOCAL_KERNEL_PORTABLE (a build-time define, never set by the install) takes the
 * plain-C way of each on any compiler, so that the tests check those ways on this machine too
 * (tests/evaluation/measures/trec_eval/test_kernel_fuzz.py).
 */
#ifndef KERNEL_PORTABLE_H
#define KERNEL_PORTABLE_H

#include <stdint.h>
#include <string.h>

#if defined(FOCAL_KERNEL_PORTABLE)
#define KERNEL_SSE2 0
#elif defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#define KERNEL_SSE2 1
#else
#define KERNEL_SSE2 0
#endif

/* Bit scans of a nonzero word: trailing zeros (the lowest bit set), leading zeros. */
#if !defined(FOCAL_KERNEL_PORTABLE) && (defined(__GNUC__) || defined(__clang__))
static inline int ctz32(uint32_t x) { return __builtin_ctz(x); }
static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int clz32(uint32_t x) { return __builtin_clz(x); }
#elif !defined(FOCAL_KERNEL_PORTABLE) && defined(_MSC_VER)
#include <intrin.h>
static inline int ctz32(uint32_t x) {
    unsigned long i;
    _BitScanForward(&i, x);
    return (int)i;
}
static inline int ctz64(uint64_t x) {
    unsigned long i;
#if defined(_M_X64) || defined(_M_ARM64)
    _BitScanForward64(&i, x);
    return (int)i;
#else
    if ((uint32_t)x != 0) {
        _BitScanForward(&i, (uint32_t)x);
        return (int)i;
    }
    _BitScanForward(&i, (uint32_t)(x >> 32));
    return (int)i + 32;
#endif
}
static inline int clz32(uint32_t x) {
    unsigned long i;
    _BitScanReverse(&i, x);
    return 31 - (int)i;
}
#else
static inline int ctz64(uint64_t x) {
    int n = 0;
    for (; (x & 0xFF) == 0; x >>= 8)
        n += 8;
    for (; (x & 1) == 0; x >>= 1)
        n++;
    return n;
}
static inline int ctz32(uint32_t x) { return ctz64(x); }
static inline int clz32(uint32_t x) {
    int n = 0;
    for (; (x & 0xFF000000u) == 0; x <<= 8)
        n += 8;
    for (; (x & 0x80000000u) == 0; x <<= 1)
        n++;
    return n;
}
#endif

/* Byte order: the first byte of a word read by load_le64 is its lowest, on every machine. */
#if defined(FOCAL_KERNEL_PORTABLE)
#define KERNEL_LITTLE_ENDIAN 0
#elif defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
#define KERNEL_LITTLE_ENDIAN (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#elif defined(_WIN32) /* every Windows machine is little-endian */
#define KERNEL_LITTLE_ENDIAN 1
#else
#define KERNEL_LITTLE_ENDIAN 0
#endif

/* The 8 bytes at p as a little-endian number. */
static inline uint64_t load_le64(const uint8_t *p) {
    uint64_t w;
#if KERNEL_LITTLE_ENDIAN
    memcpy(&w, p, 8);
#else
    w = 0;
    for (int i = 7; i >= 0; i--)
        w = w << 8 | p[i];
#endif
    return w;
}

#endif
