//go:build !js

// Command tankworker is the browser page's game worker: built for js/wasm (make web) and run
// in a dedicated Web Worker by the page (cmd/tankclient/web/tankworker.js), it plays the
// page's game off the page's frame loop (package client/tabworker). It never imports
// Ebitengine, whose start needs a document, so it stays small. Outside a browser it only
// says so.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "tankworker runs in a browser page's Web Worker: build it with GOOS=js GOARCH=wasm (make web)")
	os.Exit(2)
}
