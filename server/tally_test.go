package server

import (
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tanknet/wire"
)

// A drop's Stats label, Disconnect code and text all come from its kind; the label is
// chosen by the code alone, whatever the text says.
func TestDropReason_CodeGivesLabelAndText(t *testing.T) {
	for _, tt := range []struct {
		reason dropReason
		code   wire.DisconnectCode
		label  string
		text   string
	}{
		{dropTimeout.reason("nothing received for 5s"), wire.DisconnectTimeout, "timeout", "timed out: nothing received for 5s"},
		{dropProtocol.reason("second Hello"), wire.DisconnectProtocolError, "protocol_error", "protocol error: second Hello"},
		{dropSlow.reason("control queue full"), wire.DisconnectCannotKeepUp, "cannot_keep_up", "cannot keep up: control queue full"},
		{dropNoAck.reason("nothing acknowledged for 30s"), wire.DisconnectNotAcknowledging, "not_acknowledging", "not acknowledging: nothing acknowledged for 30s"},
		{dropShutdown.reason(""), wire.DisconnectShuttingDown, dropOther, "server shutting down"},
		// Text that reads like another kind does not change the label: the code decides.
		{dropProtocol.reason("timed out: a detail that looks like a timeout"), wire.DisconnectProtocolError, "protocol_error", "protocol error: timed out: a detail that looks like a timeout"},
	} {
		if !tt.reason.dropping() {
			t.Errorf("%q is not a drop", tt.reason)
		}
		d := tt.reason.disconnect()
		if d.Code != tt.code || d.Reason != tt.text {
			t.Errorf("disconnect of %q = %+v, want code %v text %q", tt.reason, d, tt.code, tt.text)
		}
		var c counters
		c.drop(tt.reason)
		if got := c.snapshot().DropsByReason; len(got) != 1 || got[tt.label] != 1 {
			t.Errorf("drop %q counted as %v, want %s=1", tt.reason, got, tt.label)
		}
	}
	if (dropReason{}).dropping() {
		t.Error("the zero dropReason is a drop")
	}
	if got := dropLabel(dropKind{wire.DisconnectCode(99), "odd"}); got != dropOther {
		t.Errorf("dropLabel of a kind not among dropKinds = %q, want %q", got, dropOther)
	}
}

