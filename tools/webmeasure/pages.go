package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"tanknet/carriage"
	"tanknet/internal/cdp"
)

// page is what one page's tanknet-report line says, in the fields webmeasure reads.
type page struct {
	Name            string  `json:"name"`
	ConnectMs       float64 `json:"connect_ms"`
	RTTMs           float64 `json:"rtt_ms"`     // the newest round trip
	RTTMedianMs     float64 `json:"rtt_p50_ms"` // the page's median round trip (0 from a build before it)
	Snapshots       int     `json:"snapshots"`
	SnapshotsLost   int     `json:"snapshots_lost"`
	ResidualNonZero int     `json:"residual_nonzero"`
	PlayersSeen     int     `json:"players_seen"`
	Transport       string  `json:"transport"`
	Joined          bool    `json:"joined"`
	Error           string  `json:"error"`
	// PhasesMs is when each step of connecting happened, ms from navigation start.
	PhasesMs map[string]float64 `json:"phases_ms"`
	FPS      float64            `json:"fps"`
	// Worker says the page's game ran in its Web Worker; DrawnMatches that the Game it drew
	// matched the worker's at the report's frame (absent: not checked).
	Worker       bool  `json:"worker"`
	DrawnMatches *bool `json:"drawn_matches"`
	// InputWait is how long the page's inputs waited in the server's buffer.
	InputWait *struct {
		Samples int     `json:"samples"`
		P50Ms   float64 `json:"p50_ms"`
		P90Ms   float64 `json:"p90_ms"`
		Starved int     `json:"starved"`
	} `json:"input_wait"`
}

// timeConnects opens o.connects pages one after another, each in b or, with o.fresh, in a
// Chromium of its own, and returns each one's time to its Welcome and the summary of its
// phases.
func timeConnects(ctx context.Context, o runOptions, b *cdp.Browser, pace *offerPace, url string) ([]float64, map[string]any, error) {
	var connectMs []float64
	phases := map[string][]float64{}
	for i := range o.connects {
		fmt.Fprintln(os.Stderr, "webmeasure: connect", i+1)
		in, done := b, func() {}
		if o.fresh {
			var err error
			if in, done, err = startChromium(o.chromium, o.chromiumFlags()...); err != nil {
				return nil, nil, err
			}
		}
		reps, err := openPages(ctx, in, pace, url, []string{fmt.Sprintf("?name=c%d&report=1%s", i, o.every)}, nil)
		done()
		if err != nil {
			return nil, nil, fmt.Errorf("connect %d: %w", i+1, err)
		}
		fmt.Fprintf(os.Stderr, "webmeasure: connect %d: %v ms, phases %v\n", i+1, reps[0].ConnectMs, reps[0].PhasesMs)
		connectMs = append(connectMs, reps[0].ConnectMs)
		for k, v := range reps[0].PhasesMs {
			phases[k] = append(phases[k], v)
		}
	}
	phaseSummary := map[string]any{}
	for k, v := range phases {
		phaseSummary[k] = summary(v)
	}
	return connectMs, phaseSummary, nil
}

// offerPace keeps the pages' offers within what the server takes from one address
// (carriage.HubConfig: OfferBurst at once, then one every OfferEvery): every page here
// comes from 127.0.0.1, and a page whose offer is refused says so and gives up.
type offerPace struct {
	cfg    carriage.HubConfig
	tokens int
	last   time.Time // when the newest token was counted
}

// wait returns when one more offer may go.
func (p *offerPace) wait(ctx context.Context) {
	for p.tokens == 0 {
		next := p.last.Add(p.cfg.OfferEvery + 100*time.Millisecond) // a little slack for the server's clock
		select {
		case <-time.After(time.Until(next)):
		case <-ctx.Done():
			return
		}
		p.tokens, p.last = 1, time.Now()
	}
	p.tokens--
	if p.last.IsZero() || p.tokens == 0 {
		p.last = time.Now()
	}
}

