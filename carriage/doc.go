// Package carriage carries tanknet's datagrams where a UDP socket cannot go: a web
// browser's KCP session rides a WebRTC data channel that is unordered and never
// retransmits (maxRetransmits 0), adapted to a net.PacketConn on both ends, so everything
// above it (the cookie handshake, KCP, FEC, both lanes, every limit) is the same as over UDP.
//
// On the server a Hub answers offers posted over HTTP (Hub.ServeHTTP), runs every browser's
// peer connection on one UDP port (ICE UDP mux) and reads as one net.PacketConn in which each
// browser has an address of its own (PeerAddr); Merge joins it to the game's UDP socket, so
// the KCP listener serves browsers and native clients in the same rooms. A client reaches
// it with Dial, the same call on every target: built for js/wasm through the browser's own
// RTCPeerConnection (dial_js.go, so the page carries no WebRTC stack), elsewhere (tests,
// tools) through pion (dial.go), where a Dialer may choose pion's API (LoopbackAPI).
// docs/PROTOCOL.md's "Carriage" section (§1.9) describes the mapping.
//
// Package carriage knows no game: it never parses KCP or messages, only tells the connect
// handshake's datagrams from the rest (transport.IsHandshake) to see whether a peer got in.
package carriage
