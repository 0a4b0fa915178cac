package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"strings"
	"testing"

	"tanknet/discovery"
)

// TestDiscover_PrintsServersAsJSON: tanksim -discover -discover-to 127.0.0.1 finds a
// responder on a port of the range and prints it as JSON.
func TestDiscover_PrintsServersAsJSON(t *testing.T) {
	pc, err := discovery.Listen("127.0.0.1", 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg := discovery.DefaultResponderConfig()
	cfg.ServerID = 0x5151
	r, err := discovery.NewResponder(pc, cfg, func() discovery.Answer {
		return discovery.Answer{Name: "sim-test", GamePort: 7777, RoomCapacity: 16, MaxRooms: 1, RoomsOpen: 1, Players: 3, Rooms: []discovery.Room{{Name: "default", Players: 3}}}
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- r.Serve(ctx) }()
	defer func() { cancel(); <-served }()

	c, err := parseCommand(newFlags(), []string{"-discover", "-discover-to", "127.0.0.1", "-discover-timeout", "1s"})
	if err != nil || !c.discover.on {
		t.Fatalf("parseCommand(-discover ...) = %+v, %v", c, err)
	}
	for range 10 { // a loaded machine may miss a round's answer; it does not miss ten
		var out bytes.Buffer
		if err := discover(context.Background(), c.discover, &out); err != nil {
			t.Fatal(err)
		}
		var got struct{ Servers []discovery.Server }
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("output %q is not JSON: %v", out.String(), err)
		}
		for _, s := range got.Servers {
			if s.ID == "0000000000005151" {
				if s.Name != "sim-test" || s.Game.String() != "127.0.0.1:7777" || s.Players != 3 || len(s.Rooms) != 1 {
					t.Errorf("printed %+v, want what the responder said", s)
				}
				return
			}
		}
	}
	t.Fatal("ten rounds of tanksim -discover did not print the responder")
}

func TestDiscover_SocketErrorIsClear(t *testing.T) {
	c, err := parseCommand(newFlags(), []string{"-discover", "-discover-from", "192.0.2.1:0"}) // not this host's address
	if err != nil {
		t.Fatal(err)
	}
	err = discover(context.Background(), c.discover, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "cannot open a UDP socket on 192.0.2.1:0") {
		t.Errorf("discover from an address not ours = %v, want a clear socket error", err)
	}
	for _, bad := range [][]string{{"-discover", "-discover-to", "lan"}, {"-discover", "-discover-timeout", "0s"}} {
		if _, err := parseCommand(newFlags(), bad); err == nil {
			t.Errorf("parseCommand(%q) = nil error, want it refused", bad)
		}
	}
}

func newFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("tanksim", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}
