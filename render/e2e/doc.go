// Package e2e holds the tests of the tanknet window that need more than package view's
// headless ones: which packages may pull in Ebitengine, and the real tankclient binary run
// against an in-process server under an X display.
//
// Ebitengine initialises its window system when a program starts, and panics without an X
// display, so these tests never import it: they build cmd/tankclient and run it as a
// subprocess. Run them under a virtual display with
//
//	xvfb-run -a go test ./render/...
//
// Without DISPLAY the window tests skip; the dependency tests still run.
package e2e
