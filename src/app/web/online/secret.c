/* secret.c - random secrets, their hashes and their comparison, all by libsodium
 * (randombytes_buf, crypto_generichash, sodium_memcmp, sodium_bin2hex). */
#include <pthread.h>
#include <string.h>

#include <sodium.h>

#include "app/web/online/secret.h"

_Static_assert(WEB_SECRET_HASH_LEN >= crypto_generichash_BYTES_MIN &&
                   WEB_SECRET_HASH_LEN <= crypto_generichash_BYTES_MAX,
               "a BLAKE2b length");

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static bool init_ok;

static void init_sodium(void) {
    init_ok = sodium_init() >= 0; /* 1: already started elsewhere, also fine */
}

bool web_secret_init(void) {
    pthread_once(&init_once, init_sodium);
    return init_ok;
}

bool web_secret_new(char out[WEB_SECRET_HEX_LEN + 1]) {
    out[0] = '\0';
    if (!web_secret_init())
        return false;
    unsigned char raw[WEB_SECRET_BYTES];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(out, WEB_SECRET_HEX_LEN + 1, raw, sizeof raw);
    sodium_memzero(raw, sizeof raw);
    return true;
}

bool web_secret_valid(const char *s) {
    if (!s)
        return false;
    for (int i = 0; i < WEB_SECRET_HEX_LEN; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return s[WEB_SECRET_HEX_LEN] == '\0';
}

bool web_secret_hash(const char *hex, unsigned char out[WEB_SECRET_HASH_LEN]) {
    memset(out, 0, WEB_SECRET_HASH_LEN);
    if (!web_secret_valid(hex) || !web_secret_init())
        return false;
    return crypto_generichash(out, WEB_SECRET_HASH_LEN, (const unsigned char *)hex,
                              WEB_SECRET_HEX_LEN, NULL, 0) == 0;
}

bool web_secret_equal(const unsigned char a[WEB_SECRET_HASH_LEN],
                      const unsigned char b[WEB_SECRET_HASH_LEN]) {
    return sodium_memcmp(a, b, WEB_SECRET_HASH_LEN) == 0;
}
