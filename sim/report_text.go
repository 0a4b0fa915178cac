package sim

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// opt formats an optional number with format, or "n/a".
func opt(format string, v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf(format, *v)
}

// WriteText writes r for people: a summary, then a table of its rooms and of its groups if
// it has them, then one row per bot.
func (r Report) WriteText(w io.Writer) error {
	r.writeTanks(w)
	r.writeCosts(w)
	fmt.Fprintln(w)
	if err := r.writeRooms(w); err != nil {
		return err
	}
	if err := r.writeGroups(w); err != nil {
		return err
	}
	return r.writeClients(w)
}

// writeTanks writes the summary's first lines: what ran, then what the bots saw of their own
// tanks and the others (corrections, contact, remote tanks, snapshots, their inputs' wait).
func (r Report) writeTanks(w io.Writer) {
	contact := "decided by the server"
	if r.Contact != "" {
		contact = r.Contact
	}
	server := r.Server
	if r.Transport == "webrtc" {
		server += " over WebRTC from " + r.Web
	}
	fmt.Fprintf(w, "%d bots for %.1fs on %s (%s), %s lane, %s interpolation, contact %s, seed %d, server %s\n",
		r.Bots, r.DurationSeconds, r.Profile, r.Link, r.Lane, r.Interp, contact, r.Seed, server)
	fmt.Fprintf(w, "own tank:  %d reconciliations, %d with a residual (%s, max %.4g units), %d corrections, %d snaps (%.2f per bot-minute)\n",
		r.Reconciliations, r.ResidualNonZero, optPercent(r.ResidualRatio), r.ResidualMax, r.Corrections, r.Snaps, r.SnapsPerBotMinute)
	if c := r.ContactFigures; c != nil {
		fmt.Fprintf(w, "contact:   %d pair-ticks overlapping in the window, overlap p99 %.2f and max %.2f tank radii; %d pushes applied (longest %.2f radii), %d refused; %d pairs pushed apart by the server\n",
			c.OverlapTicks, c.OverlapP99, c.OverlapMax, c.Pushes, c.PushMaxRadii, c.PushesRefused, c.Contacts)
	}
	fmt.Fprintf(w, "remotes:   %d frames measured in [%.1fs, %.1fs], holds %s, %d holds and %d stale over the run\n",
		r.RemoteFrames, r.WindowSeconds[0], r.WindowSeconds[1], optPercent(r.HoldsRatio), r.Holds, r.StaleRejects)
	if e := r.RemoteError; e != nil {
		fmt.Fprintf(w, "           error rms %.4f, p99 %.4f, max %.4f units at the drawn tick\n", e.RMS, e.P99, e.Max)
	}
	if e := r.RemotePlaybackError; e != nil {
		fmt.Fprintf(w, "           error rms %.4f, p99 %.4f, max %.4f units at a steady median delay (playback)\n", e.RMS, e.P99, e.Max)
	}
	if q := r.RemoteDelay; q != nil && len(r.Groups) > 0 {
		fmt.Fprintf(w, "           delay p50 %.1f ms, p99 %.1f ms over every group, each on its own latency (see the group table)\n", q.P50, q.P99)
	} else if q != nil {
		fmt.Fprintf(w, "           delay p50 %.1f ms, p99 %.1f ms = %s x (one-way %.1f ms + configured %s ms)\n",
			q.P50, q.P99, opt("%.2f", r.RemoteDelayRatio), r.OneWayMillis, opt("%.1f", r.ConfiguredDelayMillis))
	}
	fmt.Fprintf(w, "own tank:  input to visible %s ms (frames at %d/s)\n", quantileString(r.InputToVisible), r.BotFPS)
	fmt.Fprintf(w, "snapshots: %d lost, %d head-of-line stalls (gap %s ms)\n", r.SnapshotsLost, r.HOLStalls, quantileString(r.HOLStallMillis))
	fmt.Fprintf(w, "inputs:    buffer %s: late %s ticks, starved %s and doubled %s of player-ticks, waited %s ms\n", r.InputBuffer,
		quantileString(r.InputLateTicks), optPercent(r.InputStarvedRatio), optPercent(r.InputDoubleRatio), quantileString(r.InputWait))
}

