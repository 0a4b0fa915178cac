package main

import (
	"fmt"
	"net"
)

// checkAddr refuses a value of flag that is not HOST:PORT with a port from 0 to 65535 (or a
// service name the system knows for network): caught here, before anything starts, rather
// than when the socket is opened.
func checkAddr(flag, addr, network string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s %q: %w", flag, addr, err)
	}
	if _, err := net.LookupPort(network, port); err != nil {
		return fmt.Errorf("%s %q: the port must be a number from 0 to 65535", flag, addr)
	}
	return nil
}
