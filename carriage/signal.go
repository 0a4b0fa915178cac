//go:build !js

package carriage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v4"
)

// Reasons an offer is refused, as HubStats.Refused and the metrics name them; refusalText
// says each to the browser and in the log.
const (
	refuseMethod    = "method"
	refuseRate      = "rate"
	refuseSize      = "size"
	refuseMalformed = "malformed"
	refuseAddrFull  = "address_full"
	refuseFull      = "full"
	refuseClosed    = "stopping"
)

// RefusalReasons lists every reason HubStats.Refused counts, in the metrics' order.
var RefusalReasons = []string{refuseAddrFull, refuseFull, refuseMalformed, refuseMethod, refuseRate, refuseSize, refuseClosed}

var refusalText = map[string]string{
	refuseMethod:    "not a POST",
	refuseRate:      tooManyOffers,
	refuseSize:      "offer too large",
	refuseMalformed: "malformed offer",
	refuseAddrFull:  "too many peers from this address",
	refuseFull:      "server full",
	refuseClosed:    "shutting down",
}

// answerTimeout bounds the work for one answer: gathering on the mux is immediate.
const answerTimeout = 5 * time.Second

// ServeHTTP takes one offer: a POST whose body (at most MaxOfferBytes) is a JSON session
// description of type offer with one data channel. It answers 200 with the answer as JSON,
// or refuses in plain text: 405 (not a POST), 413 (too large), 400 (malformed), 429 (too
// many offers or peers from the client's address, with Retry-After), 503 (full or closing).
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.refuse(w, http.StatusMethodNotAllowed, refuseMethod, "post a JSON offer here")
		return
	}
	if h.stopping() {
		h.refuse(w, http.StatusServiceUnavailable, refuseClosed, "the server is draining or stopping")
		return
	}
	if r.ContentLength > MaxOfferBytes { // said before a byte of it is read
		w.Header().Set("Connection", "close")
		h.refuse(w, http.StatusRequestEntityTooLarge, refuseSize, fmt.Sprintf("at most %d bytes", MaxOfferBytes))
		return
	}
	host := RequestHost(r)
	h.mu.Lock()
	ok, retry := h.offers.Allow(host, time.Now())
	h.mu.Unlock()
	if !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(retry.Seconds())+1))
		h.refuse(w, http.StatusTooManyRequests, refuseRate, "wait before offering again")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxOfferBytes))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		h.refuse(w, http.StatusRequestEntityTooLarge, refuseSize, fmt.Sprintf("at most %d bytes", MaxOfferBytes))
		return
	}
	if err != nil {
		h.refuse(w, http.StatusBadRequest, refuseMalformed, "could not read the body")
		return
	}
	offer, err := parseOffer(body, h.cfg.AllowCandidate)
	if err != nil {
		h.refuse(w, http.StatusBadRequest, refuseMalformed, err.Error())
		return
	}
	pr, status, why := h.admit(host)
	if pr == nil {
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", strconv.Itoa(int(h.cfg.JoinTimeout.Seconds())))
		}
		h.refuse(w, status, why, "")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), answerTimeout)
	defer cancel()
	answer, err := h.answer(ctx, pr, offer)
	if err != nil {
		h.drop(pr, dropFailed)
		h.refuse(w, http.StatusBadRequest, refuseMalformed, err.Error())
		return
	}
	h.offersAnswered.Add(1)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(answer)
}

// refuse answers status with why (and detail), counts why, and logs it.
func (h *Hub) refuse(w http.ResponseWriter, status int, why, detail string) {
	h.mu.Lock()
	h.refused[why]++
	h.mu.Unlock()
	msg := refusalText[why]
	if detail != "" {
		msg += ": " + detail
	}
	h.log.Debug("browser offer refused", "status", status, "reason", msg)
	http.Error(w, "tanknet: "+msg, status)
}

// remoteIP returns the address the request came from (its TCP peer: never a header).
func remoteIP(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		ip, _ := netip.ParseAddr(host)
		return ip
	}
	return ap.Addr()
}

// parseOffer decodes body as an offer with a data channel, keeping only the candidates
// allow accepts (all when allow is nil).
func parseOffer(body []byte, allow func(netip.Addr) bool) (webrtc.SessionDescription, error) {
	var offer webrtc.SessionDescription
	if err := json.Unmarshal(body, &offer); err != nil {
		return offer, errors.New("the body is not a JSON session description")
	}
	if offer.Type != webrtc.SDPTypeOffer {
		return offer, fmt.Errorf("type %q, want offer", offer.Type.String())
	}
	parsed, err := offer.Unmarshal()
	if err != nil {
		return offer, fmt.Errorf("the SDP does not parse: %v", err)
	}
	_, lite := parsed.Attribute(sdp.AttrKeyICELite)
	channels := 0
	for _, m := range parsed.MediaDescriptions {
		if m.MediaName.Media == "application" {
			channels++
		}
		if _, ok := m.Attribute(sdp.AttrKeyICELite); ok {
			lite = true
		}
	}
	if lite { // two lite agents would pair without a check: toward any address the offer names
		return offer, errors.New("an ICE-lite offer: the server is the lite side, a browser never is")
	}
	if channels != 1 {
		return offer, fmt.Errorf("%d application sections, want the one of a data channel", channels)
	}
	if allow != nil {
		offer.SDP = keepCandidates(offer.SDP, allow)
	}
	return offer, nil
}

