package main

import (
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"rsc.io/qr"
)

// printURLs writes where the page can be opened (-web-urls): for every IPv4 address of this
// host's interfaces that are up, the play, demo and tour URLs at port, then a QR code of the
// first LAN address's page for a phone's camera (loopback when the host has no LAN).
func printURLs(w io.Writer, port int) error {
	hosts := lanHosts()
	first := "127.0.0.1"
	if len(hosts) > 0 {
		first = hosts[0]
	}
	fmt.Fprintln(w, "tanknet in a browser; open one of these:")
	for _, h := range append(hosts, "127.0.0.1") {
		base := "http://" + net.JoinHostPort(h, strconv.Itoa(port)) + "/"
		fmt.Fprintf(w, "  play  %s\n  demo  %s?demo=1\n  tour  %s?tour=1\n", base, base, base)
	}
	url := "http://" + net.JoinHostPort(first, strconv.Itoa(port)) + "/"
	code, err := qr.Encode(url, qr.M)
	if err != nil {
		return fmt.Errorf("QR code of %s: %w", url, err)
	}
	fmt.Fprintf(w, "\nOn a phone on the same network, scan this for %s:\n", url)
	_, err = io.WriteString(w, terminalQR(code))
	return err
}

// lanHosts returns the IPv4 addresses of this host's interfaces that are up, loopback left out.
func lanHosts() []string {
	ifaces, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var out []string
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
				out = append(out, n.IP.String())
			}
		}
	}
	return out
}

// quietZone is the light border a scanner needs around the code, in modules.
const quietZone = 4

// terminalQR draws code with half blocks, two module rows to a line, in black on a white
// background whatever the terminal's colours (a dark terminal would otherwise invert it,
// which some phone scanners do not read).
func terminalQR(code *qr.Code) string {
	const on, off = "\x1b[30;47m", "\x1b[0m"
	var b strings.Builder
	for y := -quietZone; y < code.Size+quietZone; y += 2 {
		b.WriteString(on)
		for x := -quietZone; x < code.Size+quietZone; x++ {
			top, bottom := code.Black(x, y), code.Black(x, y+1)
			switch {
			case top && bottom:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bottom:
				b.WriteString("▄")
			default:
				b.WriteString(" ")
			}
		}
		b.WriteString(off + "\n")
	}
	return b.String()
}
