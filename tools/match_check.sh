#!/bin/sh
# Checks the games of a match PGN (fastchess's, or match.py's before it):
# prints every game not ended `normal`ly or by `adjudication` (a time
# forfeit, an illegal move, a crash or disconnection: `abandoned`, or a
# stop: `unterminated`) as
#   Forfeits: LOSER TERMINATION (round R: WHITE-BLACK RESULT)
# (LOSER is `?` when the result does not name one), then the number of games
# (after the first SKIP) and their terminations. Exit status 1 if such a
# game was lost by an engine whose name matches PATTERN (an extended regular
# expression, default: any engine; `?` always matches), or if the file has
# fewer than GAMES games (default 0) after its first SKIP (default 0):
# fastchess stops a match at a crash or disconnection (without -recover) and
# may not write that game.
#
# usage: tools/match_check.sh PGN [GAMES] [PATTERN] [SKIP]
#   e.g. tools/match_check.sh smoke.pgn 8 '^cutoff'
# Needs only a POSIX shell and awk.
set -eu
PGN=$1
GAMES=${2:-0}
PATTERN=${3:-.}
SKIP=${4:-0}
[ -f "$PGN" ] || { echo "match_check: no file $PGN" >&2; exit 1; }
awk -v want="$GAMES" -v pat="$PATTERN" -v skip="$SKIP" -v file="$PGN" '
function tag(line) { sub(/^\[[A-Za-z]+ "/, "", line); sub(/"\][ \t\r]*$/, "", line); return line }
function done_game() {
  if (!have) return
  have = 0
  if (++seen <= skip) return
  n++
  t = term == "" ? "?" : term
  count[t]++
  if (t != "normal" && t != "adjudication") {
    loser = result == "1-0" ? black : result == "0-1" ? white : "?"
    printf "Forfeits: %s %s (round %s: %s-%s %s)\n", loser, t, round, white, black, result
    if (loser == "?" || loser ~ pat) bad++
  }
  white = black = result = term = round = ""
}
/^\[Event / { done_game(); have = 1 }
/^\[White / { white = tag($0) }
/^\[Black / { black = tag($0) }
/^\[Result / { result = tag($0) }
/^\[Round / { round = tag($0) }
/^\[Termination / { term = tag($0) }
END {
  done_game()
  line = ""
  for (t in count) line = line sprintf("%s%s %d", line == "" ? "" : ", ", t, count[t])
  printf "%s: %d games; terminations: %s\n", file, n, line == "" ? "none" : line
  if (n < want) { printf "error: %d games, %d expected\n", n, want; bad++ }
  exit (bad > 0 ? 1 : 0)
}' "$PGN"
