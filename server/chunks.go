package server

// Snapshot chunks for the datagram lane. A tick's players are cut, in player_id order, into
// as few chunks as fit one datagram each; every chunk is a complete Snapshot message of its
// own (server_tick, chunk_index, chunk_count and whole PlayerStates), so a client can use any
// chunk without the others and a lost chunk costs only the tanks in it.

// chunkOverhead is an upper bound on what a chunk costs besides its players: the
// ServerMessage tag and length (1 + 3 bytes), Snapshot's server_tick, chunk_index and
// chunk_count fields (3 x (1 + 5)).
const chunkOverhead = 4 + 3*6
