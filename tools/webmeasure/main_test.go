package main

import (
	"slices"
	"testing"
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

func TestSample_ReadsPrometheusLines(t *testing.T) {
	for _, tc := range []struct {
		line  string
		name  string
		value float64
		ok    bool
	}{
		{`tanknet_contacts_total 12`, "tanknet_contacts_total", 12, true},
		{`tanknet_pushes_refused_total{reason="too_long",room="red"} 3`, "tanknet_pushes_refused_total", 3, true},
		{`# TYPE tanknet_pushes_total counter`, "", 0, false},
		{``, "", 0, false},
		{`tanknet_pushes_total twelve`, "", 0, false},
	} {
		name, value, ok := sample(tc.line)
		if name != tc.name || value != tc.value || ok != tc.ok {
			t.Errorf("sample(%q) = %q, %v, %v; want %q, %v, %v", tc.line, name, value, ok, tc.name, tc.value, tc.ok)
		}
	}
}
