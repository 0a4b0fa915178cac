package main

import (
	"errors"
	"net"
	"strings"
	"syscall"
	"testing"
)

// TestListenError_APortInUseSaysWhatToDo: a port another program holds is named with the
// flag that chose it and what to do; the error still is EADDRINUSE underneath.
func TestListenError_APortInUseSaysWhatToDo(t *testing.T) {
	held, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	addr := held.LocalAddr().String()
	_, bindErr := net.ListenPacket("udp", addr)
	if bindErr == nil {
		t.Fatal("a second socket bound the same port")
	}
	err = listenError("-web (its port over UDP, for WebRTC)", addr, bindErr)
	if want := "-web (its port over UDP, for WebRTC) " + addr + ": the port is in use (by another tankserver?): stop that one, or give -web another port"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("listenError = %q, want it to begin %q", err, want)
	}
	if !errors.Is(err, syscall.EADDRINUSE) {
		t.Errorf("listenError = %v, which is no longer EADDRINUSE", err)
	}
	other := listenError("-addr", "127.0.0.1:1", errors.New("permission denied"))
	if other.Error() != "-addr 127.0.0.1:1: permission denied" {
		t.Errorf("another error: %q, want it as is after the flag and address", other)
	}
}
