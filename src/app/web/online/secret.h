/* secret.h - the secrets that stand for a browser: a session cookie, a seat's
 * holder, a game's join link. A secret is 256 bits from libsodium's randombytes
 * (the OS's generator), written as 64 lower-case hex digits; the server keeps only
 * its 32-byte BLAKE2b hash (game.h's WebSeat.holder, the sessions table), so a copy
 * of the data reveals no secret. Hashes are compared in constant time. It owns the
 * one libsodium start-up (web_secret_init), which password.c uses too; the session
 * and seat code calls the rest. No state besides that. */
#ifndef WEB_SECRET_H
#define WEB_SECRET_H

#include <stdbool.h>
#include <stddef.h>

#define WEB_SECRET_BYTES 32                       /* 256 bits */
#define WEB_SECRET_HEX_LEN (2 * WEB_SECRET_BYTES) /* hex digits */
#define WEB_SECRET_HASH_LEN 32                    /* BLAKE2b-256; game.h's WEB_HASH_LEN */

/* sodium_init, once for the process (thread-safe; later calls return the first
 * one's answer). Every function here and in password.h calls it itself; a server
 * calls it at start to fail early. False: libsodium could not start. */
bool web_secret_init(void);

/* A new secret: 64 hex digits and a NUL in OUT. False only when libsodium could not
 * start (OUT is then the empty string). */
bool web_secret_new(char out[WEB_SECRET_HEX_LEN + 1]);

/* Whether S is a secret's form: exactly 64 lower-case hex digits, then the NUL. */
bool web_secret_valid(const char *s);

/* The hash kept for the secret HEX: BLAKE2b-256 of its 64 characters. False (OUT
 * zeroed) when HEX is not a secret's form (a forged or cut cookie). */
bool web_secret_hash(const char *hex, unsigned char out[WEB_SECRET_HASH_LEN]);

/* Whether two hashes are equal, in time independent of where they differ. */
bool web_secret_equal(const unsigned char a[WEB_SECRET_HASH_LEN],
                      const unsigned char b[WEB_SECRET_HASH_LEN]);

#endif
