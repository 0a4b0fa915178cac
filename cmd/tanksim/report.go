package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"tanknet/client"
)

// Report is tanksim's output. Counts are totals over all bots.
type Report struct {
	Bots            int             `json:"bots"`
	DurationSeconds float64         `json:"duration_s"`
	Reconciliations int             `json:"reconciliations"`
	ResidualNonZero int             `json:"residual_nonzero"`
	ResidualMax     float64         `json:"residual_max"`
	Corrections     int             `json:"corrections"`
	Snaps           int             `json:"snaps"`
	Holds           int             `json:"holds"`
	StaleRejects    int             `json:"stale_rejects"`
	Clients         []client.Report `json:"clients"`
}

func summarize(cfg Config, reports []client.Report) Report {
	r := Report{Bots: cfg.Bots, DurationSeconds: cfg.Duration.Seconds(), Clients: reports}
	for _, c := range reports {
		r.Reconciliations += c.Reconciliations
		r.ResidualNonZero += c.ResidualNonZero
		r.ResidualMax = max(r.ResidualMax, c.ResidualMax)
		r.Corrections += c.Corrections
		r.Snaps += c.Snaps
		r.Holds += c.Holds
		r.StaleRejects += c.StaleRejects
	}
	return r
}

func (r Report) print(w io.Writer) {
	fmt.Fprintf(w, "%d bots for %.1fs: %d reconciliations, %d with a residual (max %.4g units), %d corrections, %d snaps, %d holds, %d stale\n\n",
		r.Bots, r.DurationSeconds, r.Reconciliations, r.ResidualNonZero, r.ResidualMax, r.Corrections, r.Snaps, r.Holds, r.StaleRejects)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "player\tinputs\tsnapshots\tlast ack\tplayers seen\tresiduals\tcorrections\tsnaps\tholds\tRTT ms\t")
	for _, c := range r.Clients {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t\n", c.PlayerID, c.InputsSent, c.Snapshots, c.LastAck,
			c.PlayersSeen, c.ResidualNonZero, c.Corrections, c.Snaps, c.Holds, c.RTTMillis)
	}
	tw.Flush()
}
