// Package recording writes and reads server recordings: the header, every tick's joins,
// leaves and applied inputs, and a keyframe of the whole world every few ticks, as
// length-delimited tank.v1.Record messages (docs/RECORDINGS.md). Recorder takes the
// server's tick records and writes them from its own goroutine, so a slow disk never
// stalls a tick: when its bounded queue fills, it logs and stops. Reader reads a file back
// and names the byte offset of anything wrong; Verify re-simulates a recording with the
// current netcode and Diff compares two recordings, each naming the first tick, player and
// field that differ. Match holds a recording in memory for a viewer and rebuilds the world at
// any tick from the keyframe before it (match.go); File is the recording tankserver -record
// and the demo's -record write (file.go).
package recording
