//go:build !js

package carriage

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/webrtc/v4"
)

// postFrom posts body to url over a TCP connection from the loopback address ip (any of
// 127.0.0.0/8), so one test can be several HTTP clients; it returns the status and body.
func postFrom(t *testing.T, ip, url, body string) (int, string) {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}, Timeout: 20 * time.Second}
	resp, err := c.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(got)
}

// TestOffer_RefusedFromTheDrain: from the moment the server drains (Stopping says so) every
// offer gets 503, however well formed.
func TestOffer_RefusedFromTheDrain(t *testing.T) {
	var draining atomic.Bool
	cfg := DefaultHubConfig()
	cfg.Stopping = draining.Load
	th := startHub(t, cfg)
	if status, _, body := post(t, th.url, offerSDP(t)); status != http.StatusOK {
		t.Fatalf("an offer before the drain = %d %q, want 200", status, body)
	}
	draining.Store(true)
	status, _, body := post(t, th.url, offerSDP(t))
	if status != http.StatusServiceUnavailable || !strings.Contains(body, refusalText[refuseClosed]) {
		t.Errorf("an offer during the drain = %d %q, want 503 and %q", status, body, refusalText[refuseClosed])
	}
	if st := th.Stats(); st.Refused[refuseClosed] != 1 || st.Offers != 1 {
		t.Errorf("Stats = %+v, want 1 refused as stopping and 1 answered", st)
	}
}

// TestOffer_DeclaredTooLargeRefusedAtOnce: a request whose Content-Length is over
// MaxOfferBytes gets 413 before any of its body is sent.
func TestOffer_DeclaredTooLargeRefusedAtOnce(t *testing.T) {
	th := startHub(t, DefaultHubConfig())
	addr := strings.TrimPrefix(strings.TrimSuffix(th.url, OfferPath), "http://")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 70000\r\n\r\n", OfferPath, addr)
	c.SetReadDeadline(time.Now().Add(20 * time.Second)) // the bound of a loaded machine; the body never comes
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer to a request that declares 70000 bytes and sends none: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("status %s, want 413", resp.Status)
	}
}

// TestHub_NewcomerEvictsPeersThatDoNotPlay: offers that never start ICE, from two
// addresses, fill the table; an offer from a third address still gets in, taking the slot of
// the oldest peer of the address holding the most peers that are not playing, and the
// squatters' further offers cannot take it back.
func TestHub_NewcomerEvictsPeersThatDoNotPlay(t *testing.T) {
	cfg := DefaultHubConfig()
	cfg.MaxPeers, cfg.MaxPeersPerAddress = 8, 4
	cfg.OfferBurst, cfg.OfferEvery = 8, time.Hour
	th := startHub(t, cfg)
	for _, ip := range []string{"127.0.0.2", "127.0.0.3"} {
		for i := range 4 {
			if status, body := postFrom(t, ip, th.url, offerSDP(t)); status != http.StatusOK {
				t.Fatalf("squatter %s offer %d = %d %q, want 200", ip, i+1, status, body)
			}
		}
	}
	if status, body := postFrom(t, "127.0.0.2", th.url, offerSDP(t)); status != http.StatusTooManyRequests {
		t.Fatalf("a fifth offer from one address = %d %q, want 429", status, body)
	}
	if status, body := postFrom(t, "127.0.0.9", th.url, offerSDP(t)); status != http.StatusOK {
		t.Fatalf("a newcomer's offer to a full table of squatters = %d %q, want 200", status, body)
	}
	if st := th.Stats(); st.Dropped[dropEvicted] != 1 || st.Peers != 8 {
		t.Fatalf("Stats = %+v, want 1 evicted and 8 peers", st)
	}
	// The squatter that lost a peer holds 3, the other 4: neither holds two more than the
	// offerer, so the table refuses rather than evict among them or the newcomer.
	status, body := postFrom(t, "127.0.0.2", th.url, offerSDP(t))
	if status != http.StatusServiceUnavailable || !strings.Contains(body, refusalText[refuseFull]) {
		t.Errorf("a squatter's offer to a full table = %d %q, want 503 and %q", status, body, refusalText[refuseFull])
	}
	hosts := map[string]int{}
	th.mu.Lock()
	for _, pr := range th.peers {
		hosts[pr.from.String()]++
	}
	th.mu.Unlock()
	if hosts["127.0.0.9"] != 1 || hosts["127.0.0.2"]+hosts["127.0.0.3"] != 7 {
		t.Errorf("peers by address %v, want the newcomer's 1 and the squatters' 7", hosts)
	}
}

