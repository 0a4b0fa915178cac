package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/sim"
)

func parse(t *testing.T, args ...string) (sim.Config, bool, error) {
	t.Helper()
	fs := flag.NewFlagSet("tanksim", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return parseFlags(fs, args)
}

func TestParseFlagsDefaultsAreSimDefaults(t *testing.T) {
	cfg, asJSON, err := parse(t)
	if err != nil {
		t.Fatal(err)
	}
	if want := sim.DefaultConfig(); !reflect.DeepEqual(cfg, want) || asJSON {
		t.Errorf("no flags = %+v json %v, want sim.DefaultConfig() %+v and text", cfg, asJSON, want)
	}
}

func TestParseFlagsMapEveryFlag(t *testing.T) {
	cfg, asJSON, err := parse(t, "-server", "127.0.0.1:7777", "-bots", "3", "-duration", "2s", "-seed", "9",
		"-contact=false", "-net", "custom", "-interp", "adaptive", "-json", "-plot", "out", "-record", "recs", "-matrix",
		"-latency", "80ms", "-jitter", "5ms", "-loss", "0.02", "-dup", "0.01", "-reorder", "0",
		"-arena", "large", "-bot-fps", "20", "-server-metrics", "127.0.0.1:9100",
		"-lane", "reliable", "-fire", "-lagcomp=false", "-no-partial-step")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Server != "127.0.0.1:7777" || cfg.Bots != 3 || cfg.Duration != 2*time.Second || cfg.Seed != 9 || cfg.Contact != netcode.ContactOff ||
		cfg.Net != "custom" || cfg.Interp != "adaptive" || !asJSON || cfg.PlotDir != "out" || cfg.RecordDir != "recs" || !cfg.Matrix ||
		cfg.Arena != "large" || cfg.BotFPS != 20 || cfg.ServerMetrics != "127.0.0.1:9100" ||
		cfg.Lane != "reliable" || !cfg.Fire || cfg.LagComp || !cfg.NoPartialStep {
		t.Errorf("flags = %+v json %v, want every flag applied", cfg, asJSON)
	}
	l := cfg.Link.Both
	if l.Latency == nil || *l.Latency != 80*time.Millisecond || l.Jitter == nil || *l.Jitter != 5*time.Millisecond ||
		l.Loss == nil || *l.Loss != 0.02 || l.Duplicate == nil || *l.Duplicate != 0.01 || l.Reorder == nil || *l.Reorder != 0 {
		t.Errorf("link overrides = %+v, want all five set (reorder to an explicit 0)", l)
	}
}

// TestParseFlagsMatrixRunsBothBufferModesUnlessToldOne checks -matrix's default for
// -input-buffer, and that an explicit mode wins.
func TestParseFlagsMatrixRunsBothBufferModesUnlessToldOne(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-matrix"}, "both"},
		{[]string{"-matrix", "-input-buffer", "on"}, "on"},
		{[]string{"-matrix", "-input-buffer", "off"}, "off"},
		{nil, "on"},
	} {
		cfg, _, err := parse(t, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.InputBuffer != c.want {
			t.Errorf("%v: input buffer %q, want %q", c.args, cfg.InputBuffer, c.want)
		}
	}
}

func TestParseFlagsRejectsUnknownFlag(t *testing.T) {
	if _, _, err := parse(t, "-lanes", "2"); err == nil {
		t.Error("an unknown flag parsed without error")
	}
}

// TestRunPrintsTextOrJSON checks the printing path with a matrix interrupted before it
// starts, which measures nothing and takes no time.
func TestRunPrintsTextOrJSON(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg, _, err := parse(t, "-matrix")
	if err != nil {
		t.Fatal(err)
	}
	var text, js bytes.Buffer
	if err := run(ctx, cfg, false, &text, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "note: interrupted before run 1 of") {
		t.Errorf("text output %q, want the matrix table's note", text.String())
	}
	if err := run(ctx, cfg, true, &js, io.Discard); err != nil {
		t.Fatal(err)
	}
	var m sim.MatrixReport
	if err := json.Unmarshal(js.Bytes(), &m); err != nil || len(m.Notes) != 1 {
		t.Errorf("JSON output %q: %v, want a MatrixReport with one note", js.String(), err)
	}
	cfg.Bots = 0
	if err := run(ctx, cfg, false, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "-bots 0") {
		t.Errorf("run with -bots 0 = %v, want the validation error", err)
	}
}

func TestParseFlagsGroups(t *testing.T) {
	cfg, _, err := parse(t, "-group", "3:wifi-bad", "-group", "2:up=mobile-3g,down=lan", "-latency-up", "40ms")
	if err != nil {
		t.Fatal(err)
	}
	want := []sim.Group{{Bots: 3, Net: "wifi-bad"}, {Bots: 2, Net: "up=mobile-3g,down=lan"}}
	if !reflect.DeepEqual(cfg.Groups, want) || cfg.Bots != 5 {
		t.Errorf("groups = %v with %d bots, want %v with their sum, 5", cfg.Groups, cfg.Bots, want)
	}
	if l := cfg.Link.Up.Latency; l == nil || *l != 40*time.Millisecond || cfg.Link.Both.Any() || cfg.Link.Down.Any() {
		t.Errorf("link overrides = %+v, want only the up-link's latency", cfg.Link)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate() = %v, want nil", err)
	}
	for _, bad := range [][]string{{"-group", "x:lan"}, {"-group", "0:lan"}, {"-group", "2"}, {"-group", "2:dialup"}, {"-group", "2:up=lan,sideways=lan"}} {
		if _, _, err := parse(t, bad...); err == nil {
			t.Errorf("%v parsed without error", bad)
		}
	}
	if _, _, err = parse(t, "-bots", "4", "-group", "3:lan"); err == nil || !strings.Contains(err.Error(), "groups hold 3 bots") {
		t.Errorf("-bots 4 with a group of 3: %v, want the mismatch named", err)
	}
}

// TestParseFlagsRefusesValuesOutOfRange: a value that parses but that tanksim cannot run with
// is refused with the flags, in tanksim's words (main exits 2 on it, as on a flag that does
// not parse), before any run begins.
func TestParseFlagsRefusesValuesOutOfRange(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-bots", "0"}, "-bots 0 outside [1, 256]"},
		{[]string{"-net", "3g"}, `unknown network preset "3g"`},
		{[]string{"-interp", "sideways"}, "-interp"},
		{[]string{"-input-buffer", "both"}, "needs -matrix"},
	} {
		if _, _, err := parse(t, tt.args...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want an error naming %q", tt.args, err, tt.want)
		}
	}
	if _, _, err := parse(t, "-discover", "-bots", "0"); err != nil {
		t.Errorf("-discover with -bots 0: %v, want no check of a run that does not happen", err)
	}
}
