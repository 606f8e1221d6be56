/* What the C depth-first passes share (``_klondike_search.c``, ``_casket_search.c``): a
 * 128-bit hash of a byte string, a set of such hashes (the transposition table), and a
 * growable array. It knows nothing of any game.
 *
 * The set stores each hash as two 64-bit words in open addressing, and keeps its load
 * at most one half; the all-zero pair marks an empty slot, so no hash is ever zero. */
#ifndef SOLITAIRE_NATIVE_SEARCH_H
#define SOLITAIRE_NATIVE_SEARCH_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t *slots; /* pairs */
    size_t cap, used;
} HashSet;

static uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* Two 64-bit hashes of ``data``; ``seed`` (0 in Klondike) keeps groups of piles apart. */
static void hash_bytes(uint64_t seed, const uint8_t *data, size_t len, uint64_t *out1, uint64_t *out2) {
    uint64_t h1 = 0x9E3779B97F4A7C15ULL ^ len ^ seed, h2 = 0xC2B2AE3D27D4EB4FULL + len * 0x165667B19E3779F9ULL + seed;
    size_t i = 0;
    while (i < len) {
        uint64_t v = 0;
        size_t take = len - i < 8 ? len - i : 8;
        memcpy(&v, data + i, take);
        i += take;
        h1 = (h1 ^ v) * 0x100000001b3ULL;
        h1 = (h1 << 31) | (h1 >> 33);
        h2 = (h2 + v) * 0x9FB21C651E98DF25ULL;
        h2 ^= h2 >> 29;
    }
    h1 = mix64(h1);
    h2 = mix64(h2 ^ h1 * 0x2545F4914F6CDD1DULL);
    if (h1 == 0 && h2 == 0) h1 = 1;
    *out1 = h1;
    *out2 = h2;
}

static int set_init(HashSet *s, size_t cap) {
    s->cap = cap;
    s->used = 0;
    s->slots = calloc(cap * 2, sizeof(uint64_t));
    return s->slots != NULL;
}

static int set_add_raw(uint64_t *slots, size_t cap, uint64_t h1, uint64_t h2) {
    size_t mask = cap - 1, i = (size_t)(h1 ^ (h2 >> 7)) & mask;
    for (;;) {
        uint64_t *slot = slots + 2 * i;
        if (slot[0] == 0 && slot[1] == 0) {
            slot[0] = h1;
            slot[1] = h2;
            return 1;
        }
        if (slot[0] == h1 && slot[1] == h2) return 0;
        i = (i + 1) & mask;
    }
}

/* 1: added; 0: already there; -1: out of memory. */
static int set_add(HashSet *s, uint64_t h1, uint64_t h2) {
    if ((s->used + 1) * 2 > s->cap) {
        size_t cap = s->cap * 2;
        uint64_t *slots = calloc(cap * 2, sizeof(uint64_t));
        if (!slots) return -1;
        for (size_t i = 0; i < s->cap; i++) {
            uint64_t *old = s->slots + 2 * i;
            if (old[0] || old[1]) set_add_raw(slots, cap, old[0], old[1]);
        }
        free(s->slots);
        s->slots = slots;
        s->cap = cap;
    }
    int added = set_add_raw(s->slots, s->cap, h1, h2);
    s->used += added;
    return added;
}

typedef struct {
    void *data;
    size_t size, cap, item;
} Vec;

static int vec_reserve(Vec *v, size_t need) {
    if (need <= v->cap) return 0;
    size_t cap = v->cap ? v->cap : 64;
    while (cap < need) cap *= 2;
    void *data = realloc(v->data, cap * v->item);
    if (!data) return -1;
    v->data = data;
    v->cap = cap;
    return 0;
}

#endif
