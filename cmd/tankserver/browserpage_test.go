package main

import (
	"context"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"

	"tanknet/carriage"
	"tanknet/internal/cdp"
)

// pageWords checks that the page says what is wrong in sentences: opened from a file, and
// served by a static host that refuses the offer (as python3 -m http.server does, 501). The
// favicon the page names is served (no 404 in a console).
func pageWords(t *testing.T, ctx context.Context, b *cdp.Browser, page, webDir string) {
	session, err := b.OpenPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, b, session, "file://"+webDir+"/index.html?name=f")
	line, _ := awaitConsole(t, ctx, b, "tankclient: ")
	if !strings.Contains(line, "opened from a file") || !strings.Contains(line, "make web-demo") {
		t.Errorf("from file:// the page said %q, want that it must be served (make web-demo)", line)
	}

	static := staticHost(t, webDir)
	navigate(t, ctx, b, session, static+"?name=s")
	line, _ = awaitConsole(t, ctx, b, "tankclient: ")
	if !strings.Contains(line, "is not tankserver") || !strings.Contains(line, "HTTP 501") || strings.Contains(line, "TypeError") {
		t.Errorf("from a static host the page said %q, want that the host is not tankserver (HTTP 501)", line)
	}
	if got := evalString(t, ctx, b, session, "document.getElementById('status').textContent"); !strings.Contains(got, "is not tankserver") {
		t.Errorf("the page shows %q, want the sentence about the static host", got)
	}

	navigate(t, ctx, b, session, page+"?name=icon&report=1")
	awaitConsole(t, ctx, b, "tanknet-report ")
	icon := `fetch(document.querySelector('link[rel=icon]').href).then(r => r.status + ' ' + r.headers.get('content-type'))`
	if got := evalString(t, ctx, b, session, icon); !strings.HasPrefix(got, "200 image/svg") {
		t.Errorf("the favicon answers %q, want 200 and an SVG", got)
	}
	b.Call(ctx, session, "Page.close", nil, nil) // a page left playing slows the next ones
}

// staticHost serves webDir as a plain static web host that knows no POST (501), and returns
// its URL.
func staticHost(t *testing.T, webDir string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	files := http.FileServer(http.Dir(webDir))
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "Unsupported method", http.StatusNotImplemented)
			return
		}
		files.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/"
}

// navigate opens url in session.
func navigate(t *testing.T, ctx context.Context, b *cdp.Browser, session, url string) {
	t.Helper()
	if err := b.Call(ctx, session, "Page.navigate", map[string]any{"url": url}, nil); err != nil {
		t.Fatal(err)
	}
}

// evalString evaluates expr in session (awaiting a promise) and returns its string value.
func evalString(t *testing.T, ctx context.Context, b *cdp.Browser, session, expr string) string {
	t.Helper()
	var got struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
	}
	if err := b.Call(ctx, session, "Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &got); err != nil {
		t.Fatal(err)
	}
	s, _ := got.Result.Value.(string)
	return s
}

// phasesInOrder reports the first step of connecting missing from phases or earlier than
// one it must follow ("" when all are there, in order). Loading the program and signalling
// are two chains that overlap (the page signals while the wasm compiles); both end at the
// first frame drawn. The page's program joins after it starts; a page whose game runs in its
// worker (phase worker) joins when the worker has started and may do so before the page's
// program has.
func phasesInOrder(phases map[string]float64) string {
	joiner := "start"
	if _, ok := phases["worker"]; ok {
		joiner = "worker"
	}
	for _, chain := range [][]string{{"fetch", "compile", "start", "drawn"}, {joiner, "welcome"}, {"offer", "answer", "ice", "channel", "welcome", "drawn"}} {
		prev := 0.0
		for _, step := range chain {
			at, ok := phases[step]
			if !ok || at < prev {
				return step
			}
			prev = at
		}
	}
	return ""
}

// TestPageSignalsAsTheCarriage: the page's own script starts signalling before the program
// runs, so it must open the channel the carriage's server takes (Label) at the path it
// takes offers on (OfferPath), as the program itself would.
func TestPageSignalsAsTheCarriage(t *testing.T) {
	html, err := os.ReadFile("../tankclient/web/index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`createDataChannel("` + carriage.Label + `"`, `fetch("` + carriage.OfferPath + `"`} {
		if !strings.Contains(string(html), want) {
			t.Errorf("index.html does not contain %s", want)
		}
	}
}
