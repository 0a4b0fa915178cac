// Package displaycheck stops a window program that has no display to open a window on,
// with a sentence saying what is missing, before Ebitengine's initialisation would panic
// with a stack trace.
//
// It does its work in init, so it must run before Ebitengine's packages initialise. Go
// initialises packages in import-path order among those whose imports are ready (Go 1.21
// and later), and Ebitengine's start-up panics in a package initialiser, so this package
// lives in a module of its own whose path, "displaycheck", sorts before "github.com/...";
// it imports only os and embed, which need no window. The tanknet module uses it through a
// replace directive, and only cmd/tankclient imports it (blank import).
//
// Asked for help (-h) with no display, it prints the program's help itself (Help), since
// Ebitengine's initialisation would panic before the flags could.
package displaycheck
