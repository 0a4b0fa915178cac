// Package displaycheck stops a window program that has no display to open a window on,
// with a sentence saying what is missing, before Ebitengine's initialisation would panic
// with a stack trace.
//
// It does its work in init, so it must run before Ebitengine's packages initialise. Go
// initialises packages in import-path order among those whose imports are ready (Go 1.21
// and later), and Ebitengine's start-up panics in a package initialiser, so this package
// lives in a module of its own whose path, "displaycheck", sorts before "github.com/...";
// it imports only os, which Ebitengine needs too. The tanknet module uses it through a
// replace directive, and only cmd/tankclient imports it (blank import).
package displaycheck
