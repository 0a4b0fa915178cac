package carriage

import (
	"time"

	"github.com/pion/webrtc/v4"
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

// channelInit is how Dial opens the data channel: unordered and never retransmitted, so a
// lost datagram is lost as over UDP and KCP above repairs what needs repairing.
func channelInit() *webrtc.DataChannelInit {
	ordered := false
	var retransmits uint16
	return &webrtc.DataChannelInit{Ordered: &ordered, MaxRetransmits: &retransmits}
}

// maxBuffered is the most bytes a data channel may hold unsent before WriteTo drops
// datagrams instead, as a full socket buffer would: SCTP's congestion window must not turn
// a burst into a queue (the game's own pacing and KCP's window handle loss).
const maxBuffered = 256 << 10

// ConnectTimeout bounds Dial from the offer to an open data channel. ICE checks to a
// reachable server take well under a second; a browser whose UDP is blocked hears nothing
// and is told so when it ends.
const ConnectTimeout = 6 * time.Second
