package load

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"tanknet/netcode"
	"tanknet/transport"
)

// Report is what a load run saw, from the clients' side. Durations are in the JSON as
// nanoseconds; the text form rounds them.
type Report struct {
	Players, Rooms, Drivers int
	Joined, JoinFailed      int
	FirstJoinError          string `json:",omitempty"`
	// JoinBurst is how long every handshake took together; JoinP50, JoinP99 and JoinMax
	// are one client's handshake, dial to Welcome.
	JoinBurst, JoinP50, JoinP99, JoinMax time.Duration

	// Wall and CPU are the play's length and this process's CPU time over it (every
	// client, and an in-process server if there is one); CoresPerClient is CPU/Wall per
	// client joined.
	Wall, CPU      time.Duration
	CoresPerClient float64

	// InputsSent counts MoveInputs; InputsUnapplied those the server had not acknowledged a
	// second after the play ended, and AckBackwards the states whose acknowledged move tick
	// went back (both 0 when every input is applied once, in order).
	InputsSent, InputsUnapplied, AckBackwards uint64
	// InputP50..InputMax: from each input's intended send time to the arrival of the first
	// snapshot that acknowledges it (one round trip, the server's buffer and a tick).
	InputP50, InputP90, InputP99, InputP999, InputMax time.Duration
	// RTTP50, RTTP99: a ping's intended send time to its pong.
	RTTP50, RTTP99 time.Duration
	// SnapshotTicks counts ticks whose snapshot came whole, summed over clients;
	// SnapshotTicksMissing those, between each client's first and newest, that did not.
	SnapshotTicks, SnapshotTicksMissing uint64
	// BadDatagrams counts datagrams that were no acceptable snapshot chunk
	// (wire.ScanChunk); InboxDropped the chunks and pongs dropped because a client's driver
	// fell 4 s behind (both 0 in a healthy run).
	BadDatagrams, InboxDropped uint64
	// Traffic is what the clients' sockets sent and received during the play (UDP payloads,
	// every datagram kcp-go writes or reads: stream segments, FEC parity, acknowledgements,
	// datagrams), summed over clients.
	Traffic Traffic
	// Dropped counts sessions that ended during the run; FirstDrop says why the first did.
	Dropped   int
	FirstDrop string `json:",omitempty"`
}

// Traffic is datagrams and UDP payload bytes each way.
type Traffic transport.Traffic

// minus returns t less an earlier count.
func (t Traffic) minus(u Traffic) Traffic {
	return Traffic{BytesIn: t.BytesIn - u.BytesIn, BytesOut: t.BytesOut - u.BytesOut,
		DatagramsIn: t.DatagramsIn - u.DatagramsIn, DatagramsOut: t.DatagramsOut - u.DatagramsOut}
}

// take fills in what the meters and clients measured.
func (r *Report) take(meters []*meter, clients []*thin) {
	var in, rtt Histogram
	for _, m := range meters {
		in.Merge(&m.input)
		rtt.Merge(&m.rtt)
		r.InputsSent += m.inputs
	}
	r.InputP50, r.InputP90, r.InputP99 = in.Quantile(0.5), in.Quantile(0.9), in.Quantile(0.99)
	r.InputP999, r.InputMax = in.Quantile(0.999), in.Max()
	r.RTTP50, r.RTTP99 = rtt.Quantile(0.5), rtt.Quantile(0.99)
	for _, c := range clients {
		r.InputsUnapplied += uint64(c.unapplied())
		r.AckBackwards += c.ackBackwards
		r.SnapshotTicks += c.arrivals.complete
		r.SnapshotTicksMissing += c.arrivals.missing()
		r.BadDatagrams += c.bad.Load()
		r.InboxDropped += c.dropped.Load()
		if c.err != nil {
			r.Dropped++
			if r.FirstDrop == "" {
				r.FirstDrop = c.err.Error()
			}
		}
	}
	if r.Wall > 0 && r.Joined > 0 {
		r.CoresPerClient = r.CPU.Seconds() / r.Wall.Seconds() / float64(r.Joined)
	}
}

// WriteJSON writes r as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes r for people, a few lines.
func (r *Report) WriteText(w io.Writer) error {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
	ticks := float64(r.Joined) * r.Wall.Seconds() / netcode.StepInterval.Seconds() // client ticks played
	perTick := func(n uint64) float64 { return float64(n) / max(ticks, 1) }
	mean := func(bytes, n uint64) float64 { return float64(bytes) / float64(max(n, 1)) }
	_, err := fmt.Fprintf(w, `players %d in %d rooms: %d joined, %d failed; burst %v, handshake p50 %s p99 %s max %s
play %v: process CPU %.2f cores, %.5f cores per client (%d drivers)
inputs %d sent, %d unapplied, %d acknowledgements backwards
input latency from intended send: p50 %s p90 %s p99 %s p99.9 %s max %s; ping round trip p50 %s p99 %s
snapshots: %d ticks whole, %d missing, %d bad datagrams, %d dropped behind; %d sessions dropped %s
datagrams per client tick: %.2f sent (%.0f bytes each), %.2f received (%.0f bytes each)
`,
		r.Players, r.Rooms, r.Joined, r.JoinFailed, r.JoinBurst.Round(time.Millisecond), ms(r.JoinP50), ms(r.JoinP99), ms(r.JoinMax),
		r.Wall.Round(time.Millisecond), r.CPU.Seconds()/max(r.Wall.Seconds(), 1e-9), r.CoresPerClient, r.Drivers,
		r.InputsSent, r.InputsUnapplied, r.AckBackwards,
		ms(r.InputP50), ms(r.InputP90), ms(r.InputP99), ms(r.InputP999), ms(r.InputMax), ms(r.RTTP50), ms(r.RTTP99),
		r.SnapshotTicks, r.SnapshotTicksMissing, r.BadDatagrams, r.InboxDropped, r.Dropped, r.FirstDrop,
		perTick(r.Traffic.DatagramsOut), mean(r.Traffic.BytesOut, r.Traffic.DatagramsOut),
		perTick(r.Traffic.DatagramsIn), mean(r.Traffic.BytesIn, r.Traffic.DatagramsIn))
	return err
}