// openPages opens one page per query, as fast as pace allows, calls opened (unless nil) once
// every page is on its way, and returns their reports, in order.
func openPages(ctx context.Context, b *cdp.Browser, pace *offerPace, url string, queries []string, opened func()) ([]page, error) {
	sessions := make([]string, len(queries))
	for i, q := range queries {
		pace.wait(ctx)
		s, err := b.OpenPage(ctx)
		if err != nil {
			return nil, err
		}
		sessions[i] = s
		if err := b.Call(ctx, s, "Page.navigate", map[string]any{"url": url + q}, nil); err != nil {
			return nil, err
		}
	}
	if opened != nil {
		opened()
	}
	byName := map[string]page{}
	for len(byName) < len(queries) {
		line, err := nextReport(ctx, b)
		if err != nil {
			return nil, fmt.Errorf("%d of %d pages reported: %w", len(byName), len(queries), err)
		}
		var p page
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			return nil, fmt.Errorf("a report does not parse: %w", err)
		}
		if !p.Joined {
			return nil, fmt.Errorf("page %s never joined: %s", p.Name, p.Error)
		}
		byName[p.Name] = p
	}
	for _, s := range sessions {
		b.Call(ctx, s, "Page.close", nil, nil)
	}
	out := make([]page, len(queries))
	for i, q := range queries {
		name, _, _ := strings.Cut(strings.TrimPrefix(q, "?name="), "&")
		out[i] = byName[name]
	}
	return out, nil
}

// browserSummary condenses the pages' reports, each over played.
func browserSummary(reps []page, played time.Duration) map[string]any {
	var rtt, waits, waits90, fps []float64
	lost, residual, seenMin, snaps, inWorker, matched := 0, 0, -1, 0, 0, 0
	rateMin := -1.0 // the slowest page's snapshots a second over its report's span
	for _, r := range reps {
		if rate := float64(r.Snapshots) / played.Seconds(); rateMin < 0 || rate < rateMin {
			rateMin = rate
		}
		// Each page's median round trip, as tanksim's rtt_ms is the median of its bots'
		// every sample: the newest alone is one ping's luck.
		rtt = append(rtt, cmp.Or(r.RTTMedianMs, r.RTTMs))
		fps = append(fps, r.FPS)
		if r.InputWait != nil && r.InputWait.Samples > 0 {
			waits, waits90 = append(waits, r.InputWait.P50Ms), append(waits90, r.InputWait.P90Ms)
		}
		if r.Worker {
			inWorker++
		}
		if r.DrawnMatches != nil && *r.DrawnMatches {
			matched++
		}
		lost += r.SnapshotsLost
		residual += r.ResidualNonZero
		snaps += r.Snapshots
		if seenMin < 0 || r.PlayersSeen < seenMin {
			seenMin = r.PlayersSeen
		}
	}
	return map[string]any{"rtt_ms": summary(rtt), "snapshots": snaps, "snapshots_lost": lost,
		"residual_nonzero": residual, "players_seen_min": seenMin, "snapshots_per_s_min": math.Round(rateMin*10) / 10,
		// Each page's median and 90th percentile of its input waits (the server's reports),
		// summarised over the pages.
		"input_wait_p50_ms": summary(waits), "input_wait_p90_ms": summary(waits90), "fps": summary(fps),
		"pages_in_worker": inWorker, "drawn_matches": matched}
}

// nextReport returns the JSON of the next "tanknet-report" line any page logs, or an error
// when a page says it failed ("tankclient: ...") or ctx ends first.
func nextReport(ctx context.Context, b *cdp.Browser) (string, error) {
	for {
		select {
		case e := <-b.Events():
			text, ok := cdp.ConsoleText(e)
			if !ok {
				continue
			}
			if strings.HasPrefix(text, "tankclient: ") {
				return "", fmt.Errorf("a page says %s", text)
			}
			if line, ok := strings.CutPrefix(text, "tanknet-report "); ok {
				return line, nil
			}
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}
