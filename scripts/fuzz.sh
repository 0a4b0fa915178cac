#!/usr/bin/env bash
# fuzz: runs each fuzz test named on the command line (FuzzName:./dir, the Makefile's
# FUZZ_TARGETS) for FUZZTIME (default 30s) and stops at the first that fails.
#
# A failure counts only if it is the target's: go test also exits 1 with a bare "context
# deadline exceeded" when -fuzztime ends while a worker is busy, a race in Go's fuzz
# coordinator (go.dev/issue/75804, fixed in Go 1.27) that a loaded machine hits. Such a run
# writes no failing input under DIR/testdata/fuzz/FuzzName, so that one is reported and
# passed over; any other failure, or any input it wrote, fails the script.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
for t in "$@"; do
  name=${t%%:*} dir=${t#*:}
  corpus="$dir/testdata/fuzz/$name"
  before=$(ls "$corpus" 2>/dev/null | wc -l)
  echo "fuzzing $name in $dir"
  log=$(mktemp)
  "$GO" test -run '^$' -fuzz "^$name\$" -fuzztime "${FUZZTIME:-30s}" -fuzzminimizetime 5s "$dir" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  after=$(ls "$corpus" 2>/dev/null | wc -l)
  if [ "$status" -ne 0 ]; then
    if [ "$after" -eq "$before" ] && grep -q '^    context deadline exceeded$' "$log" && [ "$(grep -c '^--- FAIL' "$log")" -eq 1 ]; then
      echo "fuzz: $name stopped on Go's fuzztime race (go.dev/issue/75804), no failing input written: not a failure of $name"
    else
      rm -f "$log"
      if [ "$after" -gt "$before" ]; then
        echo "fuzz: $name failed; its failing input is kept under $corpus (go test -run '$name' $dir replays it)" >&2
      else
        echo "fuzz: $name failed without writing an input (see go test's output above)" >&2
      fi
      exit 1
    fi
  fi
  rm -f "$log"
done
