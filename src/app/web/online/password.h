/* password.h - registered players' passwords and names. A password is kept only as
 * libsodium's crypto_pwhash_str: Argon2id with a random salt, at the INTERACTIVE
 * limits (2 passes over 64 MiB, some 50-100 ms of one core), a site's choice for a
 * small machine; at most WEB_PASSWORD_PARALLEL hashes run at once, so logins take at
 * most that many times 64 MiB (others wait their turn). The rules for a new password
 * and for a player's name live here too; that a name is unique, case aside, is the
 * database's (on web_password_name_fold's form). No state besides the count of
 * hashes running; the account routes call it. */
#ifndef WEB_PASSWORD_H
#define WEB_PASSWORD_H

#include <stdbool.h>
#include <stddef.h>

#define WEB_PASSWORD_MIN 8        /* bytes of UTF-8 */
#define WEB_PASSWORD_MAX 256      /* bytes of UTF-8 */
#define WEB_PASSWORD_HASH_LEN 128 /* the hash text with its NUL: crypto_pwhash_STRBYTES */
#define WEB_PASSWORD_PARALLEL 4   /* hashes at once */

#define WEB_PASSWORD_NAME_MIN 3  /* characters */
#define WEB_PASSWORD_NAME_MAX 20 /* characters, so 21 bytes with the NUL */

/* Why PW (LEN bytes) may not be a new password, or NULL when it may: LEN in 8..256,
 * valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF), no NUL
 * byte, and not the player's NAME whatever the case (NAME may be NULL). The bytes
 * are hashed as they come: no Unicode normalization, so a password typed the same
 * way on another device matches. */
const char *web_password_rule(const char *pw, size_t len, const char *name);

/* Why NAME may not be a player's name, or NULL when it may: 3..20 characters of
 * A-Z, a-z, 0-9, '_' and '-', not starting with '-'. */
const char *web_password_name_rule(const char *name);
/* NAME in lower case, the form to look a name up by and keep unique; false (OUT
 * empty) when NAME breaks the rule. */
bool web_password_name_fold(const char *name, char out[WEB_PASSWORD_NAME_MAX + 1]);

/* The hash text of PW (LEN bytes) into OUT, NUL-terminated. False when libsodium
 * cannot start, LEN is outside 1..256 or the memory is short (OUT is then empty);
 * check web_password_rule first for the message to show. */
bool web_password_hash(const char *pw, size_t len, char out[WEB_PASSWORD_HASH_LEN]);
/* Whether PW (LEN bytes) is the password of HASH (a stored hash text). False also
 * for a damaged HASH and for LEN outside 1..256 (that one without hashing). */
bool web_password_verify(const char *hash, const char *pw, size_t len);
/* A valid hash of a random password, made once: verify against it for a name that
 * has no account, so that the answer takes as long as for one that has. NULL only
 * when libsodium cannot start or the memory is short. */
const char *web_password_dummy(void);
/* Whether HASH was made with other limits than today's (or is damaged): then hash
 * the password again after it was verified, and store the new hash. */
bool web_password_needs_rehash(const char *hash);

/* sodium_memzero: wipes a copy of a password (a request body, a parsed field). */
void web_password_wipe(void *p, size_t len);

#endif
