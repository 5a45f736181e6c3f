/* limits.c - the rate-limit tables. A bucket is kept as one time, full_at: when it
 * would hold all its BURST tokens again (the generic cell rate algorithm, the same
 * bucket without a counter to refill). A token is there when full_at - now <=
 * (BURST - 1) * REFILL_MS; taking it moves full_at on by REFILL_MS from max(full_at,
 * now). The slots sit in hash chains (by SipHash of the key) and in one list from
 * the most to the least recently used, whose tail a new key takes when all are in
 * use: every step is O(1) besides the walk along one short chain. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "app/web/online/limits.h"
#include "app/web/online/secret.h"

#define NONE (-1)

typedef struct {
    char key[WEB_LIMIT_KEY_MAX + 1];
    uint64_t hash;
    int64_t full_at;
    int32_t chain;        /* the next slot in its hash chain */
    int32_t newer, older; /* the neighbours in the use list */
} Slot;

struct WebLimit {
    pthread_mutex_t lock;
    int64_t burst, refill_ms;
    int64_t now_ms; /* the latest time seen: the clock never runs back here */
    size_t slots, used;
    size_t mask;     /* buckets - 1 */
    int32_t *bucket; /* the first slot of each chain */
    Slot *slot;
    int32_t newest, oldest;
    unsigned char hash_key[crypto_shorthash_KEYBYTES];
};

WebLimit *web_limit_new(size_t slots, int burst, int64_t refill_ms) {
    if (slots < 1 || slots > WEB_LIMIT_SLOTS_MAX || burst < 1 || burst > 1000000 || refill_ms < 1 ||
        refill_ms > 86400000 || !web_secret_init())
        return NULL;
    size_t buckets = 1;
    while (buckets < slots)
        buckets *= 2;
    WebLimit *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->bucket = malloc(buckets * sizeof *l->bucket);
    l->slot = calloc(slots, sizeof *l->slot);
    if (!l->bucket || !l->slot || pthread_mutex_init(&l->lock, NULL) != 0) {
        free(l->bucket);
        free(l->slot);
        free(l);
        return NULL;
    }
    for (size_t i = 0; i < buckets; i++)
        l->bucket[i] = NONE;
    l->burst = burst;
    l->refill_ms = refill_ms;
    l->now_ms = INT64_MIN;
    l->slots = slots;
    l->mask = buckets - 1;
    l->newest = l->oldest = NONE;
    crypto_shorthash_keygen(l->hash_key);
    return l;
}

void web_limit_free(WebLimit *l) {
    if (!l)
        return;
    pthread_mutex_destroy(&l->lock);
    free(l->bucket);
    free(l->slot);
    free(l);
}

static uint64_t key_hash(const WebLimit *l, const char *key, size_t len) {
    unsigned char h[crypto_shorthash_BYTES];
    crypto_shorthash(h, (const unsigned char *)key, len, l->hash_key);
    uint64_t x = 0;
    for (size_t i = 0; i < sizeof h; i++)
        x = x << 8 | h[i];
    return x;
}

/* The use list: take slot I out of it, put it at the newest end. */
static void list_unlink(WebLimit *l, int32_t i) {
    Slot *s = &l->slot[i];
    if (s->newer != NONE)
        l->slot[s->newer].older = s->older;
    else
        l->newest = s->older;
    if (s->older != NONE)
        l->slot[s->older].newer = s->newer;
    else
        l->oldest = s->newer;
}

static void list_push(WebLimit *l, int32_t i) {
    Slot *s = &l->slot[i];
    s->newer = NONE;
    s->older = l->newest;
    if (l->newest != NONE)
        l->slot[l->newest].newer = i;
    l->newest = i;
    if (l->oldest == NONE)
        l->oldest = i;
}

/* Takes slot I out of its hash chain. */
static void chain_unlink(WebLimit *l, int32_t i) {
    int32_t *p = &l->bucket[l->slot[i].hash & l->mask];
    while (*p != i)
        p = &l->slot[*p].chain;
    *p = l->slot[i].chain;
}

/* KEY's slot, made (in a free slot or the least recently used one) when missing. */
static int32_t find_or_add(WebLimit *l, const char *key, size_t len) {
    // Step 1. Look along the key's chain.
    uint64_t h = key_hash(l, key, len);
    int32_t *head = &l->bucket[h & l->mask];
    for (int32_t i = *head; i != NONE; i = l->slot[i].chain)
        if (l->slot[i].hash == h && strcmp(l->slot[i].key, key) == 0) {
            list_unlink(l, i);
            list_push(l, i);
            return i;
        }
    // Step 2. A free slot, or the stalest one taken from its chain and the list.
    int32_t i;
    if (l->used < l->slots) {
        i = (int32_t)l->used++;
    } else {
        i = l->oldest;
        chain_unlink(l, i);
        list_unlink(l, i);
    }
    // Step 3. The new key, with a full bucket.
    Slot *s = &l->slot[i];
    memcpy(s->key, key, len + 1);
    s->hash = h;
    s->full_at = INT64_MIN;
    s->chain = *head;
    *head = i;
    list_push(l, i);
    return i;
}

bool web_limit_take(WebLimit *l, const char *key, int64_t now_ms, int64_t *wait_ms) {
    if (wait_ms)
        *wait_ms = 0;
    size_t len = key ? strnlen(key, WEB_LIMIT_KEY_MAX + 1) : 0;
    if (!l || len == 0 || len > WEB_LIMIT_KEY_MAX || now_ms < 0 || now_ms > WEB_LIMIT_TIME_MAX)
        return false;
    pthread_mutex_lock(&l->lock);
    if (now_ms > l->now_ms)
        l->now_ms = now_ms;
    int64_t now = l->now_ms;
    Slot *s = &l->slot[find_or_add(l, key, len)];
    int64_t from = s->full_at > now ? s->full_at : now;
    int64_t next = from + l->refill_ms, over = next - now - l->burst * l->refill_ms;
    bool ok = over <= 0;
    if (ok)
        s->full_at = next;
    else if (wait_ms)
        *wait_ms = over;
    pthread_mutex_unlock(&l->lock);
    return ok;
}

size_t web_limit_count(WebLimit *l) {
    if (!l)
        return 0;
    pthread_mutex_lock(&l->lock);
    size_t n = l->used;
    pthread_mutex_unlock(&l->lock);
    return n;
}
