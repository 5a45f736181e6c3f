"""Menagerie's engine for Python: the games Menagerie plays (the chess
variants, users' variant files, the mancala Slangenspel), their rules and
the engine's search, over libmenagerie (docs/python.md).

A Game holds one game; the functions below take (variant, fen, moves) as
pyffish does and answer without keeping a game. A variant is a game's name
(see variants()) or the path of a variant definition file; fen None or ""
is the start position; moves are coordinate texts or SAN.
"""

from ._menagerie import API_VERSION, MAX_LINES, Error, Game, fen_error, variants, version

__version__ = version()

__all__ = [
    "API_VERSION", "MAX_LINES", "Error", "Game", "fen_error", "game_result", "get_fen",
    "get_san", "get_san_moves", "is_game_end", "legal_moves", "perft", "search", "start_fen",
    "validate_fen", "variants", "version",
]


def _game(variant, fen, moves):
    game = Game(variant, fen or None)
    for move in moves:
        game.push(move)
    return game


def start_fen(variant):
    """The start position of a variant as FEN."""
    return Game(variant).fen()


def legal_moves(variant, fen=None, moves=(), san=False):
    """The legal moves after MOVES, as coordinate texts (or SAN)."""
    return _game(variant, fen, moves).legal_moves(san=san)


def get_san(variant, fen, move):
    """The SAN of MOVE in the position FEN."""
    return _game(variant, fen, ()).san(move)


def get_san_moves(variant, fen, moves):
    """The SAN of each of MOVES, played one after the other from FEN."""
    game, out = _game(variant, fen, ()), []
    for move in moves:
        out.append(game.san(move))
        game.push(move)
    return out


def get_fen(variant, fen=None, moves=()):
    """The FEN after MOVES."""
    return _game(variant, fen, moves).fen()


def validate_fen(fen, variant):
    """Whether FEN is a valid position of the variant (fen_error says why not)."""
    return fen_error(fen, variant) is None


def game_result(variant, fen=None, moves=()):
    """The result after MOVES by the game's rules: ("1-0" | "0-1" | "1/2-1/2",
    reason), or ("*", "") while the game goes on."""
    return _game(variant, fen, moves).result()


def is_game_end(variant, fen=None, moves=()):
    """Whether the game has ended by its rules after MOVES."""
    return game_result(variant, fen, moves)[0] != "*"


def perft(variant, fen, depth, moves=()):
    """The leaf nodes of the legal-move tree DEPTH plies deep."""
    return _game(variant, fen, moves).perft(depth)


def search(variant, fen=None, moves=(), **limits):
    """The engine's search of the position after MOVES (Game.search's limits:
    depth, movetime, nodes, multipv, threads, hash)."""
    return _game(variant, fen, moves).search(**limits)