// writeCosts writes the rest of the summary: the clocks' dilation, the network, the
// server, the shots, and the notes.
func (r Report) writeCosts(w io.Writer) {
	if dl := r.Dilation; dl != nil {
		fmt.Fprintf(w, "           clock dilation p50 %+.2f%%, p99 %+.2f%%, max |%.2f|%%; motion uneven in %s of moving ticks\n", dl.P50, dl.P99, dl.MaxAbsPct, optPercent(r.MotionUnevenRatio))
	}
	fmt.Fprintf(w, "network:   RTT %s ms, %.0f B/s up, %.0f B/s down per client\n",
		quantileString(r.RTT), r.BytesPerSecond.Up, r.BytesPerSecond.Down)
	fmt.Fprintf(w, "server:    tick %s ms, %s allocs/tick, %s cores\n", quantileString(r.ServerTick), opt("%.1f", r.AllocsPerTick), opt("%.3f", r.ServerCPUCores))
	if r.RoomTick != nil && r.ServerTick == nil {
		fmt.Fprintf(w, "room:      tick %s ms (estimated from the server's histogram)\n", quantileString(r.RoomTick))
	}
	if b := r.BytesPerTank; b != nil {
		fmt.Fprintf(w, "per tank:  %s bytes of snapshot moving, %s idle; worst bot got %s of the ticks\n",
			opt("%.1f", b.Moving), opt("%.1f", b.Idle), optPercent(r.SnapshotsRatioMin))
	}
	if r.Fire {
		fmt.Fprintf(w, "shots:     %d fired (lag compensation %v), %d seen as hits, %d hits by the server, agreement %s, %d kills\n",
			r.Shots, r.LagComp, r.ClientHits, r.Hits, opt("%.3f", r.HitAgreement), r.Kills)
		fmt.Fprintf(w, "           refused %v, rewind %s ms\n", r.ShotsRefused, quantileString(r.RewindMs))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note:      %s\n", n)
	}
}

// writeRooms writes one row per room, if the run had more than one, and a blank line.
func (r Report) writeRooms(w io.Writer) error {
	if len(r.Rooms) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "room\tbots\ttick p50 ms\ttick p99 ms\tresiduals\tsnaps\tsnapshots ratio min\tup B/s\tdown B/s\t")
		for _, g := range r.Rooms {
			p50, p99 := "n/a", "n/a"
			switch { // measured on the room's goroutine when in process; else from the server's histogram (~)
			case g.ServerTick != nil:
				p50, p99 = fmt.Sprintf("%.3f", g.ServerTick.P50), fmt.Sprintf("%.3f", g.ServerTick.P99)
			case g.RoomTick != nil:
				p50, p99 = fmt.Sprintf("~%.3f", g.RoomTick.P50), fmt.Sprintf("~%.3f", g.RoomTick.P99)
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d\t%d\t%s\t%.0f\t%.0f\t\n", g.Room, g.Bots, p50, p99, g.ResidualNonZero, g.Snaps,
				opt("%.3f", g.SnapshotsRatioMin), g.BytesPerSecond.Up, g.BytesPerSecond.Down)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

// writeGroups writes one row per group, if the run had groups, and a blank line.
func (r Report) writeGroups(w io.Writer) error {
	if len(r.Groups) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "group\tbots\tlink\tresiduals\tsnaps\tholds\tdelay p50 ms\tRTT p50 ms\tstarved\tup B/s\tdown B/s\t")
		for _, g := range r.Groups {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%.0f\t%.0f\t\n", g.Profile, g.Bots, g.Link, g.ResidualNonZero, g.Snaps,
				optPercent(g.HoldsRatio), quantileP50(g.RemoteDelay), quantileP50(g.RTT), optPercent(g.InputStarvedRatio), g.BytesPerSecond.Up, g.BytesPerSecond.Down)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

// writeClients writes one row per bot, in the order of their player ids.
func (r Report) writeClients(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "player\tinputs\tsnapshots\tlast ack\tplayers seen\tresiduals\tcorrections\tsnaps\tholds\tRTT ms\tup B/s\tdown B/s\t")
	clients := slices.Clone(r.Clients)
	slices.SortStableFunc(clients, func(a, b ClientReport) int { return cmp.Compare(a.PlayerID, b.PlayerID) })
	for _, c := range clients {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.0f\t%.0f\t\n", c.PlayerID, c.InputsSent, c.Snapshots, c.LastAck,
			c.PlayersSeen, c.ResidualNonZero, c.Corrections, c.Snaps, c.Holds, c.RTTMillis, c.BytesPerSecond.Up, c.BytesPerSecond.Down)
	}
	return tw.Flush()
}

func optPercent(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.2f%%", 100**v)
}

func quantileString(q *Quantiles) string {
	if q == nil {
		return "n/a"
	}
	return strings.Join([]string{
		fmt.Sprintf("p50 %.2f", q.P50), fmt.Sprintf("p99 %.2f", q.P99), fmt.Sprintf("max %.2f", q.Max),
	}, ", ")
}

// quantileP50 formats a distribution's median, or "n/a".
func quantileP50(q *Quantiles) string {
	if q == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1f", q.P50)
}
