package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/carriage"
	"tanknet/server"
)

// TestRunOverWebRTC plays bots that join as browser pages do, each over a WebRTC data
// channel of its own (Config.Web), against a server with a browsers' door on loopback: every
// bot joins through the door and plays, and the report says how they came. The page's
// address has a path and a query: the offers go to its origin's offer path.
func TestRunOverWebRTC(t *testing.T) {
	if testing.Short() {
		t.Skip("plays for 2 s over WebRTC on loopback")
	}
	scfg := server.DefaultConfig()
	scfg.Logger = slog.New(slog.DiscardHandler)
	srv, err := server.New(scfg)
	if err != nil {
		t.Fatal(err)
	}
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ice, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hcfg := carriage.DefaultHubConfig()
	hcfg.AllowCandidate = carriage.IsLoopback
	hub, err := carriage.NewHub(hcfg, ice)
	if err != nil {
		t.Fatal(err)
	}
	// As tankserver -web serves it: offers at the origin's path only. Each offer's candidates
	// are read on the way, to prove the bots offer loopback alone (carriage.LoopbackAPI).
	var candidates, elsewhere atomic.Int32
	mux := http.NewServeMux()
	mux.Handle(carriage.OfferPath, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var offer struct{ SDP string }
		json.Unmarshal(body, &offer)
		for _, line := range strings.Split(offer.SDP, "\n") {
			if f := strings.Fields(line); len(f) > 4 && strings.HasPrefix(f[0], "a=candidate:") {
				candidates.Add(1)
				if ip, err := netip.ParseAddr(f[4]); err != nil || !ip.IsLoopback() {
					elsewhere.Add(1)
				}
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		hub.ServeHTTP(w, r)
	}))
	page := httptest.NewServer(mux)
	defer page.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, carriage.Merge(udp, hub)) }()
	defer func() { cancel(); <-served }()

	cfg := DefaultConfig()
	cfg.Bots, cfg.Duration, cfg.Net, cfg.BotFPS = 2, 2*time.Second, "none", 30
	// A page's address, path and query and all: the offers go to its origin's offer path.
	cfg.Server, cfg.Web = udp.LocalAddr().String(), page.URL+"/index.html?name=a"
	res, err := Run(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	if r.Transport != "webrtc" || r.Web != cfg.Web {
		t.Errorf("transport %q from %q, want webrtc from %q", r.Transport, r.Web, cfg.Web)
	}
	if candidates.Load() == 0 || elsewhere.Load() != 0 {
		t.Errorf("the bots offered %d candidates, %d of them not on loopback; want some, all on loopback", candidates.Load(), elsewhere.Load())
	}
	if st := hub.Stats(); st.Joined != 2 {
		t.Errorf("the door admitted %d peers to the game, want the 2 bots (%+v)", st.Joined, st)
	}
	if r.Reconciliations == 0 || r.RTT == nil || r.ResidualNonZero != 0 {
		t.Errorf("reconciliations %d, rtt %v, residual_nonzero %d: want the bots playing, their pings answered, prediction exact",
			r.Reconciliations, r.RTT, r.ResidualNonZero)
	}
}
