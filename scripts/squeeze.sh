#!/usr/bin/env bash
# squeeze: a tankserver starved of CPU for 30 s while eight honest bots play it. For 30 s the
# server process runs 50 ms in every 200 (SIGSTOP 150 ms, SIGCONT 50 ms: a quarter of a
# core, as on a host busy with something else); the bots play 45 s in all, through it and
# after. tanksim fails, and so does this script, if any bot is dropped or cannot join.
# Run it with `make squeeze` (it uses the binaries in bin/, and 127.0.0.1 only).
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-7795}
out=${SQUEEZE_OUT:-bin/squeeze.json}
bin/tankserver -addr "127.0.0.1:$port" -contact=false 2>bin/squeeze-server.log &
server=$!
trap 'kill -CONT $server 2>/dev/null || true; kill -INT $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
sleep 0.5
kill -0 "$server" 2>/dev/null || { echo "squeeze: tankserver did not start on 127.0.0.1:$port (see bin/squeeze-server.log)" >&2; exit 1; }
bin/tanksim -server "127.0.0.1:$port" -bots 8 -duration 45s -json >"$out" &
sim=$!
sleep 8 # the bots join and play a while first
echo "squeeze: server at a quarter of a core for 30 s" >&2
end=$((SECONDS + 30))
while [ "$SECONDS" -lt "$end" ]; do
  kill -STOP "$server"; sleep 0.15
  kill -CONT "$server"; sleep 0.05
done
echo "squeeze: server free again; the bots play on" >&2
if ! wait "$sim"; then
  echo "squeeze: FAILED: tanksim reported a bot that could not play through (report: $out, server log: bin/squeeze-server.log)" >&2
  exit 1
fi
grep -c "dropping player" bin/squeeze-server.log >/dev/null && { echo "squeeze: FAILED: the server dropped a player:" >&2; grep "dropping player" bin/squeeze-server.log >&2; exit 1; }
echo "squeeze: every bot played through (report: $out)" >&2
