# tanknet — `make` lists the targets. `make demo` plays, `make test` checks everything.

GO       ?= go
BUF      := $(GO) run github.com/bufbuild/buf/cmd/buf@v1.75.0
PORT     ?= 7777
# make web-demo serves the page (and every browser's WebRTC traffic, over UDP) on this port.
WEBPORT  ?= 8080
# make server listens on every interface, so players on the LAN can join; HOST=127.0.0.1
# keeps it to this machine.
HOST     ?=
ARGS     ?=
BIN      := bin
# What the window client needs to build (cgo, X11/GL headers) and what its tests need to run
# without a screen (Xvfb, xwininfo from x11-utils to see where windows opened, xdotool to press the
# lobby's keys). Debian/Ubuntu
# package names.
APT_PKGS := gcc libc6-dev pkg-config libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev \
            libxrandr-dev libxxf86vm-dev xvfb xauth libgl1-mesa-dri x11-utils xdotool
# What the browser tests need: chromium (the page over WebRTC), node (recordings verified
# under js/wasm) and qemu-user-static (and under linux/arm64).
APT_PKGS += chromium nodejs qemu-user-static iproute2
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Every Go file, tracked or new; without git (say, an unpacked archive), every file on disk.
GOFILES   = $(shell git ls-files -co --exclude-standard '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*')

.DEFAULT_GOAL := help
.PHONY: help deps go build install web web-demo demo demo-windows demo-rooms server client lobby lan-check sim test bench fuzz squeeze soak measurements loadtest gif gen lint fmt clean

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

