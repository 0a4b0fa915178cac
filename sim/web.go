package sim

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"time"

	"tanknet/carriage"
)

// webOfferTries bounds the offers one bot makes, the refused ones for offering too soon
// included: the hub answers 4 offers from one address at once, then one every 2 s, so 8
// bots starting together wait at most a few turns each.
const webOfferTries = 30

// webConn opens a WebRTC data channel to the server whose page is at page (Config.Web),
// as a browser page does: pion's peer connection, its offer posted to the offer path of
// the page's origin (whatever path or query the page's address has). A page on IPv4's
// loopback or localhost is dialed on IPv4's loopback alone (carriage.LoopbackAPI). An offer
// refused for coming too soon is made again a moment later.
func webConn(ctx context.Context, page string) (net.PacketConn, error) {
	u, err := url.Parse(page)
	if err != nil { // Config.Validate parsed it
		return nil, err
	}
	offerURL := u.Scheme + "://" + u.Host + carriage.OfferPath
	var dialer carriage.Dialer
	if ip, err := netip.ParseAddr(u.Hostname()); u.Hostname() == "localhost" || (err == nil && ip.Is4() && ip.IsLoopback()) {
		dialer.API = carriage.LoopbackAPI()
	}
	every := carriage.DefaultHubConfig().OfferEvery
	for try := 1; ; try++ {
		conn, err := dialer.Dial(ctx, offerURL)
		if err == nil {
			return conn, nil
		}
		var refused *carriage.RefusedError
		if !errors.As(err, &refused) || !refused.TooSoon() {
			return nil, err
		}
		if try == webOfferTries {
			return nil, fmt.Errorf("%w (refused %d times for offering too soon)", err, try)
		}
		select {
		case <-time.After(every):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
