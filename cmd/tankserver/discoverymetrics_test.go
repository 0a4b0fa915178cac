package main

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"tanknet/discovery"
)

// TestDiscoveryCollector_CountsEachOutcome: a request answered and a stranger's datagram
// show on /metrics under their outcomes, and the collector reads zeros before its
// responder starts.
func TestDiscoveryCollector_CountsEachOutcome(t *testing.T) {
	c := newDiscoveryCollector()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(c)
	if got := discoveryCounts(t, reg); got != [3]float64{} {
		t.Fatalf("before a responder: %v, want zeros", got)
	}
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r, err := discovery.NewResponder(pc, discovery.DefaultResponderConfig(), func() discovery.Answer {
		return discovery.Answer{Name: "counted", GamePort: 7777}
	})
	if err != nil {
		t.Fatal(err)
	}
	c.responder.Store(r)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Serve(ctx) }()
	defer func() { cancel(); <-done }()

	asker, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer asker.Close()
	req, err := discovery.AppendRequest(nil, 42, discovery.MinRequest)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := asker.WriteTo([]byte("not a tanknet request"), r.Addr()); err != nil {
		t.Fatal(err)
	}
	if _, err := asker.WriteTo(req, r.Addr()); err != nil {
		t.Fatal(err)
	}
	// The answer comes after both datagrams were read: the counts are final once it has.
	asker.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, _, err := asker.ReadFrom(make([]byte, discovery.MaxDatagram)); err != nil {
		t.Fatalf("no answer: %v", err)
	}
	if got, want := discoveryCounts(t, reg), [3]float64{1, 0, 1}; got != want {
		t.Errorf("answered, limited, malformed = %v, want %v", got, want)
	}
}

// discoveryCounts gathers reg and returns tanknet_discovery_requests_total's series in the
// order of discoveryOutcomes.
func discoveryCounts(t *testing.T, reg *prometheus.Registry) [3]float64 {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var got [3]float64
	seen := 0
	for _, f := range fams {
		if f.GetName() != "tanknet_discovery_requests_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for i, o := range discoveryOutcomes {
				if m.GetLabel()[0].GetValue() == o {
					got[i] = m.GetCounter().GetValue()
					seen++
				}
			}
		}
	}
	if seen != len(discoveryOutcomes) {
		t.Fatalf("tanknet_discovery_requests_total has %d of its %d outcomes", seen, len(discoveryOutcomes))
	}
	return got
}
