package recording

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/proto"

	"tanknet/client"
	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/server"
)

var update = flag.Bool("update", false, "record a new testdata/golden.rec from a live match")

const goldenPath = "testdata/golden.rec"

// recordMatch runs a real server on loopback with bots playing it until `ticks` ticks have
// applied an input of every bot and, with shots > 0, the server has accepted that many of
// the bots' shots, some with lag compensation and some without (the bots are then gunners,
// every other one asking for it), at most a minute for a loaded machine, and returns its
// recording, with a keyframe every `every` ticks.
func recordMatch(t *testing.T, bots, ticks, shots int, every uint32) []byte {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.Addr, cfg.Rules.Contact = "127.0.0.1:0", netcode.ContactServer
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rec := NewRecorder(&buf, cfg, every, cfg.Logger)
	var full, lagged, plain atomic.Int32 // ticks in which every bot's input was applied; shots accepted
	srv.Observe(func(r server.TickRecord) {
		rec.Tick(r)
		if len(r.Applied) >= bots {
			full.Add(1)
		}
		for _, s := range r.Shots {
			switch {
			case s.Result.Verdict == netcode.VerdictRefused:
			case s.Result.LagCompensated:
				lagged.Add(1)
			default:
				plain.Add(1)
			}
		}
	})
	shotsDue := func() bool {
		return shots > 0 && (int(lagged.Load()+plain.Load()) < shots || lagged.Load() == 0 || plain.Load() == 0)
	}
	pc, err := net.ListenPacket("udp", cfg.Addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, pc) }()
	botCtx, stopBots := context.WithTimeout(ctx, time.Minute)
	var wg sync.WaitGroup
	for i := range bots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client.RunBot(botCtx, client.BotConfig{Addr: pc.LocalAddr().String(), Name: fmt.Sprint("bot", i),
				Seed: uint64(i + 1), Options: client.DefaultOptions(), DialTimeout: 10 * time.Second,
				Fire: shots > 0, LagComp: i%2 == 0})
		}()
	}
	for (int(full.Load()) < ticks || shotsDue()) && botCtx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	stopBots()
	wg.Wait()
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A live match with bots, contact on, recorded and re-simulated: exact at every keyframe.
func TestLiveMatchVerifiesExact(t *testing.T) {
	data := recordMatch(t, 3, 30, 0, 5)
	rep, err := Verify(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Exact() {
		t.Fatalf("re-simulation %s", rep)
	}
	if rep.Keyframes < 5 || rep.Ticks < 20 || rep.Moves < 20 {
		t.Fatalf("only %d ticks, %d keyframes and %d inputs compared", rep.Ticks, rep.Keyframes, rep.Moves)
	}
	t.Logf("%d bytes, %d ticks, %d keyframes, %d shots judged again: exact", len(data), rep.Ticks, rep.Keyframes, rep.Shots)
}

// A live match of gunner bots over real KCP, some shots lag-compensated and some not: the
// recording keeps every shot the server judged, and Verify judges each again to the same
// verdict, target, damage and end point, and the same health at every keyframe.
func TestLiveMatch_ShotsJudgedAgainExact(t *testing.T) {
	data := recordMatch(t, 3, 30, 6, 10)
	rep, err := Verify(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Exact() {
		t.Fatalf("re-simulation %s", rep)
	}
	verdicts, _ := shotsIn(t, data)
	accepted := verdicts[tankv1.ShotVerdict_SHOT_VERDICT_HIT] + verdicts[tankv1.ShotVerdict_SHOT_VERDICT_MISS]
	if accepted < 6 || rep.Shots != accepted {
		t.Fatalf("recorded %v; %d judged again, want every hit and miss, at least 6", verdicts, rep.Shots)
	}
	kinds := map[bool]int{} // accepted shots by whether they asked for lag compensation
	rd, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for m, err := rd.Next(); err == nil; m, err = rd.Next() {
		for _, s := range m.GetTick().GetShots() {
			if s.GetResult().GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_REFUSED {
				kinds[s.GetFire().GetLagCompensation()]++
			}
		}
	}
	if kinds[true] == 0 || kinds[false] == 0 {
		t.Fatalf("accepted shots with lag compensation: %d, without: %d; want both kinds judged again", kinds[true], kinds[false])
	}
	t.Logf("%d ticks, shots %v: exact", rep.Ticks, verdicts)
}

// The golden recording re-simulates exactly with the current code; a change to the
// simulation fails here naming the first tick, player and field that differ. Re-record it
// (only after a deliberate change to the simulation) with
//
//	go test ./server/recording -run TestGolden -update
func TestGolden(t *testing.T) {
	if *update {
		data := recordMatch(t, 4, 70, 0, 10)
		if err := os.WriteFile(goldenPath, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d bytes", goldenPath, len(data))
	}
	f, err := os.Open(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := Verify(f)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Exact() {
		t.Fatalf("the simulation no longer reproduces %s: it %s", goldenPath, rep)
	}
	if rep.Keyframes < 5 || rep.Moves < 100 {
		t.Fatalf("only %d keyframes and %d inputs compared", rep.Keyframes, rep.Moves)
	}
}

// TestGolden_AChangedStepIsFoundWhereItFirstShows: the golden recording re-simulated with
// tanks 5% faster (its header's arena speed changed, as a changed speed constant would) is
// found to differ at the first tick where a tank moved under power, and a keyframe names a
// player and a pose field: what TestGolden reports when the simulation changes.
func TestGolden_AChangedStepIsFoundWhereItFirstShows(t *testing.T) {
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	hr, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	faster := proto.Clone(hr.Header).(*tankv1.RecordingHeader)
	faster.Arena.Speed *= 1.05
	var buf bytes.Buffer
	if _, err := protodelim.MarshalTo(&buf, &tankv1.Record{Kind: &tankv1.Record_Header{Header: faster}}); err != nil {
		t.Fatal(err)
	}
	buf.Write(data[hr.Offset():])
	rep, err := Verify(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	// Where it must show: the first tick that moved a tank (an input with throttle).
	rd, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want := uint32(0)
	for want == 0 {
		m, err := rd.Next()
		if err != nil {
			t.Fatalf("no input with throttle in %s: %v", goldenPath, err)
		}
		for _, mv := range m.GetTick().GetMoves() {
			if mv.GetThrottle() != 0 {
				want = m.GetTick().GetTick()
			}
		}
	}
	if rep.Exact() || rep.FirstTick != want || rep.First == nil || !strings.HasPrefix(rep.First.Field, "pose.") {
		t.Errorf("tanks 5%% faster: %s; want it found at tick %d, with a keyframe naming a pose field", rep, want)
	}
}
