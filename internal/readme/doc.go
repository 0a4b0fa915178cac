// Package readme holds a test that the commands in the README run as written: every make
// target it names exists, and every program it runs accepts the flags given (checked by
// running the program with those flags and -h). It has no code of its own.
package readme
