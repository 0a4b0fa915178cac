//go:build !js

package carriage

import (
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/webrtc/v4"

	"tanknet/transport"
)

// HubConfig is how a Hub takes browsers in. DefaultHubConfig fills every field.
type HubConfig struct {
	// MaxPeers bounds the peer connections open at once (each costs a DTLS and SCTP
	// association); offers beyond it are refused with 503.
	MaxPeers int
	// MaxPeersPerAddress bounds the peer connections open at once from one HTTP client
	// address (an IPv6 one by its /64); offers beyond it are refused with 429.
	MaxPeersPerAddress int
	// OfferBurst and OfferEvery limit how fast one address may post offers: OfferBurst at
	// once, then one every OfferEvery; offers beyond it are refused with 429.
	OfferBurst int
	OfferEvery time.Duration
	// OpenTimeout drops a peer whose data channel has not opened this long after its offer.
	OpenTimeout time.Duration
	// JoinTimeout drops a peer the game has sent no datagram past the connect handshake for
	// this long: since its offer (a half-open session that never joined), or since the last
	// one (a player that left the game or was dropped, while its browser stays connected).
	JoinTimeout time.Duration
	// IdleTimeout drops a peer that has sent a datagram once and since then has sent and been
	// sent nothing this long. One that has never sent any is JoinTimeout's to drop.
	IdleTimeout time.Duration
	// PublicIPs, when set, are the addresses browsers reach the ICE port at (the server
	// behind a 1:1 NAT, as in a cloud VM or a Kubernetes node): its candidates name them
	// instead of its interfaces' addresses.
	PublicIPs []string
	// AllowCandidate, when set, keeps only the offer's candidates whose address it accepts
	// (tests keep loopback ones); nil keeps all.
	AllowCandidate func(netip.Addr) bool
	// Stopping, when set, is asked at every offer: while it says true (the server drains or
	// stops) every offer is refused with 503 at once.
	Stopping func() bool
	// Logger receives one line per peer that joins, is refused or is dropped; nil: none.
	Logger *slog.Logger
}

// DefaultHubConfig returns limits that fit the default server (16 players in each of 8
// rooms) with room for reconnects.
func DefaultHubConfig() HubConfig {
	return HubConfig{
		MaxPeers:           256,                       // twice the default server's players
		MaxPeersPerAddress: 8,                         // a household or a classroom's NAT; more need native clients
		OfferBurst:         4,                         // a reload or two
		OfferEvery:         2 * time.Second,           // a person reconnecting, not a script
		OpenTimeout:        10 * time.Second,          // ICE and DTLS take well under a second on a working path
		JoinTimeout:        15 * time.Second,          // the open, a page's program loading, then the connect handshake
		IdleTimeout:        2 * transport.IdleTimeout, // the game drops a silent player first
	}
}

// Validate reports the first setting that cannot work.
func (c HubConfig) Validate() error {
	if c.MaxPeers < 1 || c.MaxPeersPerAddress < 1 || c.OfferBurst < 1 {
		return fmt.Errorf("carriage: peer limits must be at least 1 (max %d, per address %d, burst %d)", c.MaxPeers, c.MaxPeersPerAddress, c.OfferBurst)
	}
	if c.OfferEvery <= 0 || c.OpenTimeout <= 0 || c.JoinTimeout <= 0 || c.IdleTimeout <= 0 {
		return fmt.Errorf("carriage: the hub's periods must be positive")
	}
	for _, ip := range c.PublicIPs {
		if _, err := netip.ParseAddr(ip); err != nil {
			return fmt.Errorf("carriage: public IP %q: %w", ip, err)
		}
	}
	return nil
}

// HubStats counts what a Hub did since it was made.
type HubStats struct {
	Offers      uint64            // offers answered
	Refused     map[string]uint64 // offers refused, by reason
	Dropped     map[string]uint64 // peers dropped, by reason
	Peers       int               // peer connections open now
	Joined      uint64            // peers the game admitted
	QueueDrops  uint64            // datagrams from peers dropped because the reader fell behind
	BufferDrops uint64            // datagrams to peers dropped because their channel held too much
	// ExtraChannels counts data channels closed because their peer already had its one.
	ExtraChannels uint64
	// TextMessages counts text messages dropped: every datagram is a binary message.
	TextMessages uint64
}

// Hub is the server's end of the carriage: it answers browsers' offers (ServeHTTP), runs
// their peer connections on one UDP socket, and is a net.PacketConn whose datagrams come
// from and go to PeerAddrs, one per peer. Safe for concurrent use.
type Hub struct {
	cfg    HubConfig
	api    *webrtc.API
	mux    ice.UDPMux
	ice    net.PacketConn
	in     *inbox
	log    *slog.Logger
	serial atomic.Uint64

	mu      sync.Mutex
	peers   map[PeerAddr]*peer
	offers  *AddressLimiter
	refused map[string]uint64
	dropped map[string]uint64
	closed  bool

	offersAnswered, joined, bufferDrops atomic.Uint64
	extraChannels, textMessages         atomic.Uint64
	stop                                chan struct{}
	swept                               sync.WaitGroup
}

