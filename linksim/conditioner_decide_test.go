package linksim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestDecide(t *testing.T) {
	tests := []struct {
		name string
		link Link
		want verdict
	}{
		{name: "perfect link passes at once", link: Link{}, want: verdict{}},
		{name: "latency only", link: Link{Latency: 30 * time.Millisecond}, want: verdict{delay: 30 * time.Millisecond}},
		{name: "certain loss drops", link: Link{Latency: 30 * time.Millisecond, Loss: 1, Duplicate: 1}, want: verdict{drop: true}},
		{name: "certain duplicate", link: Link{Latency: 5 * time.Millisecond, Duplicate: 1}, want: verdict{duplicate: true, delay: 5 * time.Millisecond}},
		{
			name: "reorder holds back by half the latency",
			link: Link{Latency: 100 * time.Millisecond, Reorder: 1},
			want: verdict{reordered: true, delay: 150 * time.Millisecond},
		},
		{
			name: "reorder holds back at least the minimum",
			link: Link{Reorder: 1},
			want: verdict{reordered: true, delay: minReorderHold},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			for i := range 100 {
				if got := decide(tt.link, rng); got != tt.want {
					t.Fatalf("packet %d: decide(%v) = %+v, want %+v", i, tt.link, got, tt.want)
				}
			}
		})
	}
}

func TestDecideJitterStaysInRange(t *testing.T) {
	tests := []struct {
		name     string
		link     Link
		min, max time.Duration
	}{
		{name: "jitter below latency", link: Link{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond}, min: 40 * time.Millisecond, max: 60 * time.Millisecond},
		{name: "jitter above latency never goes negative", link: Link{Latency: 10 * time.Millisecond, Jitter: 30 * time.Millisecond}, min: 0, max: 40 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 7))
			lo, hi := time.Duration(math.MaxInt64), time.Duration(0)
			for range 10000 {
				d := decide(tt.link, rng).delay
				lo, hi = min(lo, d), max(hi, d)
			}
			if lo < tt.min || hi > tt.max {
				t.Fatalf("delays span [%v, %v], want within [%v, %v]", lo, hi, tt.min, tt.max)
			}
			// The whole range is used: both ends come within 1 ms.
			if lo > tt.min+time.Millisecond || hi < tt.max-time.Millisecond {
				t.Fatalf("delays span [%v, %v], want close to [%v, %v]", lo, hi, tt.min, tt.max)
			}
		})
	}
}

func TestDecideRatesMatchProbabilities(t *testing.T) {
	link := Link{Loss: 0.2, Duplicate: 0.1, Reorder: 0.05}
	rng := rand.New(rand.NewPCG(11, 3))
	const n = 20000
	var drops, dups, reorders, survivors int
	for range n {
		v := decide(link, rng)
		if v.drop {
			drops++
			continue
		}
		survivors++
		if v.duplicate {
			dups++
		}
		if v.reordered {
			reorders++
		}
	}
	for _, r := range []struct {
		name      string
		got, want float64
	}{
		{"loss", float64(drops) / n, link.Loss},
		{"duplicate", float64(dups) / float64(survivors), link.Duplicate},
		{"reorder", float64(reorders) / float64(survivors), link.Reorder},
	} {
		// Over 5 standard deviations at these sizes; the seed is fixed, so this never flakes.
		if math.Abs(r.got-r.want) > 0.015 {
			t.Errorf("%s rate = %.4f, want %.2f ± 0.015", r.name, r.got, r.want)
		}
	}
}

func TestDecideIsReproducible(t *testing.T) {
	link := Link{Latency: 50 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.2, Duplicate: 0.1, Reorder: 0.1}
	decisions := func(l Link, seed uint64) []verdict {
		rng := rand.New(rand.NewPCG(seed, outboundStream))
		out := make([]verdict, 1000)
		for i := range out {
			out[i] = decide(l, rng)
		}
		return out
	}
	fates := func(vs []verdict) []verdict { // decisions without their delays
		out := slices.Clone(vs)
		for i := range out {
			out[i].delay = 0
		}
		return out
	}

	a := decisions(link, 42)
	if b := decisions(link, 42); !slices.Equal(a, b) {
		t.Fatal("the same seed gave different decisions")
	}
	if c := decisions(link, 43); slices.Equal(a, c) {
		t.Fatal("different seeds gave identical decisions")
	}
	slower := link
	slower.Latency = 200 * time.Millisecond
	if d := decisions(slower, 42); !slices.Equal(fates(a), fates(d)) {
		t.Fatal("changing only the latency changed which packets are lost, duplicated or reordered")
	}
}
