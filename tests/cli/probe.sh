#!/bin/sh
# probe.sh MKTB TABLES_DIR - the `mktb probe` command line on hand-checked positions: one FEN
# (text and JSON), a file of FENs (--epd, every line answered, the worst exit code), bad input
# (exit 2 with a message naming the fault), and a table of an old format generated again.
set -u
mktb=$1
tables=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
expect() { # expect WHAT PATTERN FILE: FILE must contain PATTERN (a fixed string)
  if ! grep -qF -- "$2" "$3"; then
    echo "FAILED: $1: no '$2' in:"; cat "$3"; failures=$((failures + 1))
  fi
}
status() { # status WHAT EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then echo "FAILED: $1: exit $3, expected $2"; failures=$((failures + 1)); fi
}

# The program's version; a misspelt command or option gets the nearest name; a tables directory
# that does not exist is named as such (not "generate them").
"$mktb" --version > "$scratch/version" 2>&1
status "--version" 0 $?
expect "--version" "mktb 0.8.0 (Makruk and Xiangqi" "$scratch/version"
"$mktb" prbe > "$scratch/misspelt" 2>&1
status "misspelt command" 2 $?
expect "misspelt command" "unknown command 'prbe' (did you mean 'probe'?)" "$scratch/misspelt"
"$mktb" probe "k7/8/1K6/8/8/8/8/7R w - - 0 1" --tabels "$tables" > "$scratch/misspelt" 2>&1
status "misspelt option" 2 $?
expect "misspelt option" "unknown option '--tabels' (did you mean '--tables'?)" "$scratch/misspelt"
"$mktb" probe "k7/8/1K6/8/8/8/8/7R w - - 0 1" --tables /nonexistent/mktb > "$scratch/nodir" 2>&1
status "no such directory" 1 $?
expect "no such directory" "the tables directory /nonexistent/mktb does not exist" "$scratch/nodir"

# A terminal's escape byte in a FEN, a line of an EPD file or a command's name is written
# escaped (\x1B), as --json escapes it, never raw.
"$mktb" probe "$(printf 'k7/8/1K6/8/8/8/8/7R\033[31m w - - 0 1')" --tables "$tables" > "$scratch/esc" 2>&1
status "escape byte in a FEN" 2 $?
printf 'k7/8/1K6/8/8/8/8/7R\033[31mX w - - 0 1\n' > "$scratch/esc.epd"
"$mktb" probe --epd "$scratch/esc.epd" --tables "$tables" >> "$scratch/esc" 2>&1
status "escape byte in an EPD line" 2 $?
"$mktb" "$(printf 'pr\033be')" >> "$scratch/esc" 2>&1
status "escape byte in a command" 2 $?
expect "escape bytes escaped" "7R\x1B[31mX w - - 0 1: error" "$scratch/esc"
expect "escape bytes escaped" "unknown command 'pr\x1Bbe'" "$scratch/esc"
if grep -q "$(printf '\033')" "$scratch/esc"; then
  echo "FAILED: a raw escape byte written:"; cat -v "$scratch/esc"; failures=$((failures + 1))
fi

# Five Met have no table, nor can one be made: no command suggested that cannot work.
"$mktb" probe "8/8/8/8/8/1k6/8/KMMMMM2 w - - 0 1" --tables "$tables" > "$scratch/five" 2>&1
status "five Met" 3 $?
expect "five Met" "none can be made: KMMMMMvK has 5 White Met" "$scratch/five"
if grep -q "mktb gen KMMMMMvK" "$scratch/five"; then
  echo "FAILED: five Met: suggests mktb gen"; failures=$((failures + 1))
fi

