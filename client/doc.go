// Package client is a tanknet player without a window: it connects to a server, handshakes,
// sends one MoveInput per 50 ms prediction step, and feeds every snapshot to the netcode
// layer, which predicts the player's own tank and interpolates everyone else's. Scripted
// bots drive it for tests and for tanksim; the Ebitengine client in package render drives
// the same Game with a keyboard.
//
// A Game also fires (combat.go): each Fire lists how every remote tank was drawn, and the
// Game judges the shot itself on what it drew, so ShotStats can say how often the server
// agreed. Game.Aim is the bots' gunner.
//
// A Game talks to a Link (link.go): a live Session, or anything that plays its part. What it
// receives and sends are plain Go values (wire.ServerMessage, wire.GameMessage): package
// wire turns them into protocol messages and back, and this package reads no protobuf
// message. A Game
// can keep a recording of what it was given (record.go), and Replay (replay.go) runs one
// through a new Game, which then does exactly what the first did (docs/RECORDINGS.md).
//
// Package client never imports Ebitengine, so it runs headless. Its netcode state belongs to
// whichever goroutine calls Game.Update; only the network reader runs beside it.
package client
