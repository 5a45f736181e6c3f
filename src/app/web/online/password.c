/* password.c - passwords by libsodium's crypto_pwhash_str family (Argon2id), with a
 * counted gate so that at most WEB_PASSWORD_PARALLEL hashes hold their memory at
 * once, and the rules for passwords and names. */
#include <pthread.h>
#include <string.h>

#include <sodium.h>

#include "app/web/online/password.h"
#include "app/web/online/secret.h"

#define OPSLIMIT crypto_pwhash_OPSLIMIT_INTERACTIVE
#define MEMLIMIT crypto_pwhash_MEMLIMIT_INTERACTIVE

_Static_assert(WEB_PASSWORD_HASH_LEN == crypto_pwhash_STRBYTES, "the hash text's size");

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_free = PTHREAD_COND_INITIALIZER;
static int running;

static void gate_enter(void) {
    pthread_mutex_lock(&gate_lock);
    while (running >= WEB_PASSWORD_PARALLEL)
        pthread_cond_wait(&gate_free, &gate_lock);
    running++;
    pthread_mutex_unlock(&gate_lock);
}

static void gate_leave(void) {
    pthread_mutex_lock(&gate_lock);
    running--;
    pthread_cond_signal(&gate_free);
    pthread_mutex_unlock(&gate_lock);
}

/* C in lower case when it is an ASCII letter: not tolower, which a locale changes. */
static unsigned char ascii_lower(unsigned char c) {
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* The length of the UTF-8 sequence at S (N bytes left), 0 when it is not one. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
    unsigned c = s[0];
    size_t len;
    unsigned min, cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2, min = 0x80, cp = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef)
        len = 3, min = 0x800, cp = c & 0x0f;
    else if (c >= 0xf0 && c <= 0xf4)
        len = 4, min = 0x10000, cp = c & 0x07;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

const char *web_password_rule(const char *pw, size_t len, const char *name) {
    if (!pw || len < WEB_PASSWORD_MIN)
        return "the password is too short: at least 8 bytes (8 ASCII characters)";
    if (len > WEB_PASSWORD_MAX)
        return "the password is too long: at most 256 bytes";
    const unsigned char *s = (const unsigned char *)pw;
    for (size_t i = 0; i < len;) {
        if (s[i] == 0)
            return "the password has a NUL character";
        size_t k = utf8_seq(s + i, len - i);
        if (!k)
            return "the password is not valid UTF-8 text";
        i += k;
    }
    if (name && strlen(name) == len) {
        size_t i = 0;
        while (i < len && ascii_lower(s[i]) == ascii_lower((unsigned char)name[i]))
            i++;
        if (i == len)
            return "the password may not be the player's name";
    }
    return NULL;
}

const char *web_password_name_rule(const char *name) {
    if (!name)
        return "a name is needed";
    size_t n = 0;
    for (; name[n]; n++) {
        unsigned char c = (unsigned char)name[n];
        if (n == WEB_PASSWORD_NAME_MAX)
            return "the name is too long: at most 20 characters";
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return "a name has only letters A-Z, digits, '_' and '-'";
    }
    if (n < WEB_PASSWORD_NAME_MIN)
        return "the name is too short: at least 3 characters";
    if (name[0] == '-')
        return "a name may not start with '-'";
    return NULL;
}

bool web_password_name_fold(const char *name, char out[WEB_PASSWORD_NAME_MAX + 1]) {
    out[0] = '\0';
    if (web_password_name_rule(name))
        return false;
    size_t i = 0;
    for (; name[i]; i++)
        out[i] = (char)ascii_lower((unsigned char)name[i]);
    out[i] = '\0';
    return true;
}

bool web_password_hash(const char *pw, size_t len, char out[WEB_PASSWORD_HASH_LEN]) {
    out[0] = '\0';
    if (!pw || len < 1 || len > WEB_PASSWORD_MAX || !web_secret_init())
        return false;
    gate_enter();
    int rc = crypto_pwhash_str(out, pw, len, OPSLIMIT, MEMLIMIT);
    gate_leave();
    if (rc != 0)
        out[0] = '\0';
    return rc == 0;
}

/* Whether HASH is a NUL-terminated text that fits a hash's buffer. */
static bool hash_text(const char *hash) {
    return hash && memchr(hash, '\0', WEB_PASSWORD_HASH_LEN) != NULL;
}

bool web_password_verify(const char *hash, const char *pw, size_t len) {
    if (!hash_text(hash) || !pw || len < 1 || len > WEB_PASSWORD_MAX || !web_secret_init())
        return false;
    gate_enter();
    int rc = crypto_pwhash_str_verify(hash, pw, len);
    gate_leave();
    return rc == 0;
}

static pthread_once_t dummy_once = PTHREAD_ONCE_INIT;
static char dummy[WEB_PASSWORD_HASH_LEN];

static void make_dummy(void) {
    char pw[WEB_SECRET_HEX_LEN + 1];
    if (web_secret_new(pw) && !web_password_hash(pw, WEB_SECRET_HEX_LEN, dummy))
        dummy[0] = '\0';
    sodium_memzero(pw, sizeof pw);
}

const char *web_password_dummy(void) {
    pthread_once(&dummy_once, make_dummy);
    return dummy[0] ? dummy : NULL;
}

bool web_password_needs_rehash(const char *hash) {
    if (!hash_text(hash) || !web_secret_init())
        return true;
    return crypto_pwhash_str_needs_rehash(hash, OPSLIMIT, MEMLIMIT) != 0;
}

void web_password_wipe(void *p, size_t len) {
    if (p && len)
        sodium_memzero(p, len);
}
