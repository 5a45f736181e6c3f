/* limits.h - rate limits: a token bucket per key (a client's address, an account's
 * name), each key allowed BURST actions at once and one more every REFILL_MS. The
 * keys live in a table of a fixed number of slots made at the start; a new key
 * when the table is full takes the slot of the key used least recently, so an
 * attacker with many keys costs no memory (that key's bucket starts full if it
 * comes back: size the table above the keys one window sees). Keys are placed by a
 * keyed hash (SipHash, a random key per table), so nobody can aim keys at one chain.
 * Thread-safe (one lock per table). The time comes in as an argument (web_now_ms in
 * the server), so tests run on a fake clock. One table per kind of action; the
 * login, seek and game routes call web_limit_take. */
#ifndef WEB_LIMITS_H
#define WEB_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WEB_LIMIT_KEY_MAX 63                  /* bytes of a key */
#define WEB_LIMIT_SLOTS_MAX 1048576           /* slots of one table */
#define WEB_LIMIT_TIME_MAX (INT64_C(1) << 62) /* the largest NOW_MS */

/* Suggested settings. Logins: 5 a minute per address and per name, as lichess. */
#define WEB_LIMIT_LOGIN_BURST 5
#define WEB_LIMIT_LOGIN_REFILL_MS 12000
/* Seeks and new games per client: 10 at once, then one every 6 s (10 a minute). */
#define WEB_LIMIT_SEEK_BURST 10
#define WEB_LIMIT_SEEK_REFILL_MS 6000

typedef struct WebLimit WebLimit;

/* A table of SLOTS keys (1..WEB_LIMIT_SLOTS_MAX), each with BURST (1..1000000)
 * tokens refilled one per REFILL_MS (1..86400000). NULL for bad settings, no memory
 * or no libsodium. */
WebLimit *web_limit_new(size_t slots, int burst, int64_t refill_ms);
void web_limit_free(WebLimit *l); /* l may be NULL */

/* Takes one of KEY's tokens at NOW_MS: true when there was one (the action may go
 * on). False when the bucket is empty, with *WAIT_MS (may be NULL) the time until
 * the next token (for a Retry-After), or for a key that is empty, longer than
 * WEB_LIMIT_KEY_MAX or NULL, or NOW_MS outside 0..WEB_LIMIT_TIME_MAX (*WAIT_MS 0: a
 * caller's mistake, refused). A clock that
 * runs back counts as standing still. */
bool web_limit_take(WebLimit *l, const char *key, int64_t now_ms, int64_t *wait_ms);

/* The number of keys held (at most the slots). */
size_t web_limit_count(WebLimit *l);

#endif
