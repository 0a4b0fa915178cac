package transport

import (
	"errors"
	"net"
	"testing"
)

func TestDial_ClosesItsSocketOnABadAddress(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Dial("no port here", pc); err == nil {
		t.Fatal("Dial to an address without a port succeeded")
	}
	if _, err := pc.WriteTo([]byte{1}, pc.LocalAddr()); !errors.Is(err, net.ErrClosed) {
		t.Errorf("socket after a failed Dial: WriteTo error %v, want it closed (Dial owns it)", err)
	}
}
