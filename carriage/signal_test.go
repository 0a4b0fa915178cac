//go:build !js

package carriage

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pion/webrtc/v4"
)

// post sends body to url and returns the status, the Retry-After header and the body.
func post(t *testing.T, url, body string) (int, string, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(got)
}

// offerSDP returns a real offer from a loopback peer connection (closed when t ends), as
// JSON, with every candidate gathered.
func offerSDP(t *testing.T) string {
	t.Helper()
	b, _ := json.Marshal(gatheredOffer(t, channelInit()).LocalDescription())
	return string(b)
}

// gatheredOffer returns a loopback peer connection (closed when t ends) with a data channel
// made with init (nil: WebRTC's default, ordered and reliable), its offer set as the local
// description with every candidate gathered.
func gatheredOffer(t *testing.T, init *webrtc.DataChannelInit) *webrtc.PeerConnection {
	t.Helper()
	pc := loopbackPeer(t)
	if _, err := pc.CreateDataChannel(Label, init); err != nil {
		t.Fatal(err)
	}
	gather(t, pc)
	return pc
}

// loopbackPeer returns a peer connection on loopback, closed when t ends.
func loopbackPeer(t *testing.T) *webrtc.PeerConnection {
	t.Helper()
	pc, err := LoopbackAPI().NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	return pc
}

// gather sets pc's offer (its data channels made already) as its local description and
// waits until every candidate is gathered: no trickle, as Dial does.
func gather(t *testing.T, pc *webrtc.PeerConnection) {
	t.Helper()
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		t.Fatal(err)
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(offer); err != nil {
		t.Fatal(err)
	}
	<-gathered
}

// offerAndAnswer posts sdp, pc's offer or a change of it, to th and sets the answer on pc.
func offerAndAnswer(t *testing.T, th *testHub, pc *webrtc.PeerConnection, sdp string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	answer, err := postOffer(ctx, th.url, sessionDescription{Type: "offer", SDP: sdp})
	if err != nil {
		t.Fatalf("the offer: %v", err)
	}
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: answer.SDP}); err != nil {
		t.Fatal(err)
	}
}

// TestOffer_Refusals: what is not one well-formed offer of a data channel is refused with a
// clear status and reason, and counted.
func TestOffer_Refusals(t *testing.T) {
	th := startHub(t, DefaultHubConfig())
	th.cfg.OfferBurst = 100 // these refusals are not about the rate
	th.offers = NewAddressLimiter(100, time.Hour)
	good := offerSDP(t)
	var sd webrtc.SessionDescription
	json.Unmarshal([]byte(good), &sd)
	noChannel := strings.ReplaceAll(sd.SDP, "m=application", "m=audio")
	noChannelJSON, _ := json.Marshal(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: noChannel})
	answerJSON, _ := json.Marshal(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: sd.SDP})
	liteSession := strings.Replace(sd.SDP, "t=0 0\r\n", "t=0 0\r\na=ice-lite\r\n", 1)
	liteSessionJSON, _ := json.Marshal(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: liteSession})
	liteMedia := strings.Replace(sd.SDP, "a=ice-ufrag:", "a=ice-lite\r\na=ice-ufrag:", 1)
	liteMediaJSON, _ := json.Marshal(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: liteMedia})
	if liteSession == sd.SDP || liteMedia == sd.SDP {
		t.Fatalf("could not mark the offer ICE-lite:\n%s", sd.SDP)
	}
	tests := []struct {
		name   string
		body   string
		status int
		reason string
	}{
		{"not JSON", "hello", http.StatusBadRequest, "not a JSON session description"},
		{"an answer", string(answerJSON), http.StatusBadRequest, "want offer"},
		{"SDP that does not parse", `{"type":"offer","sdp":"v=banana"}`, http.StatusBadRequest, "does not parse"},
		{"no data channel", string(noChannelJSON), http.StatusBadRequest, "application sections"},
		{"ICE-lite for the session", string(liteSessionJSON), http.StatusBadRequest, "ICE-lite"},
		{"ICE-lite for the channel", string(liteMediaJSON), http.StatusBadRequest, "ICE-lite"},
		{"oversized", `{"type":"offer","sdp":"` + strings.Repeat("a", MaxOfferBytes) + `"}`, http.StatusRequestEntityTooLarge, "too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, _, body := post(t, th.url, tt.body)
			if status != tt.status || !strings.Contains(body, tt.reason) {
				t.Errorf("POST %s = %d %q, want %d and %q", tt.name, status, body, tt.status, tt.reason)
			}
		})
	}
	resp, err := http.Get(th.url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET = %s, want 405", resp.Status)
	}
	if status, _, body := post(t, th.url, good); status != http.StatusOK {
		t.Fatalf("a good offer after the bad ones = %d %q, want 200", status, body)
	}
	st := th.Stats()
	if st.Refused[refuseMalformed] != 6 || st.Refused[refuseSize] != 1 || st.Refused[refuseMethod] != 1 || st.Offers != 1 {
		t.Errorf("Stats = %+v, want 6 malformed, 1 too large, 1 not a POST, 1 answered", st)
	}
	if st.Peers != 1 {
		t.Errorf("%d peers after one good offer, want 1 (refusals leave none)", st.Peers)
	}
}