// NewHub returns a Hub whose peer connections all use iceSocket, a UDP socket browsers can
// reach (its port is the one ICE port; its address, or PublicIPs, is every answer's
// candidate). The Hub owns iceSocket and closes it on Close.
func NewHub(cfg HubConfig, iceSocket net.PacketConn) (*Hub, error) {
	if err := cfg.Validate(); err != nil {
		iceSocket.Close()
		return nil, err
	}
	var se webrtc.SettingEngine
	mux := webrtc.NewICEUDPMux(nil, iceSocket)
	se.SetICEUDPMux(mux)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4, webrtc.NetworkTypeUDP6})
	se.SetIncludeLoopbackCandidate(true)                    // a server on 127.0.0.1 still answers with a candidate
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled) // a server sends nothing to the LAN
	// The server never speaks first over UDP. As an ICE-lite agent it runs no connectivity
	// checks of its own: it answers the browser's checks, at their source, and uses the pair
	// the browser nominates. As the DTLS server it waits for the browser's ClientHello, and
	// with no keepalives of its own it sends nothing on a pair that has gone quiet. So the
	// candidates an offer lists are never sent a byte: signaling cannot aim the server at a
	// third party (PROTOCOL.md §1.9).
	se.SetLite(true)
	if err := se.SetAnsweringDTLSRole(webrtc.DTLSRoleServer); err != nil {
		iceSocket.Close()
		return nil, fmt.Errorf("carriage: %w", err)
	}
	se.SetICETimeouts(iceDisconnectedTimeout, iceFailedTimeout, 0)
	if len(cfg.PublicIPs) > 0 {
		se.SetNAT1To1IPs(cfg.PublicIPs, webrtc.ICECandidateTypeHost)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &Hub{
		cfg: cfg, api: webrtc.NewAPI(webrtc.WithSettingEngine(se)), mux: mux, ice: iceSocket,
		in: newInbox(hubInboxSize), log: log, peers: map[PeerAddr]*peer{},
		offers:  NewAddressLimiter(cfg.OfferBurst, cfg.OfferEvery),
		refused: map[string]uint64{}, dropped: map[string]uint64{}, stop: make(chan struct{}),
	}
	h.swept.Add(1)
	go h.sweepEvery(min(time.Second, min(cfg.OpenTimeout, cfg.JoinTimeout)/4)) // a late drop is a quarter late at most
	return h, nil
}

// A peer's browser sends consent checks every 5 s or so and datagrams 20 times a second. When
// it has sent nothing for iceDisconnectedTimeout its pair counts as disconnected, and
// iceFailedTimeout after that (pion counts the failed timeout from the disconnect: 15 s of
// silence in all) as failed: the peer connection then fails and is dropped.
const (
	iceDisconnectedTimeout = 10 * time.Second
	iceFailedTimeout       = 5 * time.Second
)

// hubInboxSize is how many datagrams from all peers may wait for the game's reader: as a
// server socket's receive buffer, a few ticks of every player's input.
const hubInboxSize = 4096

// ICEAddr returns the address of the one UDP socket every peer connection uses.
func (h *Hub) ICEAddr() net.Addr { return h.ice.LocalAddr() }

// Stats returns the Hub's counts.
func (h *Hub) Stats() HubStats {
	h.mu.Lock()
	defer h.mu.Unlock()
	st := HubStats{Offers: h.offersAnswered.Load(), Peers: len(h.peers), Joined: h.joined.Load(),
		QueueDrops: h.in.dropped.Load(), BufferDrops: h.bufferDrops.Load(),
		ExtraChannels: h.extraChannels.Load(), TextMessages: h.textMessages.Load(),
		Refused: map[string]uint64{}, Dropped: map[string]uint64{}}
	for k, v := range h.refused {
		st.Refused[k] = v
	}
	for k, v := range h.dropped {
		st.Dropped[k] = v
	}
	return st
}

// ReadFrom returns the next datagram any peer sent, and the peer's PeerAddr.
func (h *Hub) ReadFrom(p []byte) (int, net.Addr, error) { return h.in.read(p) }

// WriteTo sends p to the peer at addr (a PeerAddr) over its data channel. Like UDP it
// reports success and sends nothing to a peer that is gone or not open yet, or whose
// channel holds too much unsent.
func (h *Hub) WriteTo(p []byte, addr net.Addr) (int, error) {
	a, ok := addr.(PeerAddr)
	if !ok {
		return 0, fmt.Errorf("carriage: write to %s: not a peer's address", addr)
	}
	if h.in.isClosed() {
		return 0, net.ErrClosed
	}
	h.mu.Lock()
	pr := h.peers[a]
	h.mu.Unlock()
	if pr == nil || !pr.open.Load() {
		return len(p), nil
	}
	if pr.dc.BufferedAmount() > maxBuffered {
		h.bufferDrops.Add(1)
		return len(p), nil
	}
	now := time.Now().UnixNano()
	if !transport.IsHandshake(p) {
		pr.lastGame.Store(now)
		if !pr.joined.Load() && pr.joined.CompareAndSwap(false, true) {
			h.joined.Add(1)
			h.log.Info("browser joined over webrtc", "peer", a.String(), "from", pr.from.String(), "ice", pr.remoteCandidate())
		}
	}
	pr.lastSeen.Store(now)
	if err := pr.dc.Send(p); err != nil {
		return len(p), nil // the channel is closing: the peer is dropped shortly
	}
	return len(p), nil
}

// LocalAddr returns the ICE socket's address.
func (h *Hub) LocalAddr() net.Addr { return h.ice.LocalAddr() }

// SetDeadline sets the read deadline (writes never block).
func (h *Hub) SetDeadline(t time.Time) error { h.in.setDeadline(t); return nil }

// SetReadDeadline sets the read deadline; the zero time means none.
func (h *Hub) SetReadDeadline(t time.Time) error { h.in.setDeadline(t); return nil }

// SetWriteDeadline does nothing: writes never block.
func (h *Hub) SetWriteDeadline(time.Time) error { return nil }

// Close closes every peer connection and the ICE socket, and wakes readers.
func (h *Hub) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	peers := h.peers
	h.peers = map[PeerAddr]*peer{}
	h.mu.Unlock()
	close(h.stop)
	h.swept.Wait()
	h.in.close()
	for _, pr := range peers {
		pr.pc.Close()
	}
	h.mux.Close()
	return h.ice.Close()
}
