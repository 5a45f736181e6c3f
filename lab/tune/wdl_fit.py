#!/usr/bin/env python3
"""Fits the win/draw/loss model of UCI_ShowWDL (src/engine/wdl.c).

Reads lines "FEN;RESULT;SCORE" (lab/tune/label.sh: RESULT White's score 1,
0.5 or 0, SCORE the engine's score of the position, White's view, in
centipawns) and fits by maximum likelihood
    win  = 1 / (1 + exp((a - s) / b)),  loss = 1 / (1 + exp((a + s) / b)),
    draw = 1 - win - loss,  a = A0 + A1 n,  b = B0 + B1 n,
n the pieces on the board (kings and pawns included). Mate scores (+-2000)
are left out: the model gives a mate's side the win outright. Prints the
numbers for wdl.c with the fit's mean log-likelihood per position, and
that of the model with a and b alike for every n (A1 = B1 = 0).

usage: lab/tune/wdl_fit.py SCORED.txt"""
import math
import sys


def pieces(fen):
    return sum(c.isalpha() for c in fen.split()[0])


def read(path):
    data = []
    with open(path) as f:
        for line in f:
            parts = line.strip().split(";")
            if len(parts) < 3:
                continue
            s = int(parts[2])
            if abs(s) >= 2000:
                continue
            data.append((s, float(parts[1]), pieces(parts[0])))
    return data


def loglik(p, data):
    a0, a1, b0, b1 = p
    total = 0.0
    for s, r, n in data:
        a, b = a0 + a1 * n, b0 + b1 * n
        if b <= 1:
            return -1e9
        w = 1 / (1 + math.exp(min(60, (a - s) / b)))
        l = 1 / (1 + math.exp(min(60, (a + s) / b)))
        q = w if r == 1 else l if r == 0 else 1 - w - l
        total += math.log(max(q, 1e-9))
    return total / len(data)


def fit(data, p, free):
    """Coordinate search: each free number up or down by its step while that
    helps, the steps halving when a round finds nothing."""
    best = loglik(p, data)
    steps = [20.0, 1.0, 20.0, 1.0]
    while max(steps[i] for i in free) > 0.01:
        moved = False
        for i in free:
            for d in (steps[i], -steps[i]):
                q = list(p)
                q[i] += d
                v = loglik(q, data)
                if v > best:
                    p, best, moved = q, v, True
                    break
        if not moved:
            steps = [x / 2 for x in steps]
    return p, best


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    data = read(sys.argv[1])
    if not data:
        sys.exit("lab/tune/wdl_fit.py: no scored positions in " + sys.argv[1])
    flat, ll_flat = fit(data, [100.0, 0.0, 100.0, 0.0], [0, 2])
    full, ll_full = fit(data, flat, [0, 1, 2, 3])
    ns = [n for _, _, n in data]
    wins = sum(r == 1 for _, r, _ in data)
    draws = sum(r == 0.5 for _, r, _ in data)
    print("# %d positions (White won %d, drew %d, lost %d), pieces %d..%d"
          % (len(data), wins, draws, len(data) - wins - draws, min(ns), max(ns)))
    print("# mean log-likelihood: %.4f with a and b alike for every n (a %.1f, b %.1f), %.4f with"
          % (ll_flat, flat[0], flat[2], ll_full))
    for name, v in zip(("WDL_A0", "WDL_A1", "WDL_B0", "WDL_B1"), full):
        print("#define %s %.2f" % (name, v))


if __name__ == "__main__":
    main()
