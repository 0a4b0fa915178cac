#!/bin/sh
# build-web.sh DIR: builds the browser client into DIR — the page (index.html, its scripts
# and styles), tankclient.wasm (cmd/tankclient for js/wasm, and tankclient.wasm.gz), the
# page's game worker tankworker.wasm (cmd/tankworker, and .gz; tankworker.js starts it) and
# Go's wasm_exec.js loader — a folder any static web host can serve; tankserver -web -web-dir DIR
# serves it along with the game.
# Run from the repository's root (make web does).
set -eu
dir=${1:?usage: build-web.sh DIR}
go=${GO:-go}
mkdir -p "$dir"
GOOS=js GOARCH=wasm "$go" build -trimpath -ldflags="-s -w" -o "$dir/tankclient.wasm" ./cmd/tankclient
GOOS=js GOARCH=wasm "$go" build -trimpath -ldflags="-s -w" -o "$dir/tankworker.wasm" ./cmd/tankworker
cp cmd/tankclient/web/index.html cmd/tankclient/web/lobby.js cmd/tankclient/web/touch.js cmd/tankclient/web/touch.css cmd/tankclient/web/favicon.svg cmd/tankclient/web/tankworker.js "$dir/"
# A compressed copy beside it: tankserver -web sends it to browsers that accept gzip (about a
# quarter of the size); other static hosts may serve it the same way, or ignore it.
gzip -9 -c "$dir/tankclient.wasm" > "$dir/tankclient.wasm.gz"
gzip -9 -c "$dir/tankworker.wasm" > "$dir/tankworker.wasm.gz"
root=$("$go" env GOROOT)
for f in "$root/lib/wasm/wasm_exec.js" "$root/misc/wasm/wasm_exec.js"; do # Go 1.24 moved it to lib/
	if [ -f "$f" ]; then
		cp "$f" "$dir/wasm_exec.js"
		exit 0
	fi
done
echo "build-web.sh: no wasm_exec.js under $root (lib/wasm or misc/wasm)" >&2
exit 1
