// Package server is the authoritative tanknet game server: it accepts KCP sessions, checks
// each client's handshake, runs each room's match (package world) on a 50 ms tick, and
// sends every client a snapshot of the world each tick.
//
// The match itself (tanks, input buffers, movement, contact, combat with lag compensation,
// respawns) is package world, which has no I/O and no clock. Each room runs a game
// (game.go): it feeds the world what its clients sent, ticks it, and turns what happened
// into messages: ShotResults, tracers and kills (reveal.go: with interest management no
// message tells a client of a tank beyond its view), the roster, and every client's
// snapshot. The world owns the tanks, and each player is its tank's client: the room's
// players are the world's tanks, and a player refers to its tank by pointer. The world asks
// a client only what the server knows of it: how it wants its inputs applied, its round
// trip, and which tanks it was sent (shown.go).
// The server keeps its counts in atomics (counts.go, bufferstats.go) that Server.Stats
// reads into Stats (stats.go); package server/metrics exports those on /metrics, so this
// package knows nothing of Prometheus.
//
// Each tick's TickRecord says what the tick did: the world's Outcome (the inputs applied
// as simulated, who was placed or left since the last tick, every tank's pose, ack and
// combat at its end) with its room and time. Package server/recording writes them to a
// file (tankserver -record) from which package world can rebuild every tick.
//
// One server plays several matches on one port, each in a room (rooms.go, room.go): a Hello
// names its room, the default room is always open, others open on demand up to
// Config.MaxRooms and close when empty. Each room is a game owned by one goroutine of its
// own, ticking on its own; connection goroutines only decode and enqueue, and a slow client
// only ever holds up its own connection. With interest management, each client's own
// snapshot is built after the tick by a few worker goroutines from what the tick left behind
// (fanout.go), so the tick stays short at hundreds of players. Package server never trusts a byte from the
// network: malformed frames, bad values and impossible timing get a logged reason, a counter
// and, where needed, a disconnect of that one client.
package server