go: ## check that Go 1.24 or newer is installed
	@command -v $(GO) >/dev/null || { echo "Go is not installed: tanknet needs Go 1.24 or newer (https://go.dev/doc/install)" >&2; exit 1; }
	@v=$$($(GO) env GOVERSION | sed 's/^go//'); major=$${v%%.*}; rest=$${v#*.}; minor=$${rest%%.*}; \
	if [ "$$major" -lt 1 ] || { [ "$$major" -eq 1 ] && [ "$$minor" -lt 24 ]; }; then \
	  echo "tanknet needs Go 1.24 or newer; $(GO) is go$$v (Debian's golang-go may be older: https://go.dev/doc/install)" >&2; exit 1; fi

deps: go ## install the system packages the window client and its tests need, when missing (apt-get)
	@missing=$$(for p in $(APT_PKGS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if ! command -v apt-get >/dev/null; then \
	    echo "tanknet needs these packages (or your system's equivalents): $$missing" >&2; \
	    echo "apt-get is not available here: install them by hand, then run make again." >&2; exit 1; \
	  fi; \
	  echo "installing:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null \
	    || { echo "could not install: $$missing (need root or sudo)" >&2; exit 1; }; \
	fi

# PROGRAMS are the five commands a person runs; cmd/tankworker is the page's Web Worker,
# built for the browser by make web, and runs nowhere else.
PROGRAMS := ./cmd/tankserver ./cmd/tankclient ./cmd/tanksim ./cmd/tankreplay ./cmd/tankload

build: deps ## build tankserver, tankclient, tanksim, tankreplay and tankload into bin/
	$(GO) build -o $(BIN)/ $(PROGRAMS)

install: deps ## go install tankserver, tankclient, tanksim, tankreplay and tankload (into GOBIN, or GOPATH/bin): put that on your PATH
	$(GO) install $(PROGRAMS)
	@echo "installed into $$($(GO) env GOBIN | grep . || echo $$($(GO) env GOPATH)/bin): put it on your PATH to run tankclient, tankserver, tanksim, tankreplay and tankload by name"

web: go ## build the browser client into bin/web (index.html and the page's scripts, tankclient.wasm and .wasm.gz, its game worker tankworker.js with tankworker.wasm and .wasm.gz, wasm_exec.js): tankserver -web serves it, as can any static host
	GO=$(GO) ./scripts/build-web.sh $(BIN)/web

web-demo: web ## the page on the LAN: builds it, serves it with tankserver -web on every interface (WEBPORT, default 8080) and prints the URLs (play, demo, tour) and a QR code for a phone
	CGO_ENABLED=0 $(GO) build -o $(BIN)/ ./cmd/tankserver
	$(BIN)/tankserver -addr $(HOST):$(PORT) -web $(HOST):$(WEBPORT) -web-dir $(BIN)/web -web-urls $(ARGS)

demo: ## one window: near player | the server's truth | far player on a bad network (Esc quits)
	@if [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ]; then \
	  echo "make demo opens a window, but there is no display here (DISPLAY is unset)." >&2; \
	  echo "Try the headless simulation instead: make sim" >&2; exit 1; fi
	@$(MAKE) --no-print-directory build
	$(BIN)/tankclient -demo -server 127.0.0.1:$(PORT) $(ARGS)

# The two windows of demo-windows, side by side from the screen's top-left corner: together
# 1900 pixels wide, so they fit a 1920-pixel screen. render/e2e checks they do not overlap.
NEAR_WINDOW := -pos 0,0 -width 940 -height 640
FAR_WINDOW  := -pos 960,0 -width 940 -height 640

# need_display fails a target that opens windows where there is none, with $(1) as the
# headless command to try instead.
need_display = if [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ]; then \
	  echo "make $@ opens windows, but there is no display here (DISPLAY is unset)." >&2; \
	  echo "Try the headless simulation instead: $(1)" >&2; exit 1; fi

demo-windows: ## a server and two separate windows side by side, the second on a bad network
	@$(call need_display,make sim)
	@$(MAKE) --no-print-directory build
	@$(BIN)/tankserver -addr 127.0.0.1:$(PORT) & server=$$!; sleep 0.5; \
	if ! kill -0 $$server 2>/dev/null; then \
	  echo "tankserver could not start on 127.0.0.1:$(PORT) (is the port in use?): try make $@ PORT=$$(( $(PORT) + 1 ))" >&2; exit 1; fi; \
	$(BIN)/tankclient -server 127.0.0.1:$(PORT) -name near $(NEAR_WINDOW) & near=$$!; \
	$(BIN)/tankclient -server 127.0.0.1:$(PORT) -name far -net mobile-3g $(FAR_WINDOW) & far=$$!; \
	trap 'kill -INT $$near $$far $$server 2>/dev/null; wait; exit 0' INT TERM; \
	wait $$near $$far; kill -INT $$server 2>/dev/null; wait $$server

demo-rooms: ## one server, two rooms side by side: a window and four bots in room red, another and four in room blue
	@$(call need_display,make sim ARGS='-rooms 2')
	@$(MAKE) --no-print-directory build
	@$(BIN)/tankserver -addr 127.0.0.1:$(PORT) & server=$$!; sleep 0.5; \
	if ! kill -0 $$server 2>/dev/null; then \
	  echo "tankserver could not start on 127.0.0.1:$(PORT) (is the port in use?): try make $@ PORT=$$(( $(PORT) + 1 ))" >&2; exit 1; fi; \
	$(BIN)/tanksim -server 127.0.0.1:$(PORT) -room red -bots 4 -duration 1h -net none >/dev/null & red=$$!; \
	$(BIN)/tanksim -server 127.0.0.1:$(PORT) -room blue -bots 4 -duration 1h -net none >/dev/null & blue=$$!; \
	$(BIN)/tankclient -server 127.0.0.1:$(PORT) -room red -name ada $(NEAR_WINDOW) & near=$$!; \
	$(BIN)/tankclient -server 127.0.0.1:$(PORT) -room blue -name bob $(FAR_WINDOW) & far=$$!; \
	trap 'kill -INT $$near $$far $$red $$blue $$server 2>/dev/null; wait; exit 0' INT TERM; \
	wait $$near $$far; kill -INT $$red $$blue 2>/dev/null; wait $$red $$blue; kill -INT $$server 2>/dev/null; wait $$server

server: go ## run a server on PORT (default 7777) of every interface (HOST=127.0.0.1: this machine only); needs no display or C compiler
	CGO_ENABLED=0 $(GO) build -o $(BIN)/ ./cmd/tankserver
	$(BIN)/tankserver -addr $(HOST):$(PORT) $(ARGS)

client: build ## run a window client against 127.0.0.1:PORT; pass flags in ARGS="..."
	$(BIN)/tankclient -server 127.0.0.1:$(PORT) $(ARGS)

lobby: build ## open the window's lobby: the servers on the LAN and their rooms, no address typed; pass flags in ARGS="..."
	$(BIN)/tankclient $(ARGS)

lan-check: build ## LAN play with no address typed, checked: a server and a lobby on two network namespaces joined by a veth pair find each other and play (root, Xvfb, xdotool)
	./scripts/lan-check.sh

sim: go ## run a short headless simulation (8 bots, 10 s, broadband) and print its report
	$(GO) run ./cmd/tanksim $(ARGS)

# The packages whose tests take longest (a minute or more each), longest first, except that
# server/soak comes before the longer cmd/tankclient: it mostly waits, so it runs beside the
# three longest from the start, and cmd/tankclient starts when the first of the four ends.
LONGEST_TESTS = ./cmd/tankserver ./server ./render/e2e ./server/soak ./cmd/tankclient

test: deps ## gofmt, go vet and every test with the race detector (window tests under Xvfb)
	@unformatted=$$(gofmt -l $(GOFILES)); [ -z "$$unformatted" ] || { echo "gofmt needed:" $$unformatted >&2; exit 1; }
	$(GO) vet ./...
	@# -p 4: the longest packages mostly wait on real time (a minute of soak on a slow link, the
	@# tour, the browser), so four at once finish sooner even on two cores. go test starts
	@# packages in the order they are named (Go 1.26 holds to it; older releases prefer it):
	@# the longest first (LONGEST_TESTS), so none is left to run alone at the end
	xvfb-run -a -s "-screen 0 1920x1080x24" $(GO) test -race -count=1 -p 4 $(LONGEST_TESTS) ./...

bench: deps ## run the benchmarks with allocation counts
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Each target fuzzes what arrives from the network: frames, the server's handling of a
# client's messages (moves and shots) and datagrams, the arena and rules a client is sent,
# the snapshot chunks it receives as datagrams (decoded and rebuilt by package wire, then
# used by a client's Game), the InputBatch datagrams package wire decodes for the server,
# the connect handshake's datagrams, the Agones sidecar's answers, server and client recordings, the
# WebRTC offers browsers post to tankserver -web, and LAN discovery's requests and answers.
FUZZ_TARGETS := FuzzFrameReader:./transport FuzzWorld:./server FuzzArenaFromProto:./wire \
                FuzzRulesFromProto:./wire FuzzDatagram:./server FuzzChunkDatagram:./client \
                FuzzConnectDatagram:./transport FuzzDeltaChunk:./client FuzzChunk:./wire \
                FuzzScanChunk:./wire FuzzInputBatch:./wire FuzzClientRecording:./client FuzzSidecarAnswers:./agones \
                FuzzReader:./server/recording FuzzMatch:./server/recording FuzzOffer:./carriage \
                FuzzParseRequest:./discovery FuzzParseAnswer:./discovery

fuzz: go ## fuzz every decoder of network bytes for FUZZTIME each (default 30s)
	@GO=$(GO) ./scripts/fuzz.sh $(FUZZ_TARGETS)

squeeze: build ## a tankserver held to a quarter of a core for 30 s (SIGSTOP/SIGCONT) under 8 bots: fails if one is dropped (~50 s)
	./scripts/squeeze.sh

soak: go ## 32 bots across rooms (24 in three steady rooms; a room of 8 opening and closing every 30 s) on yojimbo's harsh network (1 s latency, 100 ms jitter, 25% loss, 25% duplicates) for SOAKTIME (default 10m); prints a report
	TANKNET_SOAK=$${SOAKTIME:-10m} $(GO) test -race -count=1 -run '^TestSoak$$' -v -timeout 60m ./server/soak

measurements: build web ## rerun every measurement and rewrite docs/MEASUREMENTS.md (about an hour; needs a quiet machine and chromium)
	$(GO) run ./tools/measurements -out docs/MEASUREMENTS.md

loadtest: build ## the cost curve: 256 to 2,048 thin players (tankload's) in rooms of 32 on one tankserver; rewrites its section of docs/MEASUREMENTS.md and docs/plots/cost-curve.png (about three minutes; needs a quiet machine)
	$(GO) run ./tools/measurements -only '^The cost curve' -out docs/MEASUREMENTS.md

gif: build ## record docs/demo.gif from the demo with bots, under Xvfb (about ten seconds of play)
	xvfb-run -a -s "-screen 0 1920x1080x24" $(BIN)/tankclient -demo -server 127.0.0.1:$(PORT) -bots 8 -width 1200 -height 540 \
	  -screenshot $(BIN)/demo-last-frame.png -frames 1000 -gif docs/demo.gif

gen: go ## regenerate Go code from proto/ (buf and protoc-gen-go at the go.mod version, via go run)
	$(BUF) generate

lint: go ## buf lint the protocol, check go.mod is tidy, gofmt and go vet, natively and for the page's js/wasm packages (first run builds buf: ~2 min)
	$(BUF) lint
	$(GO) mod tidy -diff
	@unformatted=$$(gofmt -l $(GOFILES)); [ -z "$$unformatted" ] || { echo "gofmt needed:" $$unformatted >&2; exit 1; }
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet $$(GOOS=js GOARCH=wasm $(GO) list -deps ./cmd/tankclient ./cmd/tankworker | grep '^tanknet')

fmt: ## gofmt every Go file
	gofmt -w $(GOFILES)

clean: ## remove built binaries and test caches
	rm -rf $(BIN)
	$(GO) clean -testcache
