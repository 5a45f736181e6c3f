/* _menagerie.c - the Python module's C part: the Game type over
 * libmenagerie's MenagerieGame, and the module functions that need no game
 * (docs/python.md). menagerie/__init__.py adds the pyffish-style functions
 * in Python. Searches and perft run without the GIL; a game is marked busy
 * meanwhile, so that another thread can only stop it, not change it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "menagerie.h"

static PyObject *menagerie_error; /* menagerie.Error, a ValueError */

typedef struct {
    PyObject_HEAD MenagerieGame *g;
    int busy; /* a search or perft runs without the GIL */
} GameObject;

/* 0 when the game can be used now, else -1 with a RuntimeError. */
static int ready(GameObject *self) {
    if (!self->g) {
        PyErr_SetString(PyExc_RuntimeError, "the game is not open");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the game is searching (only stop() may be called)");
        return -1;
    }
    return 0;
}

static int game_init(GameObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"variant", "fen", NULL};
    const char *variant, *fen = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|z", kwlist, &variant, &fen))
        return -1;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the game is searching");
        return -1;
    }
    char err[MENAGERIE_ERR_LEN];
    MenagerieGame *g = menagerie_open(variant, fen, err, sizeof err);
    if (!g) {
        PyErr_SetString(menagerie_error, err);
        return -1;
    }
    menagerie_close(self->g);
    self->g = g;
    return 0;
}

static void game_dealloc(GameObject *self) {
    menagerie_close(self->g);
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyObject *game_fen(GameObject *self, PyObject *unused) {
    (void)unused;
    if (ready(self))
        return NULL;
    char fen[MENAGERIE_FEN_LEN];
    menagerie_fen(self->g, fen, sizeof fen);
    return PyUnicode_FromString(fen);
}

/* The legal moves as a list: of str (coordinate text or SAN), or with
 * both of (text, san) tuples. */
static PyObject *move_list(GameObject *self, int what) {
    if (ready(self))
        return NULL;
    int n = menagerie_legal_moves(self->g, NULL, 0);
    MenagerieMove *m = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *m);
    if (!m)
        return PyErr_NoMemory();
    n = menagerie_legal_moves(self->g, m, n);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *o = what == 0   ? PyUnicode_FromString(m[i].text)
                      : what == 1 ? PyUnicode_FromString(m[i].san)
                                  : Py_BuildValue("(ss)", m[i].text, m[i].san);
        if (!o) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, o);
    }
    PyMem_Free(m);
    return list;
}

static PyObject *game_legal_moves(GameObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"san", NULL};
    int san = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|p", kwlist, &san))
        return NULL;
    return move_list(self, san);
}

static PyObject *game_moves(GameObject *self, PyObject *unused) {
    (void)unused;
    return move_list(self, 2);
}

static PyObject *game_san(GameObject *self, PyObject *args) {
    const char *move;
    if (!PyArg_ParseTuple(args, "s", &move) || ready(self))
        return NULL;
    char san[MENAGERIE_MOVE_LEN], err[MENAGERIE_ERR_LEN];
    if (!menagerie_san(self->g, move, san, sizeof san, err, sizeof err)) {
        PyErr_SetString(menagerie_error, err);
        return NULL;
    }
    return PyUnicode_FromString(san);
}

