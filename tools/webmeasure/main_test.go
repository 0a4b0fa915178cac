package main

import (
	"maps"
	"slices"
	"testing"

	"tanknet/internal/promtext"
)

func measuredRun(page, native, fps float64) loadRun {
	return loadRun{
		browser: map[string]any{"rtt_ms": map[string]float64{"p50": page}, "fps": fps},
		native:  map[string]any{"rtt_ms": map[string]any{"p50": native}},
	}
}

func TestMedianRun_PicksTheMedianGap(t *testing.T) {
	runs := []loadRun{measuredRun(3.9, 1.1, 1), measuredRun(2.6, 1.2, 2), measuredRun(3.0, 1.0, 3)}
	got, gaps := medianRun(runs)
	if want := []float64{1.4, 2, 2.8}; !slices.Equal(gaps, want) {
		t.Errorf("gaps = %v, want %v", gaps, want)
	}
	if got.browser["fps"] != 3.0 {
		t.Errorf("median run is the one with fps %v, want the run whose gap is 2 ms (fps 3)", got.browser["fps"])
	}
}

func TestMedianRun_LeavesOutARunWithoutARoundTrip(t *testing.T) {
	failed := loadRun{browser: map[string]any{"rtt_ms": map[string]float64{"p50": 2}}, native: map[string]any{}}
	runs := []loadRun{failed, measuredRun(2.5, 1, 7)}
	got, gaps := medianRun(runs)
	if !slices.Equal(gaps, []float64{1.5}) || got.browser["fps"] != 7.0 {
		t.Errorf("medianRun = run with fps %v, gaps %v; want fps 7, gaps [1.5]", got.browser["fps"], gaps)
	}
	if rt := rttRuns(runs); len(rt) != 1 || rt[0]["browser"] != 2.5 {
		t.Errorf("rttRuns = %v, want the one run with both round trips", rt)
	}
	if got, gaps := medianRun([]loadRun{failed}); gaps != nil || got.browser["rtt_ms"] == nil {
		t.Errorf("with no run measured, medianRun = %v, %v; want the first run and no gaps", got, gaps)
	}
}

func TestWebrtcGaps_EachRunsWebRTCBotsOverItsNativeOnes(t *testing.T) {
	withWebRTC := func(r loadRun, p50 float64) loadRun {
		r.webrtc = map[string]any{"rtt_ms": map[string]any{"p50": p50}}
		return r
	}
	runs := []loadRun{withWebRTC(measuredRun(4, 1.2, 1), 1.9), measuredRun(4, 1, 2), withWebRTC(measuredRun(4, 1.4, 3), 1.6)}
	if got, want := webrtcGaps(runs), []float64{0.2, 0.7}; !slices.Equal(got, want) {
		t.Errorf("webrtcGaps = %v, want %v (the run without WebRTC bots left out)", got, want)
	}
	if rt := rttRuns(runs); rt[0]["webrtc"] != 1.9 || len(rt[1]) != 2 {
		t.Errorf("rttRuns = %v, want the first run's webrtc round trip and none for the second", rt)
	}
}

func TestContactSince_SumsEachFamilyOverItsLabels(t *testing.T) {
	before := promtext.Series{"tanknet_contacts_total": 2, `tanknet_pushes_refused_total{reason="too_long"}`: 1}
	after := promtext.Series{"tanknet_contacts_total": 5, "tanknet_pushes_total": 7,
		`tanknet_pushes_refused_total{reason="too_long"}`: 2, `tanknet_pushes_refused_total{reason="no_contact"}`: 4}
	got := contactSince(before, after)
	want := map[string]any{"separations": 3.0, "pushes": 7.0, "pushes_refused": 5.0}
	if !maps.Equal(got, want) {
		t.Errorf("contactSince = %v, want %v", got, want)
	}
}
