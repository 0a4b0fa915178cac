// Package transport carries tanknet messages over KCP: session tuning, length-prefixed
// protobuf framing, the Welcome's conversions (arena, rules, lane; snapshots and inputs are
// package wire's), and a link
// conditioner that adds latency, jitter and loss underneath KCP for testing. Under kcp-go on
// both ends sits address validation (connect.go, gate.go, dialgate.go): a stateless cookie
// handshake that admits an address, for one conversation, before KCP sees its packets.
//
// Package transport knows nothing about game rules: it never validates inputs or decides who
// may play. Every decoder of network bytes here returns an error instead of panicking.
package transport
