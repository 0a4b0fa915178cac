package agones

import (
	"context"
	"time"
)

// KeepHealthy pings Health every interval until ctx ends, calling report (if not nil) with
// each ping's outcome (nil: the sidecar took it). A ping that takes longer than interval
// delays the next one; pings are never queued up behind a slow sidecar. Run it on its own
// goroutine: it returns only when ctx ends, and then only once the ping in flight, if any,
// is answered or has timed out: a ping abandoned on its way could reach the sidecar after
// the caller's next call (a Shutdown).
func (c *Client) KeepHealthy(ctx context.Context, interval time.Duration, report func(error)) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		err := c.Health(context.WithoutCancel(ctx)) // ends within the client's timeout
		if ctx.Err() != nil {
			return
		}
		if report != nil {
			report(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
