// Package client is a tanknet player without a window: it connects to a server, handshakes,
// sends one MoveInput per 50 ms prediction step, and feeds every snapshot to the netcode
// layer, which predicts the player's own tank and interpolates everyone else's. Scripted
// bots drive it for tests and for tanksim; the Ebitengine client in package render drives
// the same Game with a keyboard.
//
// A Game is made of parts, each a small type with its own state, methods and test. Game's
// methods hand each message and frame to the parts that take it, and do themselves only what
// joins parts: a shot and the bots' aim (our tank, the others as drawn, our combat), and
// which tanks our contact pushes answer (our tank's state, the others, the rules in force):
//
//   - uplink (uplink.go): the Link, each prediction step's Move, the InputBatch that repeats
//     the unacknowledged inputs on the datagram lane, and the pings;
//   - lanes (lanes.go, arrivals.go): which snapshot ticks and chunks came, the
//     acknowledgement and head-of-line stalls, and the baselines delta chunks build on;
//   - pacing (pace.go): the Game's clock, the input mode, and the prediction clock's
//     dilation that keeps our inputs just in time for the server's input buffer;
//   - prediction (prediction.go): our own tank's netcode.Local, placed by the first state
//     of it and reconciled with every later one;
//   - timeline (remotes.go, contact.go): the other tanks, interpolated, named by the
//     roster, forgotten when they leave our view, and taken on to where our contact pushes
//     meet them;
//   - combat (combat.go, feed.go): our health, our shots judged on what we drew and the
//     server's answers, the tracers and kills to draw;
//   - statistics (stats.go): the counts Stats and Report give.
//
// Each Fire lists how every remote tank was drawn, and the Game judges the shot itself on
// what it drew, so ShotStats can say how often the server agreed. Game.Aim is the bots'
// gunner.
//
// A Game talks to a Link (link.go): a live Session, or anything that plays its part. What it
// receives and sends are plain Go values (wire.ServerMessage, wire.GameMessage): package
// wire turns them into protocol messages and back, and this package reads no protobuf
// message. A Game can keep a recording of what it was given (record.go), and Replay
// (replay.go) runs one through a new Game, which then does exactly what the first did
// (docs/RECORDINGS.md). A Mirror (mirror.go) does so while the recording is still being
// written: the browser page draws the Game its worker runs that way (client/tabworker).
//
// Package client never imports Ebitengine, so it runs headless. A Game is not safe for
// concurrent use: bots call Game.Update from one goroutine and read it between Updates. A
// window's Game is owned by a Runner (runner.go), whose goroutine runs Update when a message
// arrives and when a prediction step falls due, so inputs leave on the 50 ms clock and not
// when a frame happens to be drawn; the frame loop holds the Runner's lock while it drives
// or reads the Game. The network reader (Session.Run) runs beside both and only queues.
package client
