package carriage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The data channel every datagram rides, as the browser opens it.
const (
	// Label names the one data channel of a peer connection; the server refuses others.
	Label = "tanknet"
	// OfferPath is where the server takes offers: POST a JSON session description
	// {"type":"offer","sdp":"..."}, get the answer back in the same form.
	OfferPath = "/rtc/offer"
	// MaxOfferBytes bounds an offer's body: a data channel's offer is a few kilobytes even
	// with many candidates.
	MaxOfferBytes = 64 << 10
)

// maxBuffered is the most bytes a data channel may hold unsent before WriteTo drops
// datagrams instead, as a full socket buffer would: SCTP's congestion window must not turn
// a burst into a queue (the game's own pacing and KCP's window handle loss).
const maxBuffered = 256 << 10

// ConnectTimeout bounds Dial from the offer to an open data channel. ICE checks to a
// reachable server take well under a second; a browser whose UDP is blocked hears nothing
// and is told so when it ends.
const ConnectTimeout = 6 * time.Second

// inboxSize is how many datagrams a client's reader may fall behind by before more are
// dropped: about a second of the game's traffic to one client.
const inboxSize = 512

// ErrNoPath reports a peer connection that could not reach the server: ICE found no
// working candidate pair (UDP blocked on the way, or the server's ICE port unreachable).
var ErrNoPath = errors.New("carriage: no UDP path to the server (ICE failed: is UDP blocked here?)")

// ErrChannelClosed reports a data channel that had already closed when the program came to
// use it: the server drops a peer that does not join in time (HubConfig.JoinTimeout), and a
// page's worker may start later than that on a slow device. The path worked; a fresh
// channel may join.
var ErrChannelClosed = errors.New("carriage: the data channel had closed before the game could use it")

// ErrNoServer reports an offer that reached no HTTP server at all (the browser's fetch
// failed: nothing listens there, or the page was opened from a file).
var ErrNoServer = errors.New("carriage: no HTTP server answered the offer")

// RefusedError is an offer endpoint's refusal: an HTTP status other than 200, with the
// server's reason (its plain-text body). A page says which it was in words.
type RefusedError struct {
	Status     int
	StatusText string
	Body       string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("carriage: the server refused the offer: %s: %s", e.StatusText, e.Body)
}

// TooSoon reports a refusal for offering faster than the hub's rate (HubConfig.OfferBurst
// and OfferEvery) allows: an offer a little later may be answered. A refusal for holding
// too many peers is not one: it lasts as long as those peers do.
func (e *RefusedError) TooSoon() bool {
	return e.Status == 429 && strings.Contains(e.Body, tooManyOffers) // 429 Too Many Requests (net/http stays out of the page)
}

// tooManyOffers is the hub's reason for refusing an offer that came too soon.
const tooManyOffers = "too many offers from this address"

// sessionDescription is an offer or an answer as the offer endpoint carries it: the JSON of
// a browser's RTCSessionDescription.
type sessionDescription struct {
	Type string `json:"type"` // "offer" or "answer"
	SDP  string `json:"sdp"`
}

// answerFrom reads the offer endpoint's reply to a POST to url: the answer when status is
// 200, else an error carrying the server's reason (body, its plain text).
func answerFrom(url string, status int, statusText string, body []byte) (sessionDescription, error) {
	if status != 200 {
		return sessionDescription{}, &RefusedError{Status: status, StatusText: statusText, Body: string(bytes.TrimSpace(body))}
	}
	var answer sessionDescription
	if err := json.Unmarshal(body, &answer); err != nil || answer.Type != "answer" || answer.SDP == "" {
		return sessionDescription{}, fmt.Errorf("carriage: answer from %s is not a session description of type answer", url)
	}
	return answer, nil
}

// withConnectTimeout returns ctx bounded by ConnectTimeout when it has no deadline.
func withConnectTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, ConnectTimeout)
}

// waitOpen waits for a dialed data channel: nil once opened is closed, ErrNoPath once failed
// is (ICE found no path: UDP blocked) or ctx ends first. Both dialers, native and the
// browser's, end with it.
func waitOpen(ctx context.Context, opened, failed <-chan struct{}) error {
	select {
	case <-opened:
		return nil
	case <-failed:
		return ErrNoPath
	case <-ctx.Done():
		return fmt.Errorf("%w; gave up after waiting: %w", ErrNoPath, ctx.Err())
	}
}
