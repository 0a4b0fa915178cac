//go:build !linux

package main

import (
	"fmt"
	"net"
	"os"
)

// runBatch needs sendmmsg and recvmmsg, which only Linux has.
func runBatch(_ []*net.UDPConn, _ *net.UDPAddr, _ []flow, _ *counters, _ chan struct{}) {
	fmt.Fprintln(os.Stderr, "packetfloor: -mode batch needs Linux")
}
