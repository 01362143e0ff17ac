#!/bin/sh
# tests/teach/run.sh MKTB TABLES OUT - `mktb teach` checked through the probing API and
# Fairy-Stockfish (teach.py), then read in headless chromium (tests/web/report.mjs); the report, a screenshot
# and a printed PDF stay in OUT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$3" && mkdir -p "$3"
python3 "$here/teach.py" "$1" "$2" "$3/report" || exit 1
[ -d "$here/../web/node_modules/playwright-core" ] || { echo "FAILED: run scripts/setup (npm ci in tests/web)"; exit 1; }
node "$here/../web/report.mjs" "$3/report" "$3"
