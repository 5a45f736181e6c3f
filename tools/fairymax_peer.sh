#!/bin/sh
# Fairy-Max as XBoard's peer engine, minus the two commands it does not know.
# Debian's Fairy-Max 5.0b answers an unknown command with an error and then,
# about every other time, dies of a segmentation fault. XBoard sends two such
# commands in every game: "computer" (the opponent is an engine) before it
# and "result" after it, so about every other match ended early, most of
# them before the first move. Both only inform the engine; every other line
# passes through unchanged. Arguments go to fairymax.
PATH=$PATH:/usr/games
grep --line-buffered -vE '^(computer|result( .*)?)$' | exec fairymax "$@"
