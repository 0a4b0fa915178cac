// Package transport carries tanknet's bytes over KCP: session tuning, length-prefixed
// protobuf framing and the datagram lane. It imports no message type: what the messages say,
// and every conversion to and from them, is package wire's. Under kcp-go on both ends sits address validation (connect.go, gate.go,
// dialgate.go): a stateless cookie handshake that admits an address, for one conversation,
// before KCP sees its packets (a protocol 1 client, which skips it, is answered with the
// frame ListenConfig.AnswerOldClient makes). The link simulator that tests and tools put under a socket
// is package linksim; nothing here imports it.
//
// Package transport knows nothing about game rules: it never validates inputs or decides who
// may play. Every decoder of network bytes here returns an error instead of panicking.
package transport
