package main

import (
	"maps"
	"testing"
	"time"
)

func TestCoresByKind_CountsOnlyProcessesAliveAtBothReadings(t *testing.T) {
	before := processCPU{
		1: {kind: "GPU", seconds: 10},
		2: {kind: "renderer", seconds: 3},
		3: {kind: "renderer", seconds: 1},
		4: {kind: "renderer", seconds: 5}, // a page closed between the readings
	}
	after := processCPU{
		1: {kind: "GPU", seconds: 40},
		2: {kind: "renderer", seconds: 6},
		3: {kind: "renderer", seconds: 4},
		5: {kind: "renderer", seconds: 9}, // a page opened between them
	}
	got := coresByKind(before, after, 20*time.Second)
	want := map[string]float64{"GPU": 1.5, "renderer": 0.3}
	if !maps.Equal(got, want) {
		t.Errorf("coresByKind = %v, want %v", got, want)
	}
}

func TestCoresByKind_NoTimeNoFigure(t *testing.T) {
	if got := coresByKind(processCPU{1: {"GPU", 1}}, processCPU{1: {"GPU", 2}}, 0); got != nil {
		t.Errorf("coresByKind over no time = %v, want nil", got)
	}
}

func TestCoresByKind_AReusedIDThatWentBackIsLeftOut(t *testing.T) {
	// An id the browser gave a new process after the old one ended: less time than before.
	got := coresByKind(processCPU{7: {"renderer", 30}}, processCPU{7: {"renderer", 2}}, 10*time.Second)
	if len(got) != 0 {
		t.Errorf("coresByKind = %v, want nothing for a process whose time went back", got)
	}
}
