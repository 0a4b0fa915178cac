// Package soak holds the soak: one tankserver in process with bots across rooms, one room
// opening and closing every 30 s, every packet through a harsh link (a second of latency,
// a quarter lost and a quarter duplicated each way), checked for inputs applied once and in
// order, drops, and goroutines and live heap back to their baseline (docs/SOAK.md).
//
// It is a package of its own so that its test binary is a process of its own: the baseline
// is the soak's alone, and go test runs it beside the server package's tests rather than
// after them. TestSoak_Minute is what make test runs; TestSoak, with TANKNET_SOAK set to a
// duration, is make soak.
package soak