static PyObject *game_push(GameObject *self, PyObject *args) {
    const char *move;
    if (!PyArg_ParseTuple(args, "s", &move) || ready(self))
        return NULL;
    char err[MENAGERIE_ERR_LEN];
    if (!menagerie_play(self->g, move, err, sizeof err)) {
        PyErr_SetString(menagerie_error, err);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *game_pop(GameObject *self, PyObject *unused) {
    (void)unused;
    if (ready(self))
        return NULL;
    if (!menagerie_undo(self->g)) {
        PyErr_SetString(PyExc_IndexError, "no move to take back");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *game_copy(GameObject *self, PyObject *unused) {
    (void)unused;
    if (ready(self))
        return NULL;
    MenagerieGame *c = menagerie_copy(self->g);
    if (!c)
        return PyErr_NoMemory();
    PyTypeObject *tp = Py_TYPE(self);
    GameObject *o = (GameObject *)tp->tp_alloc(tp, 0);
    if (!o) {
        menagerie_close(c);
        return NULL;
    }
    o->g = c;
    return (PyObject *)o;
}

static const char *const result_text[] = {
    [MENAGERIE_ONGOING] = "*",
    [MENAGERIE_FIRST_WINS] = "1-0",
    [MENAGERIE_SECOND_WINS] = "0-1",
    [MENAGERIE_DRAW] = "1/2-1/2",
};

static PyObject *game_result(GameObject *self, PyObject *unused) {
    (void)unused;
    if (ready(self))
        return NULL;
    char reason[64];
    MenagerieResult r = menagerie_result(self->g, reason, sizeof reason);
    return Py_BuildValue("(ss)", result_text[r], reason);
}

static PyObject *game_is_check(GameObject *self, PyObject *unused) {
    (void)unused;
    if (ready(self))
        return NULL;
    return PyBool_FromLong(menagerie_in_check(self->g));
}

static PyObject *game_perft(GameObject *self, PyObject *args) {
    int depth;
    if (!PyArg_ParseTuple(args, "i", &depth) || ready(self))
        return NULL;
    if (depth < 0 || depth > 30) {
        PyErr_SetString(menagerie_error, "perft depth out of range (0..30)");
        return NULL;
    }
    uint64_t n;
    self->busy = 1;
    PyThreadState *ts = PyEval_SaveThread();
    n = menagerie_perft(self->g, depth);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    return PyLong_FromUnsignedLongLong(n);
}

static PyObject *line_dict(const MenagerieLine *l) {
    return Py_BuildValue("{s:i,s:i,s:i,s:i,s:N,s:O,s:K,s:i,s:s,s:s}", "multipv", l->multipv,
                         "depth", l->depth, "seldepth", l->seldepth, "score", l->score, "mate",
                         l->mate ? PyLong_FromLong(l->mate) : Py_NewRef(Py_None), "exact",
                         l->exact ? Py_True : Py_False, "nodes", (unsigned long long)l->nodes,
                         "time_ms", l->time_ms, "pv", l->pv, "pv_san", l->pv_san);
}

static PyObject *game_search(GameObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"depth", "movetime", "nodes", "multipv", "threads", "hash", NULL};
    MenagerieLimits lim = {0};
    unsigned long long nodes = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$iiKiii", kwlist, &lim.depth, &lim.movetime_ms,
                                     &nodes, &lim.multipv, &lim.threads, &lim.hash_mb) ||
        ready(self))
        return NULL;
    lim.nodes = nodes;
    MenagerieSearch *res = PyMem_Malloc(sizeof *res);
    if (!res)
        return PyErr_NoMemory();
    char err[MENAGERIE_ERR_LEN];
    bool ok;
    self->busy = 1;
    PyThreadState *ts = PyEval_SaveThread();
    ok = menagerie_search(self->g, &lim, res, err, sizeof err);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    PyObject *out = NULL, *lines = ok ? PyList_New(res->nlines) : NULL;
    for (int i = 0; lines && i < res->nlines; i++) {
        PyObject *d = line_dict(&res->line[i]);
        if (!d) {
            Py_CLEAR(lines);
            break;
        }
        PyList_SET_ITEM(lines, i, d);
    }
    if (lines) {
        out = Py_BuildValue("{s:s,s:s,s:z,s:N}", "best", res->best, "best_san", res->best_san,
                            "ponder", res->ponder[0] ? res->ponder : NULL, "lines", lines);
    } else if (!ok) {
        PyErr_SetString(menagerie_error, err);
    }
    PyMem_Free(res);
    return out;
}

static PyObject *game_stop(GameObject *self, PyObject *unused) {
    (void)unused;
    if (self->g)
        menagerie_stop(self->g);
    Py_RETURN_NONE;
}

static PyObject *game_new_game(GameObject *self, PyObject *unused) {
    (void)unused;
    if (ready(self))
        return NULL;
    menagerie_new_game(self->g);
    Py_RETURN_NONE;
}

static PyObject *game_get_variant(GameObject *self, void *closure) {
    (void)closure;
    if (!self->g) {
        PyErr_SetString(PyExc_RuntimeError, "the game is not open");
        return NULL;
    }
    return PyUnicode_FromString(menagerie_game_variant(self->g));
}

static PyObject *game_get_turn(GameObject *self, void *closure) {
    (void)closure;
    if (ready(self))
        return NULL;
    return PyLong_FromLong(menagerie_side_to_move(self->g));
}

static PyObject *game_get_ply(GameObject *self, void *closure) {
    (void)closure;
    if (ready(self))
        return NULL;
    return PyLong_FromLong(menagerie_ply_count(self->g));
}

/* menagerie.Game('chess', 'rnbqkbnr/...'): what makes the same position
 * (without the moves that led to it). */
static PyObject *game_repr(GameObject *self) {
    if (!self->g || self->busy)
        return PyUnicode_FromFormat("<menagerie.Game %s>", self->g ? "searching" : "not open");
    char fen[MENAGERIE_FEN_LEN];
    menagerie_fen(self->g, fen, sizeof fen);
    PyObject *v = PyUnicode_FromString(menagerie_game_variant(self->g));
    PyObject *f = v ? PyUnicode_FromString(fen) : NULL;
    PyObject *r = f ? PyUnicode_FromFormat("menagerie.Game(%R, %R)", v, f) : NULL;
    Py_XDECREF(v);
    Py_XDECREF(f);
    return r;
}

static PyMethodDef game_methods[] = {
    {"fen", (PyCFunction)game_fen, METH_NOARGS, "fen() -> the position as FEN"},
    {"legal_moves", (PyCFunction)(void (*)(void))game_legal_moves, METH_VARARGS | METH_KEYWORDS,
     "legal_moves(san=False) -> the legal moves, coordinate text or SAN"},
    {"moves", (PyCFunction)game_moves, METH_NOARGS,
     "moves() -> the legal moves as (text, san) pairs"},
    {"san", (PyCFunction)game_san, METH_VARARGS, "san(move) -> the SAN of a legal move"},
    {"push", (PyCFunction)game_push, METH_VARARGS,
     "push(move): plays a move given as coordinate text or SAN"},
    {"pop", (PyCFunction)game_pop, METH_NOARGS, "pop(): takes the last move back"},
    {"copy", (PyCFunction)game_copy, METH_NOARGS, "copy() -> an independent copy"},
    {"result", (PyCFunction)game_result, METH_NOARGS,
     "result() -> (\"1-0\"|\"0-1\"|\"1/2-1/2\"|\"*\", reason)"},
    {"is_check", (PyCFunction)game_is_check, METH_NOARGS,
     "is_check() -> whether the side to move is in check"},
    {"perft", (PyCFunction)game_perft, METH_VARARGS, "perft(depth) -> leaf node count"},
    {"search", (PyCFunction)(void (*)(void))game_search, METH_VARARGS | METH_KEYWORDS,
     "search(*, depth=0, movetime=0, nodes=0, multipv=1, threads=1, hash=0) -> dict with "
     "best, best_san, ponder and lines"},
    {"stop", (PyCFunction)game_stop, METH_NOARGS,
     "stop(): ends a search running in another thread"},
    {"new_game", (PyCFunction)game_new_game, METH_NOARGS,
     "new_game(): forgets what earlier searches learnt"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef game_getset[] = {
    {"variant", (getter)game_get_variant, NULL, "the variant name or file it was opened with",
     NULL},
    {"turn", (getter)game_get_turn, NULL, "0 when White (A) is to move, 1 for Black (B)", NULL},
    {"ply", (getter)game_get_ply, NULL, "moves played since the start", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot game_slots[] = {
    {Py_tp_doc, "Game(variant, fen=None): a game of a built-in variant or a variant file"},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, game_init},
    {Py_tp_dealloc, game_dealloc},
    {Py_tp_repr, game_repr},
    {Py_tp_methods, game_methods},
    {Py_tp_getset, game_getset},
    {0, NULL},
};

static PyType_Spec game_spec = {
    "menagerie._menagerie.Game",
    sizeof(GameObject),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    game_slots,
};

static PyObject *mod_variants(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    PyObject *list = PyList_New(0);
    for (const char *const *n = menagerie_variants(); list && *n; n++) {
        PyObject *s = PyUnicode_FromString(*n);
        if (!s || PyList_Append(list, s) < 0)
            Py_CLEAR(list);
        Py_XDECREF(s);
    }
    return list;
}

static PyObject *mod_fen_error(PyObject *m, PyObject *args) {
    (void)m;
    const char *fen, *variant;
    if (!PyArg_ParseTuple(args, "ss", &fen, &variant))
        return NULL;
    char err[MENAGERIE_ERR_LEN];
    if (menagerie_validate_fen(variant, fen, err, sizeof err))
        Py_RETURN_NONE;
    return PyUnicode_FromString(err);
}

static PyObject *mod_version(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return PyUnicode_FromString(menagerie_version());
}

static PyMethodDef mod_methods[] = {
    {"variants", mod_variants, METH_NOARGS, "variants() -> the names of the games"},
    {"fen_error", mod_fen_error, METH_VARARGS,
     "fen_error(fen, variant) -> why FEN is not a valid position of the variant, or None"},
    {"version", mod_version, METH_NOARGS, "version() -> libmenagerie's version"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "menagerie._menagerie",
    "Menagerie's engine (libmenagerie)",
    -1,
    mod_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__menagerie(void);
PyMODINIT_FUNC PyInit__menagerie(void) {
    if (menagerie_api_version() != MENAGERIE_API_VERSION) {
        PyErr_SetString(PyExc_ImportError, "libmenagerie's API version differs from the build's");
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    PyObject *game_type = PyType_FromSpec(&game_spec);
    if (!menagerie_error)
        menagerie_error = PyErr_NewExceptionWithDoc(
            "menagerie.Error", "a variant, position or move Menagerie cannot use", PyExc_ValueError,
            NULL);
    bool ok = game_type && menagerie_error && PyModule_AddObjectRef(m, "Game", game_type) == 0 &&
              PyModule_AddObjectRef(m, "Error", menagerie_error) == 0 &&
              PyModule_AddIntConstant(m, "API_VERSION", MENAGERIE_API_VERSION) == 0 &&
              PyModule_AddIntConstant(m, "MAX_LINES", MENAGERIE_MAX_LINES) == 0;
    Py_XDECREF(game_type);
    if (!ok)
        Py_CLEAR(m);
    return m;
}
