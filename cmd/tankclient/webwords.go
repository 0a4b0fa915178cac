package main

import (
	"errors"
	"fmt"

	"tanknet/carriage"
)

// joinWords returns, in sentences a visitor can act on, why the page at origin could not
// reach its game server: no server at all, a web host that is not tankserver, a server
// that is busy or refuses, or UDP blocked on the way.
func joinWords(origin string, err error) string {
	var refused *carriage.RefusedError
	switch {
	case errors.Is(err, carriage.ErrNoServer):
		return fmt.Sprintf("No tanknet server answered at %s. The page must be served by tankserver -web "+
			"(make web-demo starts one), which also takes the game's connections: is it still running?", origin)
	case errors.As(err, &refused):
		return refusalWords(origin, refused)
	case errors.Is(err, carriage.ErrNoPath):
		return fmt.Sprintf("tanknet cannot reach the game server at %s over UDP (WebRTC): %v\n\n"+
			"The game travels over UDP to the server's port: a network that blocks UDP (some offices, VPNs, proxies) stops it.", origin, err)
	}
	return fmt.Sprintf("tanknet could not connect to %s: %v", origin, err)
}

// refusalWords says what an HTTP refusal of the offer means.
func refusalWords(origin string, r *carriage.RefusedError) string {
	reason := ""
	if r.Body != "" {
		reason = " It said: " + r.Body
	}
	// Plain numbers, not net/http's names: the page must not carry an HTTP stack of its own.
	switch r.Status {
	case 501, 405, 404: // a static host: no POST, or no such path
		return fmt.Sprintf("The web server at %s serves this page but is not tankserver: it refused the game's connection "+
			"(HTTP %d). Serve the page with tankserver -web (or make web-demo) instead of a static web host.", origin, r.Status)
	case 503:
		return fmt.Sprintf("The tanknet server at %s is busy or shutting down and takes no new players now (HTTP 503): "+
			"try again in a moment.%s", origin, reason)
	case 429:
		return fmt.Sprintf("The tanknet server at %s has as many browsers from your address as it takes, or too many "+
			"connection attempts from it just now (HTTP 429): close another tanknet tab, or wait a few seconds.%s", origin, reason)
	}
	if r.Status >= 400 && r.Status < 500 {
		return fmt.Sprintf("The tanknet server at %s refused this page's connection (HTTP %d).%s", origin, r.Status, reason)
	}
	return fmt.Sprintf("The server at %s failed to take the connection (HTTP %d).%s", origin, r.Status, reason)
}
