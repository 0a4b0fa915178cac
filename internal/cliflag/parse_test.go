package cliflag

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
	"time"

	"tanknet/netcode"
)

func newFlags(out *bytes.Buffer) *flag.FlagSet {
	fs := flag.NewFlagSet("/usr/local/bin/tanksim", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Duration("latency", 0, "one-way `delay`")
	fs.Int("bots", 8, "number of bots")
	fs.Bool("v", false, "verbose")
	return fs
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, args, err string
		usage           bool
	}{
		{"good", "-latency 50ms -bots 3", "", false},
		{"a bare number for a duration", "-latency 50", "-latency 50: a duration needs a unit, e.g. 50ms or 50s (ns, us, ms, s, m, h)", false},
		{"a fraction for a duration", "-latency=0.5", "-latency 0.5: a duration needs a unit, e.g. 0.5ms or 0.5s", false},
		{"not a duration at all", "-latency soon", "-latency soon: not a duration; write one like 50ms", false},
		{"another flag's bad value", "-bots many", `invalid value "many" for flag -bots: parse error (tanksim -h lists every flag)`, false},
		{"an unknown flag", "-bot 3", "flag provided but not defined: -bot (tanksim -h lists every flag)", false},
		{"help", "-h", "flag: help requested", true},
		{"a word that is no flag", "-bots 3 extra", `unexpected argument "extra": tanksim takes flags only`, false},
		{"the value of a boolean flag after a space", "-v server", `unexpected argument "server"`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := Parse(newFlags(&out), strings.Fields(tc.args))
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("Parse(%s) = %v, want nil", tc.args, err)
			case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
				t.Fatalf("Parse(%s) = %v, want an error starting %q", tc.args, err, tc.err)
			}
			if printed := strings.Contains(out.String(), "number of bots"); printed != tc.usage {
				t.Errorf("Parse(%s) printed the usage: %v, want %v\n%s", tc.args, printed, tc.usage, out.String())
			}
			if tc.usage && !errors.Is(err, flag.ErrHelp) {
				t.Errorf("Parse(-h) = %v, want flag.ErrHelp", err)
			}
		})
	}
	var out bytes.Buffer
	fs := newFlags(&out)
	if err := Parse(fs, []string{"-latency", "80ms"}); err != nil || fs.Lookup("latency").Value.(flag.Getter).Get() != 80*time.Millisecond {
		t.Errorf("-latency 80ms: %v, %v", err, fs.Lookup("latency").Value)
	}
}

func TestContactVar(t *testing.T) {
	for args, want := range map[string]netcode.ContactMode{"": netcode.ContactPredicted, "-contact server": netcode.ContactServer,
		"-contact=off": netcode.ContactOff, "-contact=false": netcode.ContactOff, "-contact predicted": netcode.ContactPredicted} {
		var out bytes.Buffer
		fs := newFlags(&out)
		mode := netcode.ContactPredicted
		ContactVar(fs, &mode, "contact")
		if err := Parse(fs, strings.Fields(args)); err != nil || mode != want {
			t.Errorf("Parse(%q) = %v, mode %v; want %v", args, err, mode, want)
		}
	}
	var out bytes.Buffer
	fs := newFlags(&out)
	mode := netcode.ContactPredicted
	ContactVar(fs, &mode, "contact")
	if err := Parse(fs, []string{"-contact", "sometimes"}); err == nil || !strings.Contains(err.Error(), "not one of predicted, server and off") {
		t.Errorf("Parse(-contact sometimes) = %v, want the modes named", err)
	}
}
