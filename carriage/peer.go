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
	dc       *webrtc.DataChannel // set when the browser's channel arrives; read only once open
	offered  time.Time
	open     atomic.Bool  // the data channel is open
	joined   atomic.Bool  // the game sent it a datagram past the connect handshake
	lastSeen atomic.Int64 // Unix ns of the last datagram either way
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

// Reasons a peer is dropped, as HubStats.Dropped and the log name them.
const (
	dropNeverOpened = "data channel never opened"
	dropNeverJoined = "never completed the connect handshake"
	dropIdle        = "silent"
	dropFailed      = "peer connection failed or closed"
	dropBadChannel  = "opened a data channel other than an unordered, unreliable " + Label
)

// watch wires pr's peer connection to the Hub: its data channel's datagrams go to the
// inbox, and a failed or closed connection drops it.
func (h *Hub) watch(pr *peer) {
	pr.pc.OnDataChannel(func(dc *webrtc.DataChannel) {
		if dc.Label() != Label || dc.Ordered() || dc.MaxRetransmits() == nil || *dc.MaxRetransmits() != 0 {
			h.drop(pr, dropBadChannel)
			return
		}
		dc.OnOpen(func() {
			h.mu.Lock()
			pr.dc = dc
			h.mu.Unlock()
			pr.lastSeen.Store(time.Now().UnixNano())
			pr.open.Store(true)
		})
		dc.OnMessage(func(m webrtc.DataChannelMessage) {
			pr.lastSeen.Store(time.Now().UnixNano())
			h.in.put(m.Data, pr.addr)
		})
		dc.OnClose(func() { h.drop(pr, dropFailed) })
	})
	pr.pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		if s == webrtc.PeerConnectionStateFailed || s == webrtc.PeerConnectionStateClosed {
			h.drop(pr, dropFailed)
		}
	})
}

// drop closes pr's peer connection and forgets it, counting why (once).
func (h *Hub) drop(pr *peer, why string) {
	h.mu.Lock()
	if h.peers[pr.addr] != pr {
		h.mu.Unlock()
		return
	}
	delete(h.peers, pr.addr)
	h.dropped[why]++
	h.mu.Unlock()
	h.log.Info("browser dropped", "peer", pr.addr.String(), "from", pr.from.String(), "reason", why)
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

// sweep drops the peers that, at now, are past OpenTimeout unopened, past JoinTimeout
// unadmitted, or silent past IdleTimeout.
func (h *Hub) sweep(now time.Time) {
	type verdict struct {
		pr  *peer
		why string
	}
	var out []verdict
	h.mu.Lock()
	for _, pr := range h.peers {
		age := now.Sub(pr.offered)
		switch {
		case !pr.open.Load() && age > h.cfg.OpenTimeout:
			out = append(out, verdict{pr, dropNeverOpened})
		case !pr.joined.Load() && age > h.cfg.JoinTimeout:
			out = append(out, verdict{pr, dropNeverJoined})
		case now.Sub(time.Unix(0, pr.lastSeen.Load())) > h.cfg.IdleTimeout:
			out = append(out, verdict{pr, dropIdle})
		}
	}
	h.mu.Unlock()
	for _, v := range out {
		h.drop(v.pr, v.why)
	}
}
