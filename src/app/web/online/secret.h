/* secret.h - the unguessable secrets of the online site: session cookies and
 * invitation tokens. A secret is 256 bits from the OS (libsodium's
 * randombytes_buf) written as 64 lower-case hex digits; the server keeps only its
 * BLAKE2b-256 hash (crypto_generichash) and compares hashes in constant time
 * (sodium_memcmp). Nothing here is kept between calls. */
#ifndef WEB_SECRET_H
#define WEB_SECRET_H

#include <stdbool.h>

#define WEB_SECRET_HEX 64      /* hex digits of a secret */
#define WEB_SECRET_HASH_LEN 32 /* bytes of its hash */

void web_secret_new(char hex[WEB_SECRET_HEX + 1]);
/* The hash of a secret's text; false when it is not 64 hex digits. */
bool web_secret_hash(const char *hex, unsigned char out[WEB_SECRET_HASH_LEN]);
bool web_secret_equal(const unsigned char *a, const unsigned char *b); /* constant time */

#endif