// TestOffer_FloodFromOneAddress: past OfferBurst offers one address is refused with 429
// and a Retry-After, and past MaxPeersPerAddress open peers too.
func TestOffer_FloodFromOneAddress(t *testing.T) {
	cfg := DefaultHubConfig()
	cfg.OfferBurst, cfg.OfferEvery = 3, time.Hour // no refill while the test runs
	th := startHub(t, cfg)
	for i := range 3 {
		if status, _, body := post(t, th.url, offerSDP(t)); status != http.StatusOK {
			t.Fatalf("offer %d = %d %q, want 200 (within the burst)", i+1, status, body)
		}
	}
	status, retry, body := post(t, th.url, offerSDP(t))
	if status != http.StatusTooManyRequests || retry == "" || !strings.Contains(body, refusalText[refuseRate]) {
		t.Errorf("offer 4 = %d (Retry-After %q) %q, want 429 with Retry-After and %q", status, retry, body, refusalText[refuseRate])
	}
	if _, err := answerFrom(th.url, status, "Too Many Requests", []byte(body)); !isTooSoon(err) {
		t.Errorf("offer 4's refusal %v: want one a dialer may make again a little later (RefusedError.TooSoon)", err)
	}

	cfg = DefaultHubConfig()
	cfg.MaxPeersPerAddress = 2
	th = startHub(t, cfg)
	for i := range 2 {
		if status, _, body := post(t, th.url, offerSDP(t)); status != http.StatusOK {
			t.Fatalf("peer %d = %d %q, want 200", i+1, status, body)
		}
	}
	status, _, body = post(t, th.url, offerSDP(t))
	if status != http.StatusTooManyRequests || !strings.Contains(body, refusalText[refuseAddrFull]) {
		t.Errorf("a third peer from one address = %d %q, want 429 and %q", status, body, refusalText[refuseAddrFull])
	}
	if _, err := answerFrom(th.url, status, "Too Many Requests", []byte(body)); isTooSoon(err) {
		t.Errorf("a third peer's refusal %v: want one that waiting a moment does not lift", err)
	}
	if st := th.Stats(); st.Refused[refuseAddrFull] != 1 || st.Peers != 2 {
		t.Errorf("Stats = %+v, want 1 refused for too many peers and 2 open", st)
	}
}

// TestHub_DropsHalfOpenPeers: a peer whose data channel never opens (its browser never took
// the answer) and one whose channel opened but which never completed the connect handshake
// are both dropped, each for its reason, within their timeouts.
func TestHub_DropsHalfOpenPeers(t *testing.T) {
	cfg := DefaultHubConfig()
	// Long enough for a real channel to open on a loaded machine (ICE, DTLS and SCTP under
	// -race), short enough for the test: the sweep then runs every second.
	cfg.OpenTimeout, cfg.JoinTimeout = 5*time.Second, 6*time.Second
	th := startHub(t, cfg)
	if status, _, body := post(t, th.url, offerSDP(t)); status != http.StatusOK { // answer never set
		t.Fatalf("offer = %d %q", status, body)
	}
	c := dial(t, th) // open, then silent
	waitFor(t, "both peers dropped", func() bool { return th.Stats().Peers == 0 })
	st := th.Stats()
	if st.Dropped[dropNeverOpened] != 1 || st.Dropped[dropNeverJoined] != 1 {
		t.Errorf("Dropped = %v, want one %q and one %q", st.Dropped, dropNeverOpened, dropNeverJoined)
	}
	// The dropped browser learns it: its conn closes.
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, _, err := c.ReadFrom(make([]byte, 64)); err == nil || isTimeoutErr(err) {
		t.Errorf("the dropped browser's ReadFrom = %v, want its conn closed", err)
	}
}

func isTimeoutErr(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// TestDial_NoPathSaysSo: when UDP is blocked between browser and server (the offer is
// answered over HTTP, but no ICE datagram arrives), Dial fails with ErrNoPath when its
// context ends, not hang.
func TestDial_NoPathSaysSo(t *testing.T) {
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	th := startHubOn(t, DefaultHubConfig(), blockedUDP{udp})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err = Dialer{API: LoopbackAPI()}.Dial(ctx, th.url)
	if !errors.Is(err, ErrNoPath) {
		t.Fatalf("Dial with no path = %v, want ErrNoPath", err)
	}
}

// isTooSoon reports whether err is a RefusedError for offering too soon.
func isTooSoon(err error) bool {
	var refused *RefusedError
	return errors.As(err, &refused) && refused.TooSoon()
}
