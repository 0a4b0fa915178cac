// Package linksim simulates a network link for tests and tools: ConditionedConn is a
// net.PacketConn that delays, jitters, drops, duplicates and reorders the datagrams going
// through it, each direction with its own Link settings and its own seeded random stream,
// so a run can be replayed. It also holds the named presets (lan, wifi-bad, mobile-3g, ...)
// and the command-line flags that choose them.
//
// Put it under kcp-go (below the address-validation gate, above the UDP socket) in tanksim,
// the demo, `-net` on the commands, and tests. Production code never needs it: package
// transport, wire, server and client do not import it (internal/layering checks), and a real
// network needs no simulated one on top. It knows nothing of KCP or tanknet's messages.
package linksim
