// Package wire owns tanknet's protocol messages: every conversion between them and plain Go
// values happens here. Chiefly the per-tick traffic: how a tick's tank states become a
// snapshot (whole on the stream, or cut into chunk datagrams and delta encoded against a
// baseline the client acknowledged) and back, and how a client's inputs become a MoveInput
// or an InputBatch datagram and back, with the checks a receiver makes on what arrives.
// A client receives every server message as a ServerMessage (message.go) and sends a
// ClientMessage (client.go): Go values, never a protobuf message. Both are interfaces sealed
// by an unexported method, so a value of any other type fails to compile where a message is
// sent or switched on. The server and the client
// both call it, so a field added to a snapshot or an input is written and read in one
// place, and one round-trip test and one fuzz target guard both halves.
//
// Where things are: state.go is one tank (Tank, and the EntryEncoder the server runs once
// per tank a tick); snapshot.go the Header and the stream form; chunks.go the DeltaBuilder
// that cuts one client's snapshot into chunk datagrams against a baseline; receive.go the
// checks a client makes of a chunk; baselines.go how it rebuilds the tanks sent against a
// baseline; input.go MoveInput and InputBatch both ways; disconnect.go the Disconnect and its
// code; arena.go, fire.go (the rules, a Fire, its refusals), lane.go and welcome.go (the
// Welcome and Reject) what the handshake and a shot carry; shot.go ShotResult, Shot and Kill
// both ways; message.go every server message as a Go value (and the sealed ServerMessage);
// client.go the messages a client sends (and the sealed ClientMessage and GameMessage),
// fromclient.go how a server reads them; clientrecording.go a client recording's bytes;
// legacy.go the Reject a protocol 1 client gets; limits.go the limits both ends keep.
//
// The name is netcode's: poses already travel on netcode's "wire grid", and this package
// is the rest of the wire form. transport moves bytes (KCP sessions, framing, datagrams)
// without knowing what they say; wire says what they say without moving any.
//
// Package wire performs no I/O of its own (a client recording goes to and comes from the
// io.Writer or io.Reader its caller gives it), starts no goroutines and keeps no state
// between calls except in the values it returns (a DeltaBuilder's scratch, a receiver's
// Baselines, a recording reader's position). It
// never imports the server or the client. It is not where the game decides anything: which
// tanks a client sees, which baseline to use and what to do with a bad datagram stay with
// the caller.
package wire
