// Package cliflag parses a tanknet command's flags the way every command should: -h prints
// the usage, and a flag that does not parse is one line that says why, with how to write a
// duration given as a bare number, instead of the error followed by every flag's usage. It
// never exits; the command's main decides.
package cliflag
