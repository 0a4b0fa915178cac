package main

import (
	"context"
	"errors"
	"fmt"
	"net"

	_ "displaycheck" // first: says what is missing before Ebitengine panics without a display

	"tanknet/client"
	"tanknet/linksim"
	"tanknet/render"
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
	recs, closeRecordings, err := openRecordings(recordPaths(cfg.Record, false))
	if err != nil {
		return err
	}
	sess, cc, err := dial(ctx, cfg)
	if err != nil {
		_ = closeRecordings()
		return &joinError{err}
	}
	opts := cfg.renderOptions(cc)
	opts.Record = recs
	return errors.Join(render.Run(ctx, sess, opts), closeRecordings()) // main waits for the goodbye (transport.WaitLingering)
}

// dial joins c.Room on c.Server as c.Name over a fresh UDP socket under c's link
// conditioner. The session owns the socket from then on and closes it once the server has
// acknowledged its goodbye (transport.Conn.Close).
func dial(ctx context.Context, c Config) (*client.Session, *linksim.ConditionedConn, error) {
	udp, err := net.ListenUDP("udp", nil)
	if err != nil {
		return nil, nil, fmt.Errorf("open socket: %w", err)
	}
	cc, err := linksim.Condition(udp, c.Conditions, c.Seed)
	if err != nil {
		udp.Close()
		return nil, nil, err
	}
	sess, err := client.DialRoom(ctx, c.Server, c.Name, c.Room, cc, c.DialTimeout)
	if err != nil {
		return nil, nil, err
	}
	return sess, cc, nil
}
