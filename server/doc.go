// Package server is the authoritative tanknet game server: it accepts KCP sessions, checks
// each client's handshake and inputs, simulates every tank with netcode.Step on a 50 ms tick,
// resolves tank contact, and sends every client a snapshot of the world each tick.
//
// It also referees combat (combat.go, fire.go): hitscan shots, health, kills and respawns,
// with lag compensation: it remembers what every snapshot showed (history.go) and judges a
// shot against each target exactly as the shooter drew it (netcode.DrawnPose), within a
// bounded rewind window. A shot is judged only on what its client could have drawn: tanks it
// was sent (seen.go), no further back than its round trip explains; its cooldown is counted
// in granted game time and server time, never in client-chosen units (cooldown.go); and
// with interest management no message tells a client of a tank beyond its view (reveal.go).
// Every exported count is declared once, in the tag of the Stats field that holds it
// (stats.go), from which both Stats and the Metrics table are derived.
//
// Each tick's TickRecord says what the tick did: the inputs applied (as simulated), who was
// placed (a join or a respawn, with the pose) or left since the last tick (journal.go), and
// every tank's pose, ack and combat at its end. Package server/recording writes them to a
// file (tankserver -record) from which the current code can rebuild every tick.
//
// One server plays several matches on one port, each in a room (rooms.go, room.go): a Hello
// names its room, the default room is always open, others open on demand up to
// Config.MaxRooms and close when empty. Each room is a world owned by one goroutine of its
// own, ticking on its own; connection goroutines only decode and enqueue, and a slow client
// only ever holds up its own connection. With interest management, each client's own
// snapshot is built after the tick by a few worker goroutines from what the tick left behind
// (fanout.go), so the tick stays short at hundreds of players. Package server never trusts a byte from the
// network: malformed frames, bad values and impossible timing get a logged reason, a counter
// and, where needed, a disconnect of that one client.
package server
