package main

import (
	"context"
	"fmt"
	"net"

	"tanknet/client"
	"tanknet/render"
	"tanknet/transport"
)

// joinError is a failure to get into the game: no answer, or a rejection. main exits 2.
type joinError struct{ err error }

func (e *joinError) Error() string { return e.err.Error() }
func (e *joinError) Unwrap() error { return e.err }

// run joins the server over a conditioned UDP socket and plays in a window until the
// player quits. Joining happens before the window opens, so a server that is down or
// refuses us costs no window at all.
func run(ctx context.Context, cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	udp, err := net.ListenUDP("udp", nil)
	if err != nil {
		return fmt.Errorf("open socket: %w", err)
	}
	cc, err := transport.Condition(udp, cfg.Conditions, cfg.Seed)
	if err != nil {
		udp.Close()
		return err
	}
	defer cc.Close()
	sess, err := client.Dial(ctx, cfg.Server, cfg.Name, cc, cfg.DialTimeout)
	if err != nil {
		return &joinError{err}
	}
	return render.Run(ctx, sess, cfg.renderOptions(cc))
}
