/* samples.h - the training data of the networks (docs/nnue.md): positions of
 * self-play games with their search score and the game's result, written by
 * `menagerie datagen` (lab/datagen.c) and read by the trainer (lab/nnue/).
 *
 * A file (little-endian) is a header - magic "MNGDATA1", the variant's name
 * (32 bytes), the feature set of its items (64 bytes, nnue.h) - then records
 * appended one game at a time:
 *
 *   u16 n        items
 *   u8  flags    bit 0: Black to move; bit 1: a game's first record;
 *                bits 2-3: the game's result for White (0 loss, 1 draw, 2 win)
 *   u8  0
 *   i16 score    the search's, centipawns for the side to move
 *   u16 item[n]  the position's items (slot << 6 | piece, nnue.h)
 *
 * so a file cut short by a stop is read up to its last whole record. */
#ifndef LAB_SAMPLES_H
#define LAB_SAMPLES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SAMPLES_MAGIC "MNGDATA1"
#define SAMPLES_HEADER 104
#define SAMPLES_MAX_ITEMS 1024

typedef struct {
    int n;
    bool black, first;
    int result; /* for White: 0 loss, 1 draw, 2 win */
    int score;  /* for the side to move */
    uint16_t item[SAMPLES_MAX_ITEMS];
} Sample;

static inline bool samples_write_header(FILE *f, const char *variant, const char *features) {
    unsigned char h[SAMPLES_HEADER] = {0};
    memcpy(h, SAMPLES_MAGIC, 8);
    memcpy(h + 8, variant, strnlen(variant, 31));
    memcpy(h + 40, features, strnlen(features, 63));
    return fwrite(h, 1, sizeof h, f) == sizeof h;
}

/* False when f has no header of this format. */
static inline bool samples_read_header(FILE *f, char variant[32], char features[64]) {
    unsigned char h[SAMPLES_HEADER];
    if (fread(h, 1, sizeof h, f) != sizeof h || memcmp(h, SAMPLES_MAGIC, 8) || h[39] || h[103])
        return false;
    memcpy(variant, h + 8, 32);
    memcpy(features, h + 40, 64);
    return true;
}

/* The record's size in bytes; buf holds 6 + 2 * SAMPLES_MAX_ITEMS. */
static inline size_t samples_encode(const Sample *s, unsigned char *buf) {
    buf[0] = (unsigned char)(s->n & 0xFF);
    buf[1] = (unsigned char)(s->n >> 8);
    buf[2] = (unsigned char)((s->black ? 1 : 0) | (s->first ? 2 : 0) | s->result << 2);
    buf[3] = 0;
    uint16_t sc = (uint16_t)(int16_t)s->score;
    buf[4] = (unsigned char)(sc & 0xFF);
    buf[5] = (unsigned char)(sc >> 8);
    for (int i = 0; i < s->n; i++) {
        buf[6 + 2 * i] = (unsigned char)(s->item[i] & 0xFF);
        buf[7 + 2 * i] = (unsigned char)(s->item[i] >> 8);
    }
    return 6 + 2 * (size_t)s->n;
}

/* 1: a record read; 0: the end (or a record cut short); -1: damaged. */
static inline int samples_read(FILE *f, Sample *s) {
    unsigned char h[6], b[2 * SAMPLES_MAX_ITEMS];
    size_t got = fread(h, 1, sizeof h, f);
    if (got < sizeof h)
        return 0;
    s->n = h[0] | h[1] << 8;
    if (s->n > SAMPLES_MAX_ITEMS || (h[2] >> 2) > 2 || h[3])
        return -1;
    s->black = h[2] & 1;
    s->first = h[2] & 2;
    s->result = h[2] >> 2;
    s->score = (int16_t)(uint16_t)(h[4] | h[5] << 8);
    if (fread(b, 1, 2 * (size_t)s->n, f) != 2 * (size_t)s->n)
        return 0;
    for (int i = 0; i < s->n; i++)
        s->item[i] = (uint16_t)(b[2 * i] | b[2 * i + 1] << 8);
    return 1;
}

#endif
