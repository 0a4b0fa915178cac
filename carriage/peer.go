//go:build !js

package carriage

import (
	"net"
	"net/netip"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/pion/webrtc/v4"
)

// peer is one browser's peer connection on the Hub.
type peer struct {
	addr     PeerAddr
	from     netip.Addr // the HTTP client's address (an IPv6 one by its /64): what limits count
	pc       *webrtc.PeerConnection
	dc       channel // set when the browser's channel opens; read only once open
	offered  time.Time
	channel  bool         // a data channel has arrived: any further one is closed (under the Hub's lock)
	open     atomic.Bool  // the data channel is open
	joined   atomic.Bool  // the game sent it a datagram past the connect handshake
	lastGame atomic.Int64 // Unix ns of the last datagram past the handshake sent to it, or of its offer
	lastSeen atomic.Int64 // Unix ns of the last datagram either way
	spoke    atomic.Bool  // it has sent a datagram: only then can it fall silent (IdleTimeout)
}

// playingWithin is how recently the game must have sent a peer a datagram past the connect
// handshake for the peer to count as playing: a player in a room is sent a snapshot every
// tick (50 ms), so 20 ticks without one mean it is not in the game.
const playingWithin = time.Second

// playing reports whether, at now, the game is sending pr its datagrams: a peer that is not
// playing may lose its slot to a newcomer (Hub.admit).
func (pr *peer) playing(now time.Time) bool {
	return pr.joined.Load() && now.Sub(time.Unix(0, pr.lastGame.Load())) <= playingWithin
}

// remoteCandidate returns the browser's address on the ICE pair in use ("ip:port"), or ""
// before one is selected.
func (pr *peer) remoteCandidate() string {
	sctp := pr.pc.SCTP()
	if sctp == nil || sctp.Transport() == nil || sctp.Transport().ICETransport() == nil {
		return ""
	}
	pair, err := sctp.Transport().ICETransport().GetSelectedCandidatePair()
	if err != nil || pair == nil || pair.Remote == nil {
		return ""
	}
	return net.JoinHostPort(pair.Remote.Address, strconv.Itoa(int(pair.Remote.Port)))
}

// Reasons a peer is dropped, as HubStats.Dropped and the metrics name them; dropText says
// each in the log.
const (
	dropNeverOpened = "never_opened"
	dropNeverJoined = "never_joined"
	dropLeftGame    = "left_game"
	dropIdle        = "idle"
	dropFailed      = "failed"
	dropBadChannel  = "bad_channel"
	dropEvicted     = "evicted"
)

// DropReasons lists every reason HubStats.Dropped counts, in the metrics' order.
var DropReasons = []string{dropBadChannel, dropEvicted, dropFailed, dropIdle, dropLeftGame, dropNeverJoined, dropNeverOpened}

var dropText = map[string]string{
	dropNeverOpened: "data channel never opened",
	dropNeverJoined: "never completed the connect handshake",
	dropLeftGame:    "the game has sent it nothing for a while (the player left or was dropped)",
	dropIdle:        "silent",
	dropFailed:      "peer connection failed or closed",
	dropBadChannel:  "opened a data channel other than an unordered, unreliable " + Label,
	dropEvicted:     "not playing, and its address held the most such peers when the table was full",
}

// watch wires pr's peer connection to the Hub: its data channel's datagrams go to the
// inbox, and a failed or closed connection drops it.
func (h *Hub) watch(pr *peer) {
	pr.pc.OnDataChannel(func(dc *webrtc.DataChannel) {
		h.mu.Lock()
		first := !pr.channel
		pr.channel = true
		h.mu.Unlock()
		if !first { // the peer's one channel is its first: a second, of any label, is closed
			h.extraChannels.Add(1)
			h.log.Info("browser's extra data channel closed", "peer", pr.addr.String(), "from", pr.from.String(), "label", dc.Label())
			dc.Close()
			return
		}
		if dc.Label() != Label || dc.Ordered() || dc.MaxRetransmits() == nil || *dc.MaxRetransmits() != 0 {
			h.drop(pr, dropBadChannel)
			return
		}
		dc.OnOpen(func() { h.opened(pr, dc) })
		dc.OnMessage(func(m webrtc.DataChannelMessage) { h.received(pr, dc, m.Data, m.IsString) })
		dc.OnClose(func() { h.drop(pr, dropFailed) })
	})
	pr.pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		if s == webrtc.PeerConnectionStateFailed || s == webrtc.PeerConnectionStateClosed {
			h.drop(pr, dropFailed)
		}
	})
}

