package main

import (
	"maps"
	"testing"
	"time"
)

func TestCoresByKind_CountsWhatEachProcessUsedBetweenTheReadings(t *testing.T) {
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
		5: {kind: "renderer", seconds: 4}, // a page opened between them: all its time
	}
	got := coresByKind(before, after, 20*time.Second)
	want := map[string]float64{"GPU": 1.5, "renderer": 0.5}
	if !maps.Equal(got, want) {
		t.Errorf("coresByKind = %v, want %v", got, want)
	}
}

func TestCoresByKind_NoTimeNoFigure(t *testing.T) {
	if got := coresByKind(processCPU{1: {"GPU", 1}}, processCPU{1: {"GPU", 2}}, 0); got != nil {
		t.Errorf("coresByKind over no time = %v, want nil", got)
	}
}

func TestCoresByKind_AReusedIDIsANewProcess(t *testing.T) {
	// Ids the system gave new processes after the old ones ended: less time than before, or
	// another kind. Each new process counts all it used.
	before := processCPU{7: {"renderer", 30}, 8: {"GPU", 1}}
	after := processCPU{7: {"renderer", 2}, 8: {"renderer", 3}}
	got := coresByKind(before, after, 10*time.Second)
	if want := map[string]float64{"renderer": 0.5}; !maps.Equal(got, want) {
		t.Errorf("coresByKind = %v, want %v: both new processes' whole time", got, want)
	}
}
