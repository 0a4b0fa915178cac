package main

import (
	"debug/elf"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestDockerfile reads the repository's Dockerfile (this machine cannot pull its images to
// build it) and checks what the image promises: two stages, a Go 1.24 or newer toolchain,
// a static (CGO_ENABLED=0) build of ./cmd/tankserver copied from the build stage into a
// distroless or scratch image that runs as a non-root user and exposes tankserver's port.
func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var stages [][]string // instructions per stage, comments and blank lines left out
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(strings.ToUpper(line), "FROM ") {
			stages = append(stages, nil)
		}
		if len(stages) == 0 {
			t.Fatalf("Dockerfile: %q before the first FROM", line)
		}
		stages[len(stages)-1] = append(stages[len(stages)-1], line)
	}
	if len(stages) < 2 {
		t.Fatalf("Dockerfile has %d stage(s), want a build stage and a final stage", len(stages))
	}
	build, final := strings.Join(stages[0], "\n"), stages[len(stages)-1]
	if m := regexp.MustCompile(`(?m)^FROM golang:1\.(\d+)`).FindStringSubmatch(build); m == nil {
		t.Error("the build stage is not FROM golang:1.N")
	} else if minor, _ := strconv.Atoi(m[1]); minor < 24 {
		t.Errorf("the build stage uses Go 1.%d, want 1.24 or newer (go.mod's go line)", minor)
	}
	if !regexp.MustCompile(`(?m)^RUN .*CGO_ENABLED=0 go build .*\./cmd/tankserver\b`).MatchString(build) {
		t.Error("the build stage does not RUN CGO_ENABLED=0 go build ... ./cmd/tankserver")
	}
	if !regexp.MustCompile(`^FROM (gcr\.io/distroless/static\S*|scratch)\b`).MatchString(final[0]) {
		t.Errorf("the final stage is %q, want distroless/static or scratch", final[0])
	}
	var user, expose, copied string
	for _, in := range final {
		switch f := strings.Fields(in); strings.ToUpper(f[0]) {
		case "USER":
			user = f[1]
		case "EXPOSE":
			expose = f[1]
		case "COPY":
			if strings.HasPrefix(f[1], "--from=") {
				copied = in
			}
		}
	}
	if name := strings.Split(user, ":")[0]; name == "" || name == "root" || name == "0" {
		t.Errorf("the final stage's USER is %q, want a non-root user", user)
	}
	if want := defaultPort(t) + "/udp"; expose != want {
		t.Errorf("the final stage EXPOSEs %q, want %q (tankserver's default -addr, over UDP)", expose, want)
	}
	if !strings.Contains(copied, "tankserver") {
		t.Error("the final stage does not COPY --from the build stage's tankserver")
	}
}

// defaultPort is the port of tankserver's default -addr.
func defaultPort(t *testing.T) string {
	_, port, err := net.SplitHostPort(DefaultConfig().Server.Addr)
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// TestStaticBuild builds tankserver as the Dockerfile does, CGO_ENABLED=0, and checks the
// binary has no dynamic loader, so it runs on a distroless/static or scratch image.
func TestStaticBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tankserver")
	}
	bin := filepath.Join(t.TempDir(), "tankserver")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build ./cmd/tankserver: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Skipf("not an ELF binary on this platform: %v", err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the CGO_ENABLED=0 tankserver asks for a dynamic loader; the distroless/static image has none")
		}
	}
}

// yamlKeys reads the scalar keys of a simple YAML file (block mappings, block lists of
// mappings, flow lists kept as text) into dotted paths: "spec.template.spec.health.periodSeconds".
// It is a line scanner for fleet.yaml's shape, not a YAML parser.
func yamlKeys(t *testing.T, text string) map[string]string {
	t.Helper()
	type level struct {
		indent int
		key    string
	}
	keys := map[string]string{}
	var stack []level
	for n, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		body := strings.TrimLeft(line, " ")
		if body == "" || strings.HasPrefix(body, "#") {
			continue
		}
		indent := len(line) - len(body)
		if strings.HasPrefix(body, "- ") { // a list item's first key: one level deeper
			body, indent = body[2:], indent+2
		}
		key, value, ok := strings.Cut(body, ":")
		if !ok {
			t.Fatalf("fleet.yaml line %d: %q is not key: value", n+1, line)
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		path := key
		if len(stack) > 0 {
			path = stack[len(stack)-1].key + "." + key
		}
		if value = strings.TrimSpace(value); value == "" {
			stack = append(stack, level{indent, path})
		} else {
			keys[path] = strings.Trim(value, `"`)
		}
	}
	return keys
}

