package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tanknet/carriage"
	"tanknet/transport"
)

// WebConfig is how tankserver takes browsers: the page and the offers over HTTP, and every
// browser's WebRTC peer connection on one UDP port (docs/PROTOCOL.md, "Carriage").
type WebConfig struct {
	// Addr is the TCP address serving the page and the offer endpoint; empty: no browsers.
	Addr string
	// ICE is the UDP address every browser's peer connection uses; empty: Addr's host and
	// port, over UDP.
	ICE string
	// Dir is the folder of the page (make web builds it).
	Dir string
	// PublicIP is the address browsers reach the ICE port at when it differs from the
	// host's own (a 1:1 NAT, as on a cloud VM); empty: the ICE socket's addresses.
	PublicIP string
	// Hub holds the carriage's limits.
	Hub carriage.HubConfig
	// PrintURLs prints the page's URLs on this host's addresses and a QR code of the LAN one
	// once it is served (make web-demo).
	PrintURLs bool
}

// DefaultWebConfig returns no browsers (Addr empty), the page from bin/web.
func DefaultWebConfig() WebConfig {
	return WebConfig{Dir: "bin/web", Hub: carriage.DefaultHubConfig()}
}

// register defines the -web flags on fs.
func (c *WebConfig) register(fs *flag.FlagSet) {
	fs.StringVar(&c.Addr, "web", c.Addr, "serve the browser client and take browsers over WebRTC: HTTP (the page, and offers at "+carriage.OfferPath+") on this TCP `address`, e.g. 127.0.0.1:8080; off when empty")
	fs.StringVar(&c.ICE, "web-ice", c.ICE, "the UDP `address` every browser's WebRTC connection uses (one port for all); empty: -web's address, over UDP")
	fs.StringVar(&c.Dir, "web-dir", c.Dir, "the `folder` of the browser client's page (make web builds bin/web)")
	fs.StringVar(&c.PublicIP, "web-public-ip", c.PublicIP, "the `IP` browsers reach -web-ice at, when it is not the host's own (a 1:1 NAT); empty: the socket's")
	fs.BoolVar(&c.PrintURLs, "web-urls", c.PrintURLs, "once the page is served, print its URLs (play, demo, tour) on every address of this host, and a QR code of the LAN one for a phone, on stdout")
	fs.IntVar(&c.Hub.MaxPeersPerAddress, "web-per-address", c.Hub.MaxPeersPerAddress, "the most browsers one address (an IPv6 one by its /64) may have connected at once: raise it for a classroom behind one NAT; beyond it an offer gets 429")
}

// Validate reports the first setting that cannot work.
func (c WebConfig) Validate() error {
	if c.Addr == "" {
		return nil
	}
	if err := checkAddr("-web", c.Addr, "tcp"); err != nil {
		return err
	}
	if _, err := c.iceAddr(); err != nil {
		return err
	}
	if c.PublicIP != "" {
		c.Hub.PublicIPs = []string{c.PublicIP}
	}
	return c.Hub.Validate()
}

// iceAddr returns the ICE socket's address: ICE, or Addr's.
func (c WebConfig) iceAddr() (string, error) {
	a := c.ICE
	if a == "" {
		a = c.Addr
	}
	if err := checkAddr("-web-ice", a, "udp"); err != nil {
		return "", err
	}
	return a, nil
}

// web is the browsers' way in while it runs: an HTTP server and the Hub under the game.
type web struct {
	log    *slog.Logger
	http   *http.Server
	ln     net.Listener
	hub    *carriage.Hub
	served chan error
}

