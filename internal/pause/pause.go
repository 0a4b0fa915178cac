// Package pause waits out a delay unless a context ends first: what a retry loop does
// between two attempts.
package pause

import (
	"context"
	"time"
)

// For waits d, or until ctx ends, and reports whether ctx is still running: true after the
// whole wait, false as soon as ctx is done.
func For(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return ctx.Err() == nil
	}
}
