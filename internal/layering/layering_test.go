package layering

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// deps returns the module-internal and third-party packages pkg depends on, via go list.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// TestLayering checks each rule with the reason it exists.
func TestLayering(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	rules := []struct {
		pkg    string
		banned []string // substrings of import paths; "*" bans everything outside the standard library
		why    string
	}{
		{"tanknet/netcode", []string{"*"}, "netcode is pure game logic shared by server and client: standard library only"},
		{"tanknet/transport", []string{"tanknet/server", "tanknet/client", "tanknet/render"}, "transport carries bytes and knows no game roles"},
		{"tanknet/wire", []string{"tanknet/server", "tanknet/client", "tanknet/render", "tanknet/sim"}, "wire is the one definition of the snapshot and input bytes that both ends (and recordings) share: they depend on it, never the reverse"},
		{"tanknet/transport", []string{"tanknet/proto"}, "transport frames and moves bytes; what they say (every protocol message and its conversion) is package wire's"},
		{"tanknet/transport", []string{"tanknet/linksim"}, "the link simulator is a tool put under a socket by commands and tests; production transport never carries it"},
		{"tanknet/wire", []string{"tanknet/linksim"}, "the link simulator is a tool, not part of the wire format"},
		{"tanknet/server", []string{"tanknet/linksim"}, "the server package runs real networks; only cmd/tankserver's -net wraps its socket in the simulator"},
		{"tanknet/client", []string{"tanknet/linksim"}, "a client session runs real networks; the commands, render's demo and sim put the simulator under it"},
		{"tanknet/linksim", []string{"tanknet/transport", "tanknet/wire", "tanknet/server", "tanknet/client"}, "the link simulator only moves datagrams: it knows no KCP, messages or game"},
		{"tanknet/server", []string{"tanknet/client", "tanknet/render"}, "the server runs headless and never shares client code"},
		{"tanknet/server", []string{"prometheus"}, "the tick loop keeps counters; only server/metrics turns them into Prometheus metrics"},
		{"tanknet/client", []string{"tanknet/server", "tanknet/render"}, "bots and tanksim use client headless; only render may draw"},
		{"tanknet/cmd/tankserver", []string{"tanknet/client", "tanknet/render"}, "the server program shares no client code"},
		{"tanknet/sim", []string{"tanknet/render"}, "the measuring instrument must run on a machine with no display"},
		{"tanknet/cmd/tanksim", []string{"tanknet/render"}, "tanksim must run on a machine with no display"},
		{"tanknet/carriage", []string{"tanknet/server", "tanknet/client", "tanknet/render", "tanknet/wire", "tanknet/linksim"}, "the carriage moves datagrams under the gate (it reads only transport's handshake kinds): it knows no game roles, snapshots or simulator"},
		{"tanknet/server", []string{"pion"}, "the server package serves a net.PacketConn; only cmd/tankserver -web puts the WebRTC carriage under it"},
		{"tanknet/client", []string{"pion"}, "a client session runs over any net.PacketConn; only the browser build of cmd/tankclient puts the WebRTC carriage under it"},
		{"tanknet/agones", []string{"*"}, "the Agones SDK client is plain HTTP at the edge: standard library only, and it knows no game"},
		{"tanknet/discovery", []string{"*"}, "LAN discovery is a small package of its own: standard library only, no game types beyond the summary it is given"},
	}
	for _, r := range rules {
		for _, d := range deps(t, r.pkg) {
			if d == r.pkg {
				continue
			}
			for _, ban := range r.banned {
				if ban == "*" || strings.Contains(d, ban) {
					t.Errorf("%s depends on %s: %s", r.pkg, d, r.why)
				}
			}
		}
	}
}

// TestProtocolMessages checks who imports the protocol's generated messages (tankv1)
// directly, outside tests: package wire turns every message into plain Go values and back,
// so the rest reads values, a field is decoded in one place, and a second carriage or a
// recording only has to call wire. server/recording and the commands keep their own files'
// formats; docscheck compares PROTOCOL.md with the schema.
func TestProtocolMessages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const messages = "tanknet/proto/"
	allowed := func(pkg string) bool {
		return strings.HasPrefix(pkg, messages) || pkg == "tanknet/wire" || pkg == "tanknet/server/recording" ||
			strings.HasPrefix(pkg, "tanknet/cmd/") || pkg == "tanknet/internal/docscheck"
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "tanknet/...").Output()
	if err != nil {
		t.Fatalf("go list tanknet/...: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		checked++
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, messages) && !allowed(f[0]) {
				t.Errorf("%s imports %s: protocol messages are package wire's; take wire's Go values", f[0], imp)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("go list named %d packages; the module has more", checked)
	}
}

// TestBrowserBuild checks what the browser client (cmd/tankclient for js/wasm) leaves out:
// it rides the browser's own RTCPeerConnection and fetch (carriage/dial_js.go), so a WebRTC
// stack or Go's HTTP client and TLS in the wasm would only make every page load heavier.
func TestBrowserBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	cmd := exec.Command("go", "list", "-deps", "tanknet/cmd/tankclient")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go list -deps tanknet/cmd/tankclient: %v", err)
	}
	for _, d := range strings.Fields(string(out)) {
		if strings.Contains(d, "pion") || d == "net/http" || d == "crypto/tls" {
			t.Errorf("the browser client depends on %s: the page has the browser's WebRTC and fetch", d)
		}
	}
}