// TestHub_PlayingPeersAreNotEvicted: a peer the game is sending its datagrams keeps its slot
// when the table is full: a newcomer then gets 503.
func TestHub_PlayingPeersAreNotEvicted(t *testing.T) {
	cfg := DefaultHubConfig()
	cfg.MaxPeers, cfg.MaxPeersPerAddress = 2, 2
	th := startHub(t, cfg)
	dial(t, th)
	dial(t, th)
	// The game sends each a datagram past the connect handshake (a KCP segment's size).
	waitFor(t, "both peers playing", func() bool {
		th.mu.Lock()
		var addrs []PeerAddr
		for addr := range th.peers {
			addrs = append(addrs, addr)
		}
		th.mu.Unlock()
		for _, addr := range addrs {
			th.WriteTo(make([]byte, 24), addr)
		}
		return th.Stats().Joined == 2
	})
	if status, body := postFrom(t, "127.0.0.9", th.url, offerSDP(t)); status != http.StatusServiceUnavailable {
		t.Errorf("a newcomer's offer to a table of two playing peers = %d %q, want 503", status, body)
	}
	if st := th.Stats(); st.Dropped[dropEvicted] != 0 || st.Joined != 2 {
		t.Errorf("Stats = %+v, want none evicted and 2 joined", st)
	}
}

// TestHub_ClosesAPeerThatLeftTheGame: a browser that joined and then is sent nothing past
// the connect handshake (its player left, or the game dropped it) is closed JoinTimeout
// after the game's last datagram, however often it keeps sending.
func TestHub_ClosesAPeerThatLeftTheGame(t *testing.T) {
	th := startHub(t, DefaultHubConfig())
	c := dial(t, th)
	c.WriteTo([]byte("hello"), &net.UDPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 7777})
	th.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, from, err := th.ReadFrom(make([]byte, 64))
	if err != nil {
		t.Fatal(err)
	}
	th.WriteTo(make([]byte, 24), from) // the game's datagram: the peer joined
	waitFor(t, "the peer counted as joined", func() bool { return th.Stats().Joined == 1 })
	now := time.Now()
	th.sweep(now.Add(th.cfg.JoinTimeout / 2))
	if st := th.Stats(); st.Peers != 1 {
		t.Fatalf("Stats = %+v: a peer sent a datagram half a JoinTimeout ago was dropped", st)
	}
	th.mu.Lock()
	th.peers[from.(PeerAddr)].lastSeen.Store(now.Add(th.cfg.JoinTimeout).UnixNano()) // it kept asking
	th.mu.Unlock()
	th.sweep(now.Add(th.cfg.JoinTimeout + time.Second))
	if st := th.Stats(); st.Peers != 0 || st.Dropped[dropLeftGame] != 1 {
		t.Errorf("Stats = %+v, want the peer dropped as %q", st, dropLeftGame)
	}
}

// openChannel opens one more data channel labelled label on c's peer connection and returns
// it with a channel closed when it closes.
func openChannel(t *testing.T, pc *webrtc.PeerConnection, label string) (*webrtc.DataChannel, chan struct{}) {
	t.Helper()
	dc, err := pc.CreateDataChannel(label, channelInit())
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	dc.OnClose(func() { close(closed) })
	return dc, closed
}