// keepCandidates removes from sdp the candidate lines whose address allow refuses (and
// those whose address is a name, such as an mDNS one, or that are too short to name one).
func keepCandidates(sdp string, allow func(netip.Addr) bool) string {
	lines := strings.SplitAfter(sdp, "\n")
	kept := lines[:0]
	for _, line := range lines {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(f[0], "a=candidate:") {
			if len(f) < 6 {
				continue // not a candidate pion could use either
			}
			ip, err := netip.ParseAddr(f[4])
			if err != nil || !allow(ip) {
				continue
			}
		}
		kept = append(kept, line)
	}
	return strings.Join(kept, "")
}

// stopping reports whether offers are refused because the Hub closed or its server drains.
func (h *Hub) stopping() bool {
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	return closed || (h.cfg.Stopping != nil && h.cfg.Stopping())
}

// admit reserves a peer for host, or says why not (the status and reason to refuse with).
// When every slot is taken it makes room by evicting a peer that is not playing (evictee).
func (h *Hub) admit(host netip.Addr) (*peer, int, string) {
	now := time.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, http.StatusServiceUnavailable, refuseClosed
	}
	from := 0
	for _, pr := range h.peers {
		if pr.from == host {
			from++
		}
	}
	if from >= h.cfg.MaxPeersPerAddress {
		return nil, http.StatusTooManyRequests, refuseAddrFull
	}
	if len(h.peers) >= h.cfg.MaxPeers {
		victim := h.evictee(host, now)
		if victim == nil {
			return nil, http.StatusServiceUnavailable, refuseFull
		}
		h.forget(victim, dropEvicted)
	}
	pc, err := h.api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		return nil, http.StatusServiceUnavailable, refuseFull
	}
	pr := &peer{addr: newPeerAddr(host, h.serial.Add(1)), from: host, pc: pc, offered: now}
	pr.lastSeen.Store(now.UnixNano())
	pr.lastGame.Store(now.UnixNano())
	h.peers[pr.addr] = pr
	h.watch(pr)
	return pr, 0, ""
}

// evictee returns the peer whose slot a newcomer from host takes when the table is full, or
// nil: of the address holding the most peers that are not playing, its oldest such peer, if
// that address holds at least two more of them than host does. So a few addresses cannot
// keep a browser out with peers that never join (or that left the game), while two
// newcomers never take turns evicting each other. The caller holds h.mu.
func (h *Hub) evictee(host netip.Addr, now time.Time) *peer {
	idle := map[netip.Addr]int{}
	oldest := map[netip.Addr]*peer{}
	for _, pr := range h.peers {
		if pr.playing(now) {
			continue
		}
		idle[pr.from]++
		if o := oldest[pr.from]; o == nil || pr.offered.Before(o.offered) {
			oldest[pr.from] = pr
		}
	}
	var heaviest netip.Addr
	for a, n := range idle {
		if n > idle[heaviest] || (n == idle[heaviest] && oldest[a].offered.Before(oldest[heaviest].offered)) {
			heaviest = a
		}
	}
	if idle[heaviest] < idle[host]+2 {
		return nil
	}
	return oldest[heaviest]
}

// answer sets offer on pr's peer connection and returns the answer with its candidates.
func (h *Hub) answer(ctx context.Context, pr *peer, offer webrtc.SessionDescription) (webrtc.SessionDescription, error) {
	if err := pr.pc.SetRemoteDescription(offer); err != nil {
		return webrtc.SessionDescription{}, fmt.Errorf("the offer cannot be used: %v", err)
	}
	answer, err := pr.pc.CreateAnswer(nil)
	if err != nil {
		return webrtc.SessionDescription{}, fmt.Errorf("cannot answer the offer: %v", err)
	}
	gathered := webrtc.GatheringCompletePromise(pr.pc)
	if err := pr.pc.SetLocalDescription(answer); err != nil {
		return webrtc.SessionDescription{}, fmt.Errorf("cannot answer the offer: %v", err)
	}
	select {
	case <-gathered:
	case <-ctx.Done():
		return webrtc.SessionDescription{}, fmt.Errorf("gathering candidates: %v", ctx.Err())
	}
	return *pr.pc.LocalDescription(), nil
}