// TestFleetYAML checks deploy/agones/fleet.yaml against tankserver: an Agones Fleet whose
// UDP port with a dynamic policy is tankserver's port, whose health period is tankserver's
// default -agones-health, whose counters are the two tankserver keeps, and whose container
// args are flags tankserver accepts, with -max-rooms the rooms counter's capacity and
// -max-rooms times -max-players the players counter's.
func TestFleetYAML(t *testing.T) {
	data, err := os.ReadFile("../../deploy/agones/fleet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	keys := yamlKeys(t, string(data))
	const gs = "spec.template.spec."
	pod := gs + "template.spec.containers."
	health := DefaultAgonesConfig().Health
	want := map[string]string{
		"apiVersion":                "agones.dev/v1",
		"kind":                      "Fleet",
		gs + "ports.protocol":       "UDP",
		gs + "ports.portPolicy":     "Dynamic",
		gs + "ports.containerPort":  defaultPort(t),
		gs + "health.periodSeconds": strconv.Itoa(int(health / time.Second)),
	}
	for k, v := range want {
		if keys[k] != v {
			t.Errorf("fleet.yaml %s = %q, want %q", k, keys[k], v)
		}
	}
	for _, k := range []string{gs + "health.failureThreshold", gs + "health.initialDelaySeconds", pod + "image", gs + "template.spec.terminationGracePeriodSeconds"} {
		if keys[k] == "" {
			t.Errorf("fleet.yaml has no %s", k)
		}
	}
	var args []string
	if err := json.Unmarshal([]byte(keys[pod+"args"]), &args); err != nil {
		t.Fatalf("fleet.yaml's container args %q are not a flow list of strings: %v", keys[pod+"args"], err)
	}
	cfg, err := parse(args...)
	if err != nil {
		t.Fatalf("tankserver refuses fleet.yaml's args %q: %v", args, err)
	}
	if _, port, _ := net.SplitHostPort(cfg.Server.Addr); port != keys[gs+"ports.containerPort"] {
		t.Errorf("fleet.yaml's args listen on %s, but its containerPort is %s", cfg.Server.Addr, keys[gs+"ports.containerPort"])
	}
	if strconv.Itoa(cfg.Server.MaxRooms) != keys[gs+"counters.rooms.capacity"] {
		t.Errorf("fleet.yaml's args say -max-rooms %d, but the rooms counter's capacity is %s", cfg.Server.MaxRooms, keys[gs+"counters.rooms.capacity"])
	}
	if strconv.Itoa(cfg.Server.MaxRooms*cfg.Server.MaxPlayers) != keys[gs+"counters.players.capacity"] {
		t.Errorf("fleet.yaml's args say -max-rooms %d and -max-players %d, but the players counter's capacity is %s",
			cfg.Server.MaxRooms, cfg.Server.MaxPlayers, keys[gs+"counters.players.capacity"])
	}
	if period := keys[gs+"health.periodSeconds"]; strconv.Itoa(int(cfg.Agones.Health/time.Second)) != period {
		t.Errorf("fleet.yaml's args say -agones-health %v, but its health period is %ss", cfg.Agones.Health, period)
	}
	grace, _ := strconv.Atoi(keys[gs+"template.spec.terminationGracePeriodSeconds"])
	if time.Duration(grace)*time.Second <= cfg.Drain {
		t.Errorf("fleet.yaml's terminationGracePeriodSeconds %d is not longer than its -drain %v: a drain would be killed", grace, cfg.Drain)
	}
}

// TestAllocationYAML checks deploy/agones/allocation.yaml against fleet.yaml and what
// tankserver does with its counters: it allocates from fleet.yaml's fleet, by the rooms
// counter tankserver keeps, one room at a time.
func TestAllocationYAML(t *testing.T) {
	data, err := os.ReadFile("../../deploy/agones/allocation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{
		"kind: GameServerAllocation",
		"agones.dev/fleet: tankserver",
		"gameServerState: Allocated",
		"gameServerState: Ready",
		"key: " + roomsCounter,
		"order: Ascending",
		"        " + roomsCounter + ":\n          minAvailable: 1",
		"    " + roomsCounter + ":\n      action: Increment\n      amount: 1",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("allocation.yaml lacks %q", want)
		}
	}
	fleet, err := os.ReadFile("../../deploy/agones/fleet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if keys := yamlKeys(t, string(fleet)); keys["metadata.name"] != "tankserver" {
		t.Errorf("fleet.yaml's fleet is named %q; allocation.yaml allocates from tankserver", keys["metadata.name"])
	}
}
