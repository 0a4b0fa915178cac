// Package load is tanknet's load generator: thin clients that speak the whole protocol
// (handshake, a MoveInput every 50 ms on the stream and the repeated InputBatch datagram,
// snapshot acknowledgements, pings) over real KCP, without prediction, interpolation or
// statistics, so that one process can hold a thousand players for a fraction of a core. Each
// checks that the server applies its inputs (its tank's acknowledged move tick catches up
// with every tick sent) and that snapshots arrive, and reports latency percentiles measured
// from each input's intended send time, so a client that falls behind its schedule shows
// the delay instead of hiding it (coordinated omission, as wrk2 and HdrHistogram avoid it).
//
// A thin client costs what its datagrams cost and little more. It puts on the wire what a
// dialled client.Session does, datagram for datagram, but drives kcp-go's KCP core itself
// over transport.ClientWire (link.go) instead of a kcp-go session, which would add two
// goroutines, a timer and a channel hop a packet: one reader goroutine a client takes what
// arrives and acknowledges it at once, each message sent is flushed at once, and each
// driver runs its clients' KCP clocks on one timer. Of a snapshot chunk it reads only the
// header and its own tank's acknowledged move tick (wire.ScanChunk), and instead of
// rebuilding the other tanks from baselines it judges from the chunks that came whether a
// full client could have (arrivals.rebuildable), so it acknowledges the very ticks a full
// client would. tools/packetfloor measures what the same datagrams cost the kernel alone.
//
// A run takes a Config (DefaultConfig, Validate) and Run returns a Report. cmd/tankload is its
// command line and tools/loadcurve measures a server's cost with it as players grow.
//
// load never draws and never imports Ebitengine; it talks only to the server it is given,
// and it is no game client: it recovers nothing from FEC parity (KCP retransmits instead)
// and checks of what the server sends only what it uses.
package load