# Rh8 mates at once; Black to move takes the unprotected Ruea (the only drawing move).
"$mktb" probe "k7/8/1K6/8/8/8/8/7R w - - 0 1" --tables "$tables" > "$scratch/one" 2>&1
status "one FEN" 0 $?
expect "one FEN" "White mates in 1" "$scratch/one"
expect "one FEN, SAN and UCI" "* Rh8#    h1h8" "$scratch/one"
"$mktb" probe "k7/8/1K6/8/8/8/8/7R w - - 0 1" --json --tables "$tables" > "$scratch/json" 2>&1
expect "JSON" '"category":"win","dtm":1,"mate_in":1' "$scratch/json"
expect "JSON" '{"uci":"h1h8","san":"Rh8#","fen":"k6R/8/1K6/8/8/8/8/8 b - 32 6 1","capture":false' "$scratch/json"
# One White move left in the board count: only Rxa2+ keeps the win (docs/rules.md §3.2).
"$mktb" probe "k7/8/8/8/8/8/m7/R3K3 w - 128 128 1" --tables "$tables" > "$scratch/board" 2>&1
expect "board count" "White wins within the count: bares the Black king in 1 of 1 moves, then mates in 12 of 13 moves (pieces' honour)" "$scratch/board"
expect "board count, the capture's row" "Rxa2+   a1a2   White mates in 13      counted: wins within the count: bares the king, then mates in 12 of 13 moves (pieces' honour)" "$scratch/board"
# A fresh board count: a King's move keeps the baring win (Kd1, any reply, Rxa2: 2 moves), and
# its row gives both figures as the headline does.
"$mktb" probe "k7/8/8/8/8/8/m7/R3K3 w - - 0 1" --tables "$tables" > "$scratch/board2" 2>&1
expect "board count, a king move's row" "Kd1     e1d1   White mates in 15      counted: wins within the count: bares the king in 2 of 65 moves, then mates in" "$scratch/board2"
expect "board count" "* Rxa2+   a1a2" "$scratch/board"

cat > "$scratch/positions.epd" <<'POSITIONS'
# a comment line, then a blank one

k7/8/1K6/8/8/8/8/7R w - - 0 1
8/8/8/8/8/2k5/2R5/6K1 b - - 0 1 ; Kxc2
k7/8/1K6/8/8/8/8/7R w - 32 33 1
not a fen
8/8/8/3k4/8/8/8/RRS1K3 w - - 0 1
POSITIONS
"$mktb" probe --epd "$scratch/positions.epd" --tables "$tables" > "$scratch/epd" 2>&1
status "--epd" 3 $?
expect "--epd" "3: k7/8/1K6/8/8/8/8/7R w - - 0 1: White mates in 1; White wins within the count: 1 of 14 moves needed; best h1h8" "$scratch/epd"
expect "--epd" "4: 8/8/8/8/8/2k5/2R5/6K1 b - - 0 1: Draw; best c3c2" "$scratch/epd"
expect "--epd" "5: k7/8/1K6/8/8/8/8/7R w - 32 33 1: White mates in 1; Draw: the count has run out (17 of 16 moves counted)" "$scratch/epd"
expect "--epd" "6: not a fen: error: bad FEN" "$scratch/epd"
expect "--epd" "7: 8/8/8/3k4/8/8/8/RRS1K3 w - - 0 1: error: no table for KRRSvK" "$scratch/epd"
[ "$(wc -l < "$scratch/epd")" -eq 5 ] || { echo "FAILED: --epd: not one line per position"; failures=$((failures + 1)); }
"$mktb" probe --epd "$scratch/positions.epd" --json --tables "$tables" > "$scratch/epdjson" 2>&1
expect "--epd --json" '{"line":3,"fen":"k7/8/1K6/8/8/8/8/7R w - - 0 1","material":"KRvK","side_to_move":"white","checkmate":false,"stalemate":false,"category":"win","dtm":1,"mate_in":1' "$scratch/epdjson"
expect "--epd --json" '"best":"h1h8"}' "$scratch/epdjson"
expect "--epd --json" '{"line":6,"fen":"not a fen","error":"bad FEN' "$scratch/epdjson"

# A line that is not UTF-8 or too long gets its own error and the rest go on; a NUL byte (a
# binary file, /dev/zero) ends the reading with an error, in bounded memory.
{ echo "k7/8/1K6/8/8/8/8/7R w - - 0 1"; printf '\377\376 bad\n'; head -c 5000 /dev/zero | tr '\0' a; echo
  echo "8/8/8/8/8/2k5/2R5/6K1 b - - 0 1"; } > "$scratch/bad.epd"
"$mktb" probe --epd "$scratch/bad.epd" --json --tables "$tables" > "$scratch/badjson" 2>&1
status "--epd bad lines" 2 $?
expect "--epd not UTF-8" '{"line":2,"fen":"","error":"not valid UTF-8"}' "$scratch/badjson"
expect "--epd too long" '{"line":3,"fen":"","error":"longer than 4096 bytes"}' "$scratch/badjson"
expect "--epd goes on" '{"line":1,"fen":"k7/8/1K6/8/8/8/8/7R w - - 0 1"' "$scratch/badjson"
expect "--epd goes on" '{"line":4,"fen":"8/8/8/8/8/2k5/2R5/6K1 b - - 0 1"' "$scratch/badjson"
( ulimit -v 1000000; timeout 20 "$mktb" probe --epd /dev/zero --tables "$tables" > "$scratch/zero" 2>&1 )
status "--epd /dev/zero" 2 $?
expect "--epd /dev/zero" "1: error: a NUL byte: /dev/zero is not a text file" "$scratch/zero"

