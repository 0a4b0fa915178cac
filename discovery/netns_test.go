//go:build linux

package discovery

import (
	"context"
	"fmt"
	"golang.org/x/sys/unix"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestDiscover_AcrossNetworkNamespaces is the LAN test: two network namespaces joined by
// a veth pair stand for two hosts. A server answers on the range in one; a client in the
// other, with its default targets (which hold no unicast address of the server), finds it
// by broadcast at the server's address on that link.
func TestDiscover_AcrossNetworkNamespaces(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to create network namespaces (ip netns add); run as root to test discovery across two hosts")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("needs iproute2's ip (make deps installs it) to create network namespaces")
	}
	a, b := twoHosts(t)

	summary := sample()
	pc, err := inNamespace(a, func() (net.PacketConn, error) { return Listen("", 0) })
	if err != nil {
		t.Fatalf("listen in the server's namespace: %v", err)
	}
	rs := startResponder(t, pc, summary, 0xe1)
	if p := portOf(rs); p != FirstPort {
		t.Errorf("the only server in its namespace answers on %d, want %d", p, FirstPort)
	}
	for _, host := range []string{"0.0.0.0", "::"} { // the next ports of the range, on every IPv4 interface too
		other, err := inNamespace(a, func() (net.PacketConn, error) { return Listen(host, 0) })
		if err != nil {
			t.Fatalf("Listen(%q, 0) beside the server: %v", host, err)
		}
		defer other.Close()
		if got := other.LocalAddr().(*net.UDPAddr); got.IP.To4() == nil || !got.IP.IsUnspecified() || got.Port <= FirstPort || got.Port >= FirstPort+PortCount {
			t.Errorf("Listen(%q, 0) beside the server = %v, want 0.0.0.0 and a later port of the range", host, got)
		}
	}

	type result struct {
		list    []Server
		targets []netip.Addr
		err     error
	}
	found, err := inNamespace(b, func() (result, error) {
		var r result
		r.targets = DefaultTargets()
		for range 10 { // a loaded machine may miss a round; it does not miss ten
			if r.list, r.err = Discover(context.Background(), DefaultBrowseConfig()); r.err != nil || len(r.list) > 0 {
				break
			}
		}
		return r, nil
	})
	if err != nil || found.err != nil {
		t.Fatalf("discover in the client's namespace: %v %v", err, found.err)
	}
	if !slices.Contains(found.targets, netip.MustParseAddr("10.77.0.255")) || slices.Contains(found.targets, netip.MustParseAddr("10.77.0.1")) {
		t.Errorf("the client's default targets are %v, want the link's broadcast address 10.77.0.255 and not the server's own", found.targets)
	}
	if len(found.list) != 1 {
		t.Fatalf("the client found %+v, want the one server", found.list)
	}
	s := found.list[0]
	if s.ID != "00000000000000e1" || s.Game.String() != "10.77.0.1:7777" || s.Page != "http://10.77.0.1:8080/" || s.Discovery.String() != "10.77.0.1:47770" {
		t.Errorf("found %+v, want server e1 at 10.77.0.1", s)
	}
}

// twoHosts creates two network namespaces joined by a veth pair, 10.77.0.1/24 in the first
// and 10.77.0.2/24 in the second, and deletes them when the test ends; it skips the test
// when namespaces cannot be made here (a container without the right).
func twoHosts(t *testing.T) (a, b string) {
	t.Helper()
	a, b = fmt.Sprintf("tn-disc-a-%d", os.Getpid()), fmt.Sprintf("tn-disc-b-%d", os.Getpid())
	if out, err := exec.Command("ip", "netns", "add", a).CombinedOutput(); err != nil {
		t.Skipf("cannot create a network namespace here (ip netns add: %v: %s)", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() { exec.Command("ip", "netns", "del", a).Run() })
	ip := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	ip("netns", "add", b)
	t.Cleanup(func() { exec.Command("ip", "netns", "del", b).Run() })
	ip("-n", a, "link", "add", "veth-a", "type", "veth", "peer", "name", "veth-b", "netns", b)
	for _, h := range []struct{ ns, dev, addr string }{{a, "veth-a", "10.77.0.1/24"}, {b, "veth-b", "10.77.0.2/24"}} {
		ip("-n", h.ns, "addr", "add", h.addr, "brd", "+", "dev", h.dev)
		ip("-n", h.ns, "link", "set", h.dev, "up")
		ip("-n", h.ns, "link", "set", "lo", "up")
	}
	return a, b
}

// inNamespace runs f on a thread moved into the network namespace ns, so the sockets f
// opens belong to ns for good (whichever thread later uses them). The thread is never
// given back to the runtime: its goroutine ends still locked, and the runtime ends the
// thread with it.
func inNamespace[T any](ns string, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		var r result
		defer func() { done <- r }()
		fd, err := os.Open("/run/netns/" + ns)
		if err != nil {
			r.err = err
			return
		}
		defer fd.Close()
		if err := unix.Setns(int(fd.Fd()), unix.CLONE_NEWNET); err != nil {
			r.err = fmt.Errorf("setns %s: %w", ns, err)
			return
		}
		r.v, r.err = f()
	}()
	r := <-done
	return r.v, r.err
}

// startResponder serves pc with summary under id until the test ends.
func startResponder(t *testing.T, pc net.PacketConn, summary Answer, id uint64) *Responder {
	t.Helper()
	rs, _ := servers(t, func() (net.PacketConn, error) { return pc, nil }, summary, DefaultResponderConfig(), id)
	return rs[0]
}
