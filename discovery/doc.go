// Package discovery finds tanknet servers on a local network without anyone typing an
// address: a server answers small UDP requests with a summary of itself (its name, its
// game and page ports, its rooms and how full they are, whether it is draining), and a
// client broadcasts requests and collects the answers (Discover for one round, Browse for
// a lobby that keeps its list current).
//
// The codec (message.go) does no I/O and never panics on any bytes; the Responder and
// Browse are the only parts that touch sockets. An answer is never longer than the request
// that asked for it, so a spoofed request cannot make a server an amplifier, and each
// source is rate limited (limiter.go). The package uses the standard library only and
// knows no game types: the server hands it a function that returns an Answer. The byte
// layout is in PROTOCOL.md §12.
//
// It is not a way to reach servers beyond the local network (broadcasts do not cross
// routers) nor a registry: a server that stops answering is simply dropped.
package discovery
