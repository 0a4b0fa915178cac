#!/usr/bin/env bash
# roomscale ROOMS [PORT]: 256 bots on one tankserver process, spread over ROOMS rooms (8:
# eight matches of 32; 1: one match of 256), on the large arena, for 20 s.
# The server is a process of its own, so its CPU time is its own (read from -metrics); each
# room's tick times come from the server's per-room histogram. Prints tanksim's JSON report;
# fails if a bot cannot join or is dropped. Every bot comes from 127.0.0.1, so that one address
# may open every room (-max-rooms-per-address, -extra-rooms). Uses the binaries in bin/ and 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
rooms=${1:?usage: scripts/roomscale.sh ROOMS [PORT]}
port=${2:-7796}
per=$(( (256 + rooms - 1) / rooms ))
log=bin/roomscale-$rooms-server.log
bin/tankserver -addr "127.0.0.1:$port" -metrics "127.0.0.1:$((port + 100))" -arena large \
  -max-rooms "$rooms" -max-rooms-per-address "$rooms" -extra-rooms "$rooms" -max-players "$per" 2>"$log" &
server=$!
trap 'kill -INT $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
sleep 0.5
kill -0 "$server" 2>/dev/null || { echo "roomscale: tankserver did not start on 127.0.0.1:$port (see $log)" >&2; exit 1; }
bin/tanksim -server "127.0.0.1:$port" -server-metrics "127.0.0.1:$((port + 100))" -bots 256 -rooms "$rooms" \
  -duration 20s -net none -bot-fps 20 -json
if grep -q "dropping player" "$log"; then
  echo "roomscale: the server dropped a player:" >&2
  grep "dropping player" "$log" >&2
  exit 1
fi