# The EPD mktb teach writes (operations after field 4, the count in c2) is read back.
cat > "$scratch/teach.epd" <<'EPD'
8/8/8/8/8/2k5/1R6/K7 w - - bm Kb1 Ka2; dm 16; id "KRvK.longest.1"; c0 "Draw under the count"; c2 "32 5";
8/8/8/3k4/8/2P5/2S5/4K3 w - - bm Ke2; id "KSPvK.x"; c2 "0 0";
EPD
"$mktb" probe --epd "$scratch/teach.epd" --tables "$tables" > "$scratch/teach" 2>&1
status "teach's EPD" 0 $?
expect "teach's EPD, c2" "1: 8/8/8/8/8/2k5/1R6/K7 w - 32 5 1: White mates in 16; Draw under the count: White needs 16 moves, the count leaves 14" "$scratch/teach"
expect "teach's EPD, no count" "2: 8/8/8/3k4/8/2P5/2S5/4K3 w - - 0 1: White mates in 29" "$scratch/teach"
"$mktb" probe --help > "$scratch/help" 2>&1
expect "probe --help mentions --epd" "probe --epd FILE" "$scratch/help"
# With --json the errors are JSON too (on stderr).
"$mktb" probe "k7/K7/8/8/8/8/8/8 w - - 0 1" --json --tables "$tables" > /dev/null 2> "$scratch/jsonerr"
status "--json error" 2 $?
expect "--json error" '{"error":"bad FEN: ' "$scratch/jsonerr"
"$mktb" probe --json --colour blue > /dev/null 2> "$scratch/jsonerr"
expect "--json error" '{"error":"unknown option '"'"'--colour'"'"'","exit":2}' "$scratch/jsonerr"

# The count's end, one rule: at ply limit + 1 the game is over (a draw, no move listed); from
# ply limit - 1 (White's last move) every move's FEN is one the parser takes (docs/rules.md 3.4).
"$mktb" probe "k7/8/1K6/8/8/8/8/7R w - 32 33 1" --json --tables "$tables" > "$scratch/ended" 2>&1
status "ended count" 0 $?
expect "ended count" '"verdict":"Draw: the count has run out (17 of 16 moves counted); the game is over"' "$scratch/ended"
expect "ended count: no move" '"moves":[]' "$scratch/ended"
"$mktb" probe "k7/8/1K6/8/8/8/8/7R w - 32 31 1" --json --tables "$tables" > "$scratch/last" 2>&1
python3 -c 'import json,sys; [print(m["fen"]) for m in json.load(open(sys.argv[1]))["moves"]]' "$scratch/last" \
  > "$scratch/last.fens"
[ "$(wc -l < "$scratch/last.fens")" -eq 20 ] || { echo "FAILED: 20 moves at ply 31"; failures=$((failures + 1)); }
while read -r f; do
  "$mktb" probe "$f" --tables "$tables" > /dev/null 2>&1 || { echo "FAILED: a move's FEN is refused: $f"; failures=$((failures + 1)); }
done < "$scratch/last.fens"
# Impossible counts refused with the reason, by --count and by the FEN parser alike.
for args in "--count pieces:2" "--count pieces:17"; do
  "$mktb" probe "k7/8/1K6/8/8/8/8/7R b - - 0 1" $args --tables "$tables" > "$scratch/bad" 2>&1
  status "impossible $args" 2 $?
done
expect "pieces:17 with the defender to move" "past the limit of 16 moves" "$scratch/bad"
"$mktb" probe "k7/8/1K6/8/8/8/8/7R w - - 0 1" --count pieces:2 --tables "$tables" > "$scratch/bad" 2>&1
expect "pieces:2 with three men" "the count starts at the 3 men on the board" "$scratch/bad"
for fen in "k7/8/1K6/8/8/8/8/7R w - 32 0 1" "k7/8/1K6/8/8/8/8/7R w - 32 34 1" "k7/8/1K6/8/8/8/8/7R w - 33 31 1" \
    "k7/8/8/8/8/8/m7/R3K3 w - 32 31 1"; do
  "$mktb" probe "$fen" --tables "$tables" > "$scratch/bad" 2>&1
  status "impossible count in $fen" 2 $?
