#!/usr/bin/env bash
# lan-check: LAN play with no address typed, on two "hosts" of this machine: two network
# namespaces joined by a veth pair (10.78.0.1 and 10.78.0.2, a /24 with its broadcast). The
# server runs in the first as `make server` runs it (every interface, discovery on); in the
# second, tanksim -discover prints what a broadcast finds (with how long each answer took),
# then a tankclient with no flags but its name opens its lobby under Xvfb, and Enter (sent
# with xdotool) joins the room it shows first. It fails unless the client joined the server
# across the veth pair. Needs root (ip netns), bin/ (make build), Xvfb and xdotool (make
# deps installs both); `make lan-check` runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "lan-check: needs root, for ip netns" >&2; exit 1; }
a=tanknet-lan-a-$$ b=tanknet-lan-b-$$ display=:$((90 + $$ % 9))
logs=${LAN_CHECK_LOGS:-bin}
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  ip netns del "$a" 2>/dev/null || true
  ip netns del "$b" 2>/dev/null || true
}
trap cleanup EXIT
ip netns add "$a"
ip netns add "$b"
ip -n "$a" link add veth-a type veth peer name veth-b netns "$b"
ip -n "$a" addr add 10.78.0.1/24 brd + dev veth-a
ip -n "$b" addr add 10.78.0.2/24 brd + dev veth-b
for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
ip -n "$a" link set veth-a up
ip -n "$b" link set veth-b up

ip netns exec "$a" bin/tankserver -addr :7777 -name lan-check 2>"$logs/lan-check-server.log" &
pids+=($!)
for _ in $(seq 50); do grep -q "server listening" "$logs/lan-check-server.log" && break; sleep 0.1; done
echo "lan-check: what a broadcast from the second host finds:" >&2
ip netns exec "$b" bin/tanksim -discover -discover-timeout 1s | tee "$logs/lan-check-discover.json"
grep -q '"game": "10.78.0.1:7777"' "$logs/lan-check-discover.json" ||
  { echo "lan-check: FAILED: discovery did not find the server at 10.78.0.1:7777" >&2; exit 1; }

Xvfb "$display" -screen 0 1280x800x24 >/dev/null 2>&1 &
pids+=($!)
sleep 1
DISPLAY=$display ip netns exec "$b" bin/tankclient -name lan >"$logs/lan-check-client.log" 2>&1 &
client=$!
pids+=($client)
for _ in $(seq 100); do grep -q "the lobby lists" "$logs/lan-check-client.log" && break; sleep 0.1; done
DISPLAY=$display xdotool key Return
for _ in $(seq 100); do grep -q "joined" "$logs/lan-check-client.log" && break; sleep 0.1; done
DISPLAY=$display xdotool key Escape Escape 2>/dev/null || true
cat "$logs/lan-check-client.log" | grep '^tankclient:' >&2 || true
grep -q 'joined lan-check .* at 10.78.0.1:7777' "$logs/lan-check-client.log" ||
  { echo "lan-check: FAILED: the lobby did not join the server (client log: $logs/lan-check-client.log)" >&2; exit 1; }
grep -q 'player joined.*name=lan ' "$logs/lan-check-server.log" ||
  { echo "lan-check: FAILED: the server did not seat the player (log: $logs/lan-check-server.log)" >&2; exit 1; }
echo "lan-check: the lobby on 10.78.0.2 found lan-check on 10.78.0.1 and joined it, with no address typed" >&2
