/* The whole-file pass's tables and order of byte strings (_kernel_pass.h): topic ids and
 * document ids numbered in order of first addition (an open-addressing hash table, as the
 * readers' tables are), and ids put in byte order, trec_eval's topic order, by a merge sort. */
#include "_kernel_pass.h"

int ids_reset(IdTable *t, int64_t expected) {
    uint64_t size = 64;
    while (size < (uint64_t)(2 * expected + 2))
        size *= 2;
    if (t->slots == NULL || t->mask + 1 < size || t->mask + 1 > 4 * size) { /* (a table
         * cleared is never much larger than asked: a topic after a far larger one) */
        free(t->slots);
        t->slots = malloc(size * 8);
        t->mask = t->slots ? size - 1 : 0;
    }
    if (t->room < expected + 1) {
        free(t->keys);
        t->room = expected + 1;
        t->keys = malloc((size_t)t->room * sizeof(Bytes));
    }
    t->count = 0;
    if (t->slots == NULL || t->keys == NULL)
        return 0;
    memset(t->slots, 0, (size_t)(t->mask + 1) * 8);
    return 1;
}

void ids_free(IdTable *t) {
    free(t->slots);
    free(t->keys);
    memset(t, 0, sizeof *t);
}

int64_t ids_find(const IdTable *t, const uint8_t *at, int64_t size, uint64_t h) {
    uint64_t tag = h >> 32;
    for (uint64_t s = h & t->mask;; s = (s + 1) & t->mask) { /* never full: ids_add grows */
        uint64_t entry = t->slots[s];
        if (entry == 0)
            return -1;
        int64_t k = (int64_t)(entry & 0xFFFFFFFFULL) - 1;
        if (entry >> 32 == tag && same_bytes(at, size, t->keys[k].at, t->keys[k].size))
            return k;
    }
}

int64_t ids_add(IdTable *t, const uint8_t *at, int64_t size, uint64_t h, int *added) {
    int64_t k = ids_find(t, at, size, h);
    *added = k < 0;
    if (k >= 0)
        return k;
    if (t->count + 1 >= t->room || (uint64_t)(2 * t->count + 2) > t->mask + 1) {
        int64_t room = 2 * t->room + 16; /* more keys, and a table of twice their room */
        Bytes *keys = realloc(t->keys, (size_t)room * sizeof(Bytes));
        if (keys == NULL)
            return -1;
        t->keys = keys;
        t->room = room;
        uint64_t slots = t->mask + 1;
        while (slots < (uint64_t)(2 * room))
            slots *= 2;
        if (slots != t->mask + 1) {
            uint64_t *table = calloc(slots, 8);
            if (table == NULL)
                return -1;
            for (int64_t i = 0; i < t->count; i++) {
                uint64_t g = hash_bytes(keys[i].at, (size_t)keys[i].size, 0), s = g & (slots - 1);
                while (table[s] != 0)
                    s = (s + 1) & (slots - 1);
                table[s] = (g >> 32 << 32) | (uint64_t)(i + 1);
            }
            free(t->slots);
            t->slots = table;
            t->mask = slots - 1;
        }
    }
    uint64_t s = h & t->mask;
    while (t->slots[s] != 0)
        s = (s + 1) & t->mask;
    t->keys[t->count] = (Bytes){at, size};
    t->slots[s] = (h >> 32 << 32) | (uint64_t)(t->count + 1);
    return t->count++;
}

static int before(const Keys *keys, int32_t a, int32_t b) { /* a's key before b's, or equal */
    Bytes x = key_at(keys, a), y = key_at(keys, b);
    return compare_ids(x.at, x.size, y.at, y.size) <= 0;
}

int32_t *ids_sorted(const Keys *keys, int64_t count) {
    if (count >= INT32_MAX)
        return NULL;
    int32_t *order = malloc((size_t)(count + 1) * sizeof(int32_t));
    int32_t *other = malloc((size_t)(count + 1) * sizeof(int32_t));
    if (order == NULL || other == NULL) {
        free(order);
        free(other);
        return NULL;
    }
    for (int64_t i = 0; i < count; i++)
        order[i] = (int32_t)i;
    int32_t *from = order, *to = other;
    for (int64_t width = 1; width < count; width *= 2) { /* runs of `width` merged in pairs */
        for (int64_t left = 0; left < count; left += 2 * width) {
            int64_t middle = left + width < count ? left + width : count;
            int64_t end = middle + width < count ? middle + width : count;
            int64_t i = left, j = middle, k = left;
            while (i < middle && j < end)
                to[k++] = before(keys, from[i], from[j]) ? from[i++] : from[j++];
            while (i < middle)
                to[k++] = from[i++];
            while (j < end)
                to[k++] = from[j++];
        }
        int32_t *swap = from;
        from = to;
        to = swap;
    }
    free(to);
    return from;
}
