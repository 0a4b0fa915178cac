package main

import (
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"rsc.io/qr"
)

// printURLs writes where the page listening at addr can be opened (-web-urls): the play,
// demo and tour URLs at each address it answers on (every IPv4 address of this host's
// interfaces that are up, and loopback, when it listens on all of them), then a QR code of
// the first LAN address's page for a phone's camera; a page on loopback alone gets no
// code, as no phone can reach it.
func printURLs(w io.Writer, addr *net.TCPAddr) error {
	hosts := []string{addr.IP.String()}
	if addr.IP.IsUnspecified() {
		hosts = append(lanHosts(), "127.0.0.1")
	}
	port := strconv.Itoa(addr.Port)
	fmt.Fprintln(w, "tanknet in a browser; open one of these:")
	for _, h := range hosts {
		base := "http://" + net.JoinHostPort(h, port) + "/"
		fmt.Fprintf(w, "  play  %s\n  demo  %s?demo=1\n  tour  %s?tour=1\n", base, base, base)
	}
	if ip := net.ParseIP(hosts[0]); ip == nil || ip.IsLoopback() {
		fmt.Fprintln(w, "\nThe page listens on this machine only: for phones and other computers, serve it on every interface (make web-demo without HOST, or -web :PORT).")
		return nil
	}
	url := "http://" + net.JoinHostPort(hosts[0], port) + "/"
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
