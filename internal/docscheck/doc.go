// Package docscheck holds tests that keep the documents in docs/ true to the code:
// PROTOCOL.md's tables of messages, fields and enums against tank.proto's descriptors,
// COMMANDS.md against every program's flags, and ARCHITECTURE.md's paths against the tree.
// It has no code of its own and never imports a package that opens a window.
package docscheck
