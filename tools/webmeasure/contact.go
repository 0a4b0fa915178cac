package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// metricsAddr is where the measured tankserver serves its Prometheus metrics (-metrics).
const metricsAddr = "127.0.0.1:7872"

// contactCounters are the server's counters of what tank contact did, summed over rooms and
// reasons: a reconciliation has a residual only when the server changed a tank's path
// itself, by pushing a pair apart or by applying a client's push as zero (PROTOCOL.md §7c).
type contactCounters struct {
	separations, pushes, refused float64
}

// readContact scrapes the server's contact counters.
func readContact(ctx context.Context) (contactCounters, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+metricsAddr+"/metrics", nil)
	if err != nil {
		return contactCounters{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return contactCounters{}, fmt.Errorf("server metrics: %w", err)
	}
	defer resp.Body.Close()
	var c contactCounters
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, value, ok := sample(sc.Text())
		if !ok {
			continue
		}
		switch name {
		case "tanknet_contacts_total":
			c.separations += value
		case "tanknet_pushes_total":
			c.pushes += value
		case "tanknet_pushes_refused_total":
			c.refused += value
		}
	}
	return c, sc.Err()
}

// sample splits one line of Prometheus text into its metric's name and value; comments and
// lines that do not parse report false.
func sample(line string) (name string, value float64, ok bool) {
	if line == "" || line[0] == '#' {
		return "", 0, false
	}
	sp := strings.LastIndexByte(line, ' ')
	if sp < 0 {
		return "", 0, false
	}
	v, err := strconv.ParseFloat(line[sp+1:], 64)
	if err != nil {
		return "", 0, false
	}
	name = line[:sp]
	if i := strings.IndexByte(name, '{'); i >= 0 {
		name = name[:i]
	}
	return name, v, true
}

// since is what the counters grew by from before.
func (c contactCounters) since(before contactCounters) map[string]any {
	return map[string]any{"separations": c.separations - before.separations, "pushes": c.pushes - before.pushes,
		"pushes_refused": c.refused - before.refused}
}