// TestHub_OneChannelAPeer: a second data channel, opened while playing, is closed and
// counted; the first goes on carrying datagrams; a text message on it is dropped and
// counted, never read as a datagram.
func TestHub_OneChannelAPeer(t *testing.T) {
	th := startHub(t, DefaultHubConfig())
	c := dial(t, th)
	_, closed := openChannel(t, c.pc, Label)
	select {
	case <-closed:
	case <-time.After(20 * time.Second):
		t.Fatal("the server left a second data channel open")
	}
	waitFor(t, "the extra channel counted", func() bool { return th.Stats().ExtraChannels == 1 })
	if err := c.dc.SendText("not a datagram"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WriteTo([]byte("datagram"), &net.UDPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 7777}); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	th.SetReadDeadline(time.Now().Add(20 * time.Second))
	n, _, err := th.ReadFrom(buf)
	if err != nil || string(buf[:n]) != "datagram" {
		t.Fatalf("the hub read %q (%v), want the binary datagram only", buf[:n], err)
	}
	if st := th.Stats(); st.TextMessages != 1 || st.Peers != 1 {
		t.Errorf("Stats = %+v, want 1 text message dropped and the peer kept", st)
	}
}

// TestHub_TwoChannelsInTheOfferKeepOne: an offer whose peer opens two tanknet channels at
// once has one of them carried and the other closed.
func TestHub_TwoChannelsInTheOfferKeepOne(t *testing.T) {
	th := startHub(t, DefaultHubConfig())
	pc := loopbackPeer(t)
	_, closedA := openChannel(t, pc, Label)
	_, closedB := openChannel(t, pc, Label)
	gather(t, pc)
	offerAndAnswer(t, th, pc, pc.LocalDescription().SDP)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	select {
	case <-closedA:
	case <-closedB:
	case <-ctx.Done():
		t.Fatal("the server left both channels open")
	}
	waitFor(t, "the extra channel counted", func() bool { return th.Stats().ExtraChannels == 1 })
	if st := th.Stats(); st.Peers != 1 {
		t.Errorf("Stats = %+v, want the peer kept", st)
	}
}

// TestHub_APeerThatNeverSpokeWaitsForItsJoinTimeout: a page whose program is still loading
// (a slow phone compiling the game) has opened its channel but sent nothing; it is not
// dropped as silent after IdleTimeout, only JoinTimeout after its offer, while a peer that
// spoke once and then fell silent is dropped after IdleTimeout.
func TestHub_APeerThatNeverSpokeWaitsForItsJoinTimeout(t *testing.T) {
	cfg := DefaultHubConfig()
	cfg.JoinTimeout = time.Minute // far past IdleTimeout however long the dials take
	th := startHub(t, cfg)
	dial(t, th) // opens, then loads for a long while
	spoke := dial(t, th)
	waitFor(t, "both channels open on the hub", func() bool {
		th.mu.Lock()
		defer th.mu.Unlock()
		open := 0
		for _, pr := range th.peers {
			if pr.open.Load() {
				open++
			}
		}
		return open == 2
	})
	spoke.WriteTo([]byte("hello"), &net.UDPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 7777})
	th.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, _, err := th.ReadFrom(make([]byte, 64)); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	th.sweep(now.Add(th.cfg.IdleTimeout + time.Second))
	if st := th.Stats(); st.Peers != 1 || st.Dropped[dropIdle] != 1 {
		t.Fatalf("Stats = %+v after IdleTimeout: want the peer that spoke dropped as %q and the one still loading kept", st, dropIdle)
	}
	th.sweep(now.Add(th.cfg.JoinTimeout + time.Second))
	if st := th.Stats(); st.Peers != 0 || st.Dropped[dropNeverJoined] != 1 {
		t.Errorf("Stats = %+v after JoinTimeout: want the silent loader dropped as %q", st, dropNeverJoined)
	}
}
