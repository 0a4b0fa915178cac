package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"tanknet/internal/promtext"
)

// metricsAddr is where the measured tankserver serves its Prometheus metrics (-metrics).
const metricsAddr = "127.0.0.1:7872"

// contactFamilies are the server's counters of what tank contact did, by the name webmeasure
// reports each under: a reconciliation has a residual only when the server changed a tank's
// path itself, by pushing a pair apart or by applying a client's push as zero (PROTOCOL.md
// §7c).
var contactFamilies = map[string]string{
	"separations":    "tanknet_contacts_total",
	"pushes":         "tanknet_pushes_total",
	"pushes_refused": "tanknet_pushes_refused_total",
}

// readMetrics scrapes the server's metrics.
func readMetrics(ctx context.Context) (promtext.Series, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+metricsAddr+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("server metrics: %w", err)
	}
	defer resp.Body.Close()
	return promtext.Read(resp.Body)
}

// contactSince is what the contact counters grew by from before to after, summed over
// rooms and reasons.
func contactSince(before, after promtext.Series) map[string]any {
	out := map[string]any{}
	for key, family := range contactFamilies {
		out[key] = after.Sum(family) - before.Sum(family)
	}
	return out
}