done
expect "board count of 32 plies" "a board's honour count has the limit 64 moves (128 plies), not 16 moves (32 plies)" "$scratch/bad"
# A Bia ending: each move's counted text counts the move itself, as its pure text does, and
# says what holds where no count runs yet (KSPvK, Ke2: mate in 29).
"$mktb" probe "8/8/8/3k4/8/2P5/2S5/4K3 w - - 0 1" --json --tables "$tables" > "$scratch/bia" 2>&1
expect "Bia ending's move text" '"text":{"pure":"mate in 29","counted":"wins: the count its conversion starts leaves time (29 moves to mate or a winning conversion)"}' "$scratch/bia"

# --line in SAN, numbered from the FEN's move (Black first: "1... Ke7"); the move list gives the
# counted distance (docs/rules.md 3.4's example: 40 attacker moves left, mate in 12).
"$mktb" probe "8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1" --line --tables "$tables" > "$scratch/line" 2>&1
expect "--line in SAN" "    1... Ke7     counts 5 (of 44)" "$scratch/line"
expect "--line in SAN" "    2. Kc6" "$scratch/line"
expect "counted distance" "* Ke7     d7e7   White mates in 12      counted: loses within the count (the opponent needs 12 of 40 moves)" "$scratch/line"
"$mktb" probe "k7/8/1K6/8/8/8/8/7R w - - 0 1" --tables "$tables" > "$scratch/moves" 2>&1
expect "counted distance, the move counted" "* Rh8#    h1h8   White mates in 1       counted: wins within the count (1 of 14 moves)" "$scratch/moves"

# Other counting options: the message names the option that differs, not all five, and its
# advice does not send the user to overwrite this directory's tables.
"$mktb" probe "k7/8/8/8/8/8/m7/R3K3 w - - 0 1" --counter-mate draw --tables "$tables" > "$scratch/rules" 2>&1
status "rules mismatch" 1 $?
expect "rules mismatch" "was built with counter_mate=win, not draw: probe with the options it was built with, or generate tables under yours into a directory of their own" "$scratch/rules"
grep -q "limit_precedence" "$scratch/rules" && { echo "FAILED: rules mismatch names every option"; failures=$((failures + 1)); }

# Bad input: exit 2, the fault named.
"$mktb" probe "k7/K7/8/8/8/8/8/8 w - - 0 1" --tables "$tables" > "$scratch/bad" 2>&1
status "bad FEN" 2 $?
expect "bad FEN" "bad FEN" "$scratch/bad"
"$mktb" probe "k7/8/1K6/8/8/8/8/7R w - - 0 1" --counter-mate drow --tables "$tables" > "$scratch/bad" 2>&1
status "bad option" 2 $?
expect "bad option" "counter_mate takes win or draw, not 'drow'" "$scratch/bad"
"$mktb" probe --epd "$scratch/missing.epd" --tables "$tables" > "$scratch/bad" 2>&1
status "missing file" 2 $?
expect "missing file" "cannot read" "$scratch/bad"
# Tables built with other counting options are refused, never answered.
"$mktb" probe "k7/8/8/8/8/8/m7/R3K3 w - 128 128 1" --board-honour off --tables "$tables" > "$scratch/bad" 2>&1
status "other rules" 1 $?
expect "other rules" "board_honour=first_opportunity" "$scratch/bad"

# A table of an older format version is refused by probe, and generated again by gen.
mkdir "$scratch/old"
cp "$tables/KRvK.mktb" "$scratch/old/"
printf '\002' | dd of="$scratch/old/KRvK.mktb" bs=1 seek=8 conv=notrunc 2>/dev/null
"$mktb" probe "k7/8/1K6/8/8/8/8/7R w - - 0 1" --tables "$scratch/old" > "$scratch/bad" 2>&1
status "old format" 1 $?
expect "old format" "format version 2" "$scratch/bad"
"$mktb" gen KRvK --tables "$scratch/old" > /dev/null 2>&1
"$mktb" probe "k7/8/1K6/8/8/8/8/7R w - - 0 1" --tables "$scratch/old" > "$scratch/one" 2>&1
status "generated again" 0 $?
expect "generated again" "White mates in 1" "$scratch/one"

[ "$failures" -eq 0 ] && echo "probe.sh: all checks passed"
exit "$failures"
