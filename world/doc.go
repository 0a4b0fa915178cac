// Package world is the authoritative match: every tank, its input buffer, movement,
// contact, combat, respawns and the lag-compensation history. It has no sockets, files,
// logging or clock: a driver calls it (Join, Leave, Part, Queue, QueueCopies, Fire, Tick),
// gives it the time as an argument, and reads what happened from the Outcome each Tick
// returns. The world owns every tank: Join makes it and the world holds it until the player
// goes; a driver keeps what it needs of a player in the Client it joins the tank with.
//
// Three drivers run this one package. The server (package server) feeds it what its
// sessions received and turns each Outcome into messages and snapshots. The lockstep tests
// drive it beside real client netcode in virtual time. A recording (package
// server/recording) keeps the decisions each tick made (who was placed where and who left,
// the inputs applied, the shots fired and the combat that resulted) and Replay runs them
// through the same placement, movement, contact and shot-judging code: a change to how
// tanks move, collide, are placed or are hit shows in every re-simulation that starts from
// an empty world (one that starts from a keyframe applies the recorded combat instead, as it
// has no history to rewind into). Which inputs pass the rules and when, and spawn points,
// are not decided again: a recording holds their outcome. Nor is what each client was sent,
// or its round trip: a recorded shot is taken to have passed the checks that rest on them.
//
// Inputs are checked as they are queued (Queue, QueueCopies: admit.go, copies.go) and wait in
// their player's input buffer. A tick, in order (Tick): players that left have their last
// inputs applied and then go (parting.go); wrecks whose delay is over respawn (combat.go);
// each player's buffered inputs are simulated with netcode.Simulate as far as are due
// (inputbuffer.go) and its time budget allows (pace.go); contact is resolved; shots are judged
// against targets rewound to what the shooter drew (fire.go, history.go, sight.go), within a
// cooldown counted in game and server time (cooldown.go).
package world
