package transport

import (
	"net"
	"testing"
	"time"
)

// waitLimit bounds every wait in these tests; nothing should come close to it.
const waitLimit = 10 * time.Second

// listenUDP opens a loopback UDP socket that the test closes.
func listenUDP(t testing.TB) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
