// Package netcode is the game logic shared by the tanknet server and its clients: tank poses,
// the movement step, the arena, and the client-side machinery of prediction, replay,
// reconciliation, bounded correction and remote interpolation.
//
// Package netcode performs no I/O, starts no goroutines, never reads the wall clock and never
// uses global randomness: every function that needs time takes it as an argument, so the
// server, the clients and the tests all drive it the same way and get the same bits.
//
// Determinism is the package's main promise. [Step] is the only movement code in the project;
// the server runs it on each MoveInput and clients run it to predict and to replay. Given the
// same pose, input and duration it returns bit-identical results on both sides, so with no
// tank contact a client's replayed pose equals the server's exactly. Expressions of the form
// a*b+c are written float64(a*b)+c so that no compiler may fuse them into an FMA instruction,
// which would round differently on architectures that have one.
//
// The wire grid belongs here too ([GridUnit], [HeadingUnit], [GridPose]). Snapshots carry
// poses as grid integers, so Step ends every step on the grid ([Arena.Snap]), on the server
// and in every client: the server stores exactly the values it sends, and a client replaying
// from a received pose still lands on the server's bits.
//
// Remote tanks are drawn a little in the past by an [Interpolator], on one of two
// [Timeline]s. The adaptive one ([ServerTimeline]) sizes its delay for the gaps the link
// actually shows, not only for arrival jitter: every arrival records how much delay it
// needed to be in time (a late snapshot needs more, and so does one after a lost snapshot,
// a tick more per loss), and the delay covers [InterpConfig.Cover] of the recent needs.
// Snapshots may come late, twice, out of order or not at all (the datagram lane); the
// interpolator keeps only states newer than the newest, so none of that needs handling
// outside it. It slides between any two bracketing states, except across more than
// [MaxViewSpan] ticks (held) and into a state pushed with [Interpolator.PushTeleport] (shown
// at once: the client pushes a respawn that way).
package netcode
