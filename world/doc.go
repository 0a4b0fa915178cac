// Package world is the authoritative match: every tank, its input buffer, movement,
// contact, combat, respawns and the lag-compensation history. It has no sockets, files,
// logging or clock: a driver calls it (Join, Leave, Part, Queue, QueueCopies, Fire, Tick),
// gives it the time as an argument, and reads what happened from the Outcome each Tick
// returns.
//
// Three drivers run this one package. The server (package server) feeds it what its
// sessions received and turns each Outcome into messages and snapshots. A recording
// (package server/recording) replays the decisions a tick made (Replay: who was placed and
// left, the inputs applied, the combat that resulted) through the same placement, movement
// and contact code, so a rule changed here shows in every re-simulation. The lockstep tests
// drive it beside real client netcode in virtual time.
//
// Inputs are checked as they are queued (Queue, QueueCopies: admit.go, copies.go) and wait in
// their player's input buffer. A tick, in order (Tick): players that left have their last
// inputs applied and then go (parting.go); wrecks whose delay is over respawn (combat.go);
// each player's buffered inputs are simulated with netcode.Simulate as far as are due
// (inputbuffer.go) and its time budget allows (pace.go); contact is resolved; shots are judged
// against targets rewound to what the shooter drew (fire.go, history.go, sight.go), within a
// cooldown counted in game and server time (cooldown.go).
package world
