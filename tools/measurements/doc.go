// Command measurements regenerates docs/MEASUREMENTS.md: it runs every measurement listed in
// sections.go with the programs in bin/ (make build), reads their JSON reports, and writes
// one table per section with the commands that produced it and the machine it ran on.
//
//	make measurements            # all of it: about an hour
//	go run ./tools/measurements -only '^Every preset'   # one section again, the others kept
//	go run ./tools/measurements -only 'Frame rate' -out /tmp/m.md
//
// It writes no clock times, commit hashes or names: a table says what ran and where, so
// anyone can run it again. It is slow and timing-sensitive, so it is not part of make test.
package main