// startWeb listens for the page and offers on cfg.Addr and for peer connections on the ICE
// port, and serves HTTP until stop; while stopping says so, offers are refused. rooms serves
// the lobby's RoomsPath. The Hub it returns belongs under the game (Merge).
func startWeb(cfg WebConfig, log *slog.Logger, stopping func() bool, rooms http.Handler) (*web, error) {
	iceAddr, err := cfg.iceAddr()
	if err != nil {
		return nil, err
	}
	udp, err := net.ListenPacket("udp", iceAddr)
	if err != nil {
		flag := "-web-ice"
		if cfg.ICE == "" {
			flag = "-web (its port over UDP, for WebRTC)"
		}
		return nil, listenError(flag, iceAddr, err)
	}
	transport.TuneSocket(udp) // every browser's traffic crosses this one socket
	hcfg := cfg.Hub
	hcfg.Logger = log
	hcfg.Stopping = stopping // offers get 503 from the moment a drain starts
	if cfg.PublicIP != "" {
		hcfg.PublicIPs = []string{cfg.PublicIP}
	}
	hub, err := carriage.NewHub(hcfg, udp)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		hub.Close()
		return nil, listenError("-web", cfg.Addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle(carriage.OfferPath, hub)
	mux.Handle(RoomsPath, rooms)
	mux.Handle("/", pageHandler(cfg.Dir))
	w := &web{log: log, ln: ln, hub: hub, served: make(chan error, 1), http: &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second, // a slow client holds no connection for long
		ReadTimeout:       10 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}}
	go func() { w.served <- w.http.Serve(ln) }()
	url := "http://" + ln.Addr().String() + "/"
	log.Info("serving the browser client", "url", url, "ice", hub.ICEAddr().String(), "page", cfg.Dir)
	if !pageBuilt(cfg.Dir) {
		// The server still runs (WebRTC offers from a page served elsewhere are answered), but
		// whoever opens the URL gets pageHandler's 404: say so now, where it can be fixed.
		log.Warn("the browser client is not built in the page folder: its URL will answer 404 until make web builds it, or -web-dir names the folder that has it", "page", cfg.Dir)
	}
	if cfg.PrintURLs {
		if err := printURLs(os.Stdout, ln.Addr().(*net.TCPAddr)); err != nil {
			log.Warn("cannot print the page's URLs", "err", err)
		}
	}
	return w, nil
}

// stop closes the HTTP server and the Hub (which the game's socket closed already, unless
// the game never started) and logs what the browsers did.
func (w *web) stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	w.http.Shutdown(ctx)
	w.hub.Close()
	st := w.hub.Stats()
	w.log.Info("browsers", "offers_answered", st.Offers, "joined", st.Joined, "refused", st.Refused, "dropped", st.Dropped,
		"queue_drops", st.QueueDrops, "buffer_drops", st.BufferDrops, "extra_channels", st.ExtraChannels, "text_messages", st.TextMessages)
	if err := <-w.served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// pageBuilt reports whether dir holds the browser client's page.
func pageBuilt(dir string) bool { return fileExists(filepath.Join(dir, "index.html")) }

// pageHandler serves the folder dir, or says how to build it when it holds no page (no
// index.html: missing, or not built yet). A .wasm
// file goes out as its .wasm.gz beside it (make web writes one) to a browser that accepts
// gzip: a quarter of the bytes.
func pageHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !pageBuilt(dir) {
			http.Error(w, "tanknet: the browser client is not built here ("+dir+" has no index.html): run make web, or give tankserver -web-dir", http.StatusNotFound)
			return
		}
		w.Header().Set("Cache-Control", "no-cache") // a rebuilt client reaches the next reload
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
			w.Header().Add("Vary", "Accept-Encoding")
			if gz := filepath.Join(dir, filepath.FromSlash(path.Clean("/"+r.URL.Path))) + ".gz"; acceptsGzip(r) && fileExists(gz) {
				w.Header().Set("Content-Encoding", "gzip")
				http.ServeFile(w, r, gz)
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// acceptsGzip reports whether r's Accept-Encoding accepts gzip (RFC 9110 §12.5.3): named
// (as gzip or x-gzip, in any case) with a weight above 0, or, when not named, covered by
// "*" with a weight above 0. "gzip;q=0" refuses it.
func acceptsGzip(r *http.Request) bool {
	named, star := -1.0, -1.0
	for _, line := range r.Header.Values("Accept-Encoding") {
		for _, enc := range strings.Split(line, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(enc), ";")
			q := codingWeight(params)
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "gzip", "x-gzip":
				named = max(named, q)
			case "*":
				star = max(star, q)
			}
		}
	}
	if named >= 0 {
		return named > 0
	}
	return star > 0
}

// codingWeight reads the q parameter among an Accept-Encoding entry's params: 1 when there
// is none, 0 when it does not parse (a weight the client may not have meant is no consent).
func codingWeight(params string) float64 {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || q < 0 || q > 1 {
			return 0
		}
		return q
	}
	return 1
}

// fileExists reports whether p is a regular file.
func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
