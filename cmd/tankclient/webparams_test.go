package main

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"tanknet/client"
	"tanknet/client/tabworker"
)

// TestParseWebParams: the browser page's URL parameters become the Config and page settings
// the flags would, and a wrong one is refused with what is accepted.
func TestParseWebParams(t *testing.T) {
	tests := []struct {
		query string
		check func(Config, WebPage) bool
		err   string // "" means accepted
	}{
		{"", func(c Config, p WebPage) bool {
			return c.Name == "player" && c.Server == "127.0.0.1:8080" && !c.Demo && c.Bot == 0 && p.ReportAfter == 0 && !p.Record && !c.FrameDriven && p.Worker
		}, ""},
		{"frame-driven=1", func(c Config, p WebPage) bool { return c.FrameDriven && !p.Worker }, ""},
		{"worker=0", func(_ Config, p WebPage) bool { return !p.Worker }, ""},
		{"worker=1&bot=1", func(_ Config, p WebPage) bool { return p.Worker }, ""},
		{"tour=1", func(_ Config, p WebPage) bool { return !p.Worker }, ""}, // the tour stays on the page's thread
		{"demo=1&worker=1", func(_ Config, p WebPage) bool { return !p.Worker }, ""},
		{"worker=maybe", nil, "want 1 or 0"},
		{"name=ada&room=red&bot=1&report=15&tour=1&record=1", func(c Config, p WebPage) bool {
			return c.Name == "ada" && c.Room == "red" && c.Bot != 0 && c.Tour && p.ReportAfter == 15 && p.Record
		}, ""},
		{"net=wifi-bad", func(c Config, _ WebPage) bool { return c.Net == "wifi-bad" && c.Conditions.Outbound.Loss > 0 }, ""},
		{"demo=1", func(c Config, _ WebPage) bool {
			return c.Demo && c.Width == demoWidth && c.FarConditions.Inbound.Latency > 0
		}, ""},
		{"nmae=ada", nil, `unknown URL parameter "nmae"`},
		{"bot=yes", nil, "want 1 or 0"},
		{"report=soon", nil, "whole number of seconds"},
		{"report=0", nil, "whole number of seconds, at least 1"},
		{"name=ada&room=bad%20name!", nil, "room=: room name"},
		{"net=dialup", nil, "net=dialup: want a network preset (none, lan, broadband, wifi-bad, mobile-4g, mobile-3g) or up=PRESET,down=PRESET"},
		// custom needs the command line's link flags, which a page has none of
		{"net=custom", nil, "net=custom: want a network preset ("},
		{"net=up=custom,down=lan", nil, "or up=PRESET,down=PRESET"},
		{"net=up=lan,down=dialup", nil, "or up=PRESET,down=PRESET"},
		{"net=up=mobile-3g,down=lan", func(c Config, _ WebPage) bool {
			return c.Conditions.Outbound.Latency > c.Conditions.Inbound.Latency
		}, ""},
		{"demo=1&room=red", nil, "its own server"},
		{"demo=1&record=1", nil, "does not record"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			q, err := url.ParseQuery(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			cfg, page, err := parseWebParams(q, "127.0.0.1:8080")
			switch {
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("parseWebParams(%q) = %v, want an error with %q", tt.query, err, tt.err)
			case tt.err == "" && err != nil:
				t.Errorf("parseWebParams(%q) = %v", tt.query, err)
			case tt.err == "" && !tt.check(cfg, page):
				t.Errorf("parseWebParams(%q) = %+v, %+v", tt.query, cfg, page)
			}
		})
	}
}

// TestWebServerAddr: the session names the server by the page's host when it is an IP
// address, else by 0.0.0.0 and the page's port (the carriage has one peer either way).
func TestWebServerAddr(t *testing.T) {
	for host, want := range map[string]string{
		"127.0.0.1:8080":     "127.0.0.1:8080",
		"[::1]:8080":         "[::1]:8080",
		"tanks.example:8443": "0.0.0.0:8443",
		"tanks.example":      "0.0.0.0:80",
	} {
		if got := webServerAddr(host); got != want {
			t.Errorf("webServerAddr(%q) = %q, want %q", host, got, want)
		}
	}
}

// TestSameReport: a page's Game replayed from its worker's frames matches the worker's
// report although it has no link to count bad datagrams, and any other difference shows.
func TestSameReport(t *testing.T) {
	a := client.Report{Name: "ada", Snapshots: 40, RTTMillis: 1.5, BadDatagrams: 3, RewindsMs: []float64{20}}
	b := a
	b.BadDatagrams, b.RewindsMs = 0, nil // the worker's, through JSON
	if !sameReport(a, b) {
		t.Error("reports differing only in bad datagrams and unencoded fields differ")
	}
	b.Snapshots++
	if sameReport(a, b) {
		t.Error("reports with different snapshots are the same")
	}
}

// TestWorkerSpec: the spec the page's worker reads from the URL for itself
// (tabworker.PageSpec) is the one the page's own settings make, whatever the parameters.
func TestWorkerSpec(t *testing.T) {
	for _, query := range []string{"", "name=ada", "name=ada&room=red&bot=1&report=15", "name=b&net=wifi-bad",
		"name=c&net=up=lan,down=mobile-3g&record=1", "name=d&worker=1&bot=true", "name=e&net=none"} {
		q, err := url.ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		cfg, page, err := parseWebParams(q, "127.0.0.1:8080")
		if err != nil {
			t.Fatalf("%q: %v", query, err)
		}
		got, err := tabworker.PageSpec(q, "127.0.0.1:8080")
		if err != nil {
			t.Fatalf("PageSpec(%q): %v", query, err)
		}
		if want := workerSpec(cfg, page); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: the worker reads\n%+v\nthe page plays\n%+v", query, got, want)
		}
	}
}

func TestOrderedPhases_ICEAtTheLatestWhenTheChannelOpened(t *testing.T) {
	cases := []struct {
		name      string
		in        map[string]float64
		wantICE   float64
		iceMarked bool
	}{
		{"heard in order", map[string]float64{"answer": 600, "ice": 650, "channel": 700}, 650, true},
		{"heard after the worker's channel opened", map[string]float64{"answer": 646, "ice": 1686, "channel": 1603}, 1603, true},
		{"never heard: left out, not made up", map[string]float64{"answer": 600, "channel": 700}, 0, false},
		{"no channel yet", map[string]float64{"answer": 600, "ice": 650}, 650, true},
		{"neither", map[string]float64{"answer": 600}, 0, false},
	}
	for _, c := range cases {
		got := orderedPhases(c.in)
		ice, ok := got["ice"]
		if ok != c.iceMarked || ice != c.wantICE {
			t.Errorf("%s: ice %v (present %v), want %v (present %v)", c.name, ice, ok, c.wantICE, c.iceMarked)
		}
	}
}
