package main

import (
	"os"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"tanknet/carriage"
)

// TestHubCollector_ExactValuesAndDocumented: each tanknet_web_ metric reads its field of
// HubStats, every reason is exported from the start, and docs/PROTOCOL.md §11 has a row for
// each metric naming every value of its label.
func TestHubCollector_ExactValuesAndDocumented(t *testing.T) {
	st := carriage.HubStats{Offers: 3, Peers: 2, Joined: 5, QueueDrops: 7, BufferDrops: 11, ExtraChannels: 13, TextMessages: 17,
		Refused: map[string]uint64{"rate": 19}, Dropped: map[string]uint64{"evicted": 23}}
	reg := prometheus.NewRegistry()
	reg.MustRegister(newHubCollector(func() carriage.HubStats { return st }))
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "## 11. What the server counts")
	values := map[string]float64{}
	for _, f := range families {
		row := "| `" + f.GetName() + "` |"
		i := strings.Index(section, row)
		if i < 0 {
			t.Errorf("docs/PROTOCOL.md §11 lacks %s", f.GetName())
			continue
		}
		line, _, _ := strings.Cut(section[i:], "\n")
		for _, m := range f.GetMetric() {
			key := f.GetName()
			for _, l := range m.GetLabel() {
				key += "/" + l.GetValue()
				if !strings.Contains(line, "`"+l.GetValue()+"`") {
					t.Errorf("docs/PROTOCOL.md §11: %s lacks its label value %q", f.GetName(), l.GetValue())
				}
			}
			values[key] = m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	want := map[string]float64{
		"tanknet_web_peers": 2, "tanknet_web_offers_answered_total": 3, "tanknet_web_peers_joined_total": 5,
		"tanknet_web_queue_drops_total": 7, "tanknet_web_buffer_drops_total": 11, "tanknet_web_extra_channels_total": 13,
		"tanknet_web_text_messages_total": 17, "tanknet_web_offers_refused_total/rate": 19,
		"tanknet_web_offers_refused_total/stopping": 0, "tanknet_web_peers_dropped_total/evicted": 23,
		"tanknet_web_peers_dropped_total/left_game": 0,
	}
	for k, v := range want {
		if got, ok := values[k]; !ok || got != v {
			t.Errorf("%s = %v (exported %v), want %v", k, got, ok, v)
		}
	}
	if n := len(values); n != 7+len(carriage.RefusalReasons)+len(carriage.DropReasons) {
		t.Errorf("%d series, want one per metric and one per reason", n)
	}
}