// channel is what the Hub uses of a peer's open data channel (a *webrtc.DataChannel).
type channel interface {
	Send(data []byte) error
	BufferedAmount() uint64
}

// opened marks pr's data channel dc open: WriteTo sends on it from now on. Later calls do
// nothing.
func (h *Hub) opened(pr *peer, dc channel) {
	if pr.open.Load() {
		return
	}
	h.mu.Lock()
	pr.dc = dc
	h.mu.Unlock()
	pr.lastSeen.Store(time.Now().UnixNano())
	pr.open.Store(true)
}

// received takes a message pr sent on its data channel dc: a datagram for the game, or a
// text message, dropped and counted.
func (h *Hub) received(pr *peer, dc channel, data []byte, isString bool) {
	// A message proves the channel open: pion runs OnOpen's handler on a goroutine of its
	// own, which a busy machine may run after the first message, and until then WriteTo
	// would drop the answer to it.
	h.opened(pr, dc)
	if isString { // a datagram is binary: text is no datagram of the game's
		h.textMessages.Add(1)
		return
	}
	pr.lastSeen.Store(time.Now().UnixNano())
	pr.spoke.Store(true)
	h.in.put(data, pr.addr)
}

// drop closes pr's peer connection and forgets it, counting why (once).
func (h *Hub) drop(pr *peer, why string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.forget(pr, why)
}

// forget is drop for a caller that holds h.mu.
func (h *Hub) forget(pr *peer, why string) {
	if h.peers[pr.addr] != pr {
		return
	}
	delete(h.peers, pr.addr)
	h.dropped[why]++
	h.log.Info("browser dropped", "peer", pr.addr.String(), "from", pr.from.String(), "reason", dropText[why])
	go pr.pc.Close() // Close waits for pion's goroutines, some of which may be calling us
}

// sweepEvery drops, every period until Close, the peers that are half-open or silent.
func (h *Hub) sweepEvery(period time.Duration) {
	defer h.swept.Done()
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case now := <-t.C:
			h.sweep(now)
		}
	}
}

// sweep drops the peers that, at now, are past OpenTimeout unopened, have been sent nothing
// past the connect handshake for JoinTimeout (since their offer, or since the game last sent
// them a datagram), or, once they have spoken, are silent past IdleTimeout. A peer whose
// program is still loading (a slow phone compiling the game) has not spoken yet: only
// JoinTimeout bounds its wait.
func (h *Hub) sweep(now time.Time) {
	type verdict struct {
		pr  *peer
		why string
	}
	var out []verdict
	h.mu.Lock()
	for _, pr := range h.peers {
		switch {
		case !pr.open.Load() && now.Sub(pr.offered) > h.cfg.OpenTimeout:
			out = append(out, verdict{pr, dropNeverOpened})
		case now.Sub(time.Unix(0, pr.lastGame.Load())) > h.cfg.JoinTimeout:
			why := dropNeverJoined
			if pr.joined.Load() {
				why = dropLeftGame
			}
			out = append(out, verdict{pr, why})
		case pr.spoke.Load() && now.Sub(time.Unix(0, pr.lastSeen.Load())) > h.cfg.IdleTimeout:
			out = append(out, verdict{pr, dropIdle})
		}
	}
	h.mu.Unlock()
	for _, v := range out {
		h.drop(v.pr, v.why)
	}
}