// Every split of Stats lists every key it can take, so server/metrics exports each at zero
// from the start; every drop is counted under one of DropLabels.
func TestLabels_ListEveryKey(t *testing.T) {
	for _, tt := range []struct {
		name      string
		got, want []string
	}{
		{"DropLabels", DropLabels(), []string{"cannot_keep_up", "not_acknowledging", "other", "protocol_error", "timeout"}},
		{"InputRuleLabels", InputRuleLabels(), []string{"duration", "inbox_full", "not_finite", "too_far_ahead"}},
		{"RejectLabels", RejectLabels(), []string{"bad_hello", "busy", "no_room", "server_full", "shutting_down", "version_mismatch"}},
		{"ShotRefusalLabels", ShotRefusalLabels(), []string{"bad_view", "cooldown", "destroyed", "future_view", "stale_tick", "unplayed_tick", "view_too_old"}},
		{"PushRefusalLabels", PushRefusalLabels(), []string{"no_contact", "not_predicted", "too_long"}},
	} {
		if !slices.Equal(tt.got, tt.want) {
			t.Errorf("%s() = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	for _, k := range append(dropKinds, dropShutdown) {
		if l := dropLabel(k); !slices.Contains(DropLabels(), l) {
			t.Errorf("a drop of kind %q counts as %q, not among DropLabels", k.words, l)
		}
	}
}

func TestTickHistogram_BucketsByUpperBound(t *testing.T) {
	var h tickHistogram
	for _, d := range []time.Duration{0, 50 * time.Microsecond, 51 * time.Microsecond, 2 * time.Millisecond, time.Second} {
		h.observe(d)
	}
	s := h.snapshot()
	want := map[time.Duration]uint64{50 * time.Microsecond: 2, 100 * time.Microsecond: 1, 2 * time.Millisecond: 1}
	for i, ub := range s.UpperBounds {
		if s.Counts[i] != want[ub] {
			t.Errorf("bucket <= %v holds %d, want %d", ub, s.Counts[i], want[ub])
		}
	}
	if wantSum := time.Second + 2*time.Millisecond + 101*time.Microsecond; s.Count != 5 || s.Sum != wantSum {
		t.Errorf("count %d sum %v, want 5 and %v (the 1 s tick counts beyond the last bucket)", s.Count, s.Sum, wantSum)
	}
}

// snapshot copies every live count of counters to its own field of Stats: each set to a
// value of its own shows there, and Rejects and Drops are the totals of their splits.
func TestCounters_SnapshotReadsEveryCount(t *testing.T) {
	var c counters
	st := new(Stats)
	counts := []struct {
		live  *atomic.Uint64
		shown *uint64
	}{
		{&c.ticks, &st.Ticks}, {&c.joins, &st.Joins}, {&c.leaves, &st.Leaves},
		{&c.applied, &st.InputsApplied}, {&c.staleInputs, &st.InputsStale}, {&c.clamped, &st.InputsClamped},
		{&c.deferred, &st.InputsDeferred}, {&c.contacts, &st.Contacts}, {&c.badFrames, &st.BadFrames},
		{&c.evicted, &st.Evicted}, {&c.pushes, &st.Pushes}, {&c.pingsIgnored, &st.PingsIgnored},
		{&c.statesMoving, &st.StatesMoving}, {&c.statesIdle, &st.StatesIdle},
		{&c.stateBytesMoving, &st.StateBytesMoving}, {&c.stateBytesIdle, &st.StateBytesIdle},
		{&c.shots, &st.Shots}, {&c.hits, &st.Hits}, {&c.kills, &st.Kills}, {&c.respawns, &st.Respawns},
		{&c.firesDropped, &st.FiresDropped}, {&c.earlyInputs, &st.InputsEarly},
		{&c.redundantInputs, &st.InputsRedundant}, {&c.gapInputs, &st.InputsPastGap},
		{&c.badDatagrams, &st.DatagramsBad}, {&c.droppedDatagrams, &st.DatagramsDropped},
	}
	for i, n := range counts {
		n.live.Store(uint64(100 + i))
	}
	c.players.Store(7)
	c.rejectsByCode.addN("busy", 2)
	c.dropsByReason.addN("timeout", 3)
	c.inputsRefused.add("duration")
	c.pushesRefused.add("too_long")
	c.shotsRefused.add("cooldown")
	c.tickDuration.observe(time.Millisecond)
	*st = c.snapshot()
	for i, n := range counts {
		if *n.shown != uint64(100+i) {
			t.Errorf("count %d shows as %d, want %d", i, *n.shown, 100+i)
		}
	}
	for _, tt := range []struct {
		name string
		got  map[string]uint64
		want map[string]uint64
	}{
		{"RejectsByCode", st.RejectsByCode, map[string]uint64{"busy": 2}},
		{"DropsByReason", st.DropsByReason, map[string]uint64{"timeout": 3}},
		{"InputsRefused", st.InputsRefused, map[string]uint64{"duration": 1}},
		{"PushesRefused", st.PushesRefused, map[string]uint64{"too_long": 1}},
		{"ShotsRefused", st.ShotsRefused, map[string]uint64{"cooldown": 1}},
	} {
		if !maps.Equal(tt.got, tt.want) {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if st.Players != 7 || st.Rejects != 2 || st.Drops != 3 || st.TickDuration.Count != 1 {
		t.Errorf("Players %d, Rejects %d, Drops %d, ticks timed %d; want 7, 2, 3 and 1", st.Players, st.Rejects, st.Drops, st.TickDuration.Count)
	}
}

// bufferStats.snapshot reads every figure of the room's input buffer.
func TestBufferStats_SnapshotReadsEveryFigure(t *testing.T) {
	b := newBufferStats()
	b.PlayerTick(true, 0, 0)
	b.PlayerTick(false, 2, 3)
	b.PlayerTick(false, 1, 0)
	b.InputWait(5 * time.Millisecond)
	in := b.snapshot()
	if in.PlayerTicks != 3 || in.Starved != 1 || in.Doubled != 1 || in.Depth.Count != 3 || in.Depth.Sum != 3 || in.Wait.Count != 1 {
		t.Errorf("snapshot %+v, want 3 player-ticks, 1 starved, 1 doubled, depths 0+3+0 and one wait", in)
	}
	if got := in.Wait.Sum; got < 0.004999 || got > 0.005001 {
		t.Errorf("wait sum %v s, want 0.005", got)
	}
}

func TestTickHistogram_Seconds(t *testing.T) {
	h := TickHistogram{UpperBounds: []time.Duration{time.Millisecond, 50 * time.Millisecond}, Counts: []uint64{3, 1}, Count: 5, Sum: 1500 * time.Millisecond}
	got := h.Seconds()
	want := Histogram{UpperBounds: []float64{0.001, 0.05}, Counts: []uint64{3, 1}, Count: 5, Sum: 1.5}
	if !slices.Equal(got.UpperBounds, want.UpperBounds) || !slices.Equal(got.Counts, want.Counts) || got.Count != want.Count || got.Sum != want.Sum {
		t.Errorf("Seconds() = %+v, want %+v", got, want)
	}
}

// TestDropReason_DisconnectSaysWhatTheOthersHear: a drop's Disconnect carries the very text
// the other players' PlayerLeft does (PROTOCOL.md §9), also for a detail that came from an
// error and holds a no-break space (as protobuf's parse errors do in some builds), a newline,
// or more than a reason's 200 bytes.
func TestDropReason_DisconnectSaysWhatTheOthersHear(t *testing.T) {
	for _, detail := range []string{
		"transport: bad frame: proto:\u00a0cannot parse invalid wire-format data",
		"two\nlines\tand  spaces",
		strings.Repeat("long ", 60),
	} {
		d := dropProtocol.reason(detail).disconnect()
		if others := cleanText(d.Reason, maxReasonBytes); d.Reason != others || !strings.HasPrefix(d.Reason, "protocol error: ") {
			t.Errorf("detail %q: the Disconnect says %q, the others hear %q; want the same words, starting protocol error: ", detail, d.Reason, others)
		}
	}
}
