/* secret.c - session and invitation secrets (secret.h), on libsodium. */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "app/web/online/secret.h"

/* libsodium's own set-up, once per process (sodium_init is thread-safe). */
static void ready(void) {
    if (sodium_init() < 0)
        abort(); /* no source of randomness: nothing can be kept secret */
}

void web_secret_new(char hex[WEB_SECRET_HEX + 1]) {
    unsigned char raw[WEB_SECRET_HEX / 2];
    ready();
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(hex, WEB_SECRET_HEX + 1, raw, sizeof raw);
    sodium_memzero(raw, sizeof raw);
}

bool web_secret_hash(const char *hex, unsigned char out[WEB_SECRET_HASH_LEN]) {
    if (!hex || strlen(hex) != WEB_SECRET_HEX || strspn(hex, "0123456789abcdef") != WEB_SECRET_HEX)
        return false;
    ready();
    crypto_generichash(out, WEB_SECRET_HASH_LEN, (const unsigned char *)hex, WEB_SECRET_HEX, NULL,
                       0);
    return true;
}

bool web_secret_equal(const unsigned char *a, const unsigned char *b) {
    return sodium_memcmp(a, b, WEB_SECRET_HASH_LEN) == 0;
}
