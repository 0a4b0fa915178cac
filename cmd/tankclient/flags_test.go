package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/discovery"
	"tanknet/linksim"
	"tanknet/netcode"
)

// parse runs parseFlags on a fresh flag set that reports errors instead of exiting.
func parse(args ...string) (Config, error) {
	fs := flag.NewFlagSet("tankclient", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return parseFlags(fs, args)
}

func TestParseFlags_Defaults(t *testing.T) {
	cfg, err := parse()
	if err != nil {
		t.Fatal(err)
	}
	def := DefaultConfig()
	if cfg.Server != def.Server || cfg.Width != def.Width || cfg.Height != def.Height || cfg.Demo || cfg.Bots != def.Bots ||
		cfg.Techniques != def.Techniques || cfg.Net != "none" || cfg.Conditions != (linksim.Conditions{}) || cfg.FrameReport != 0 {
		t.Errorf("parseFlags() = %+v, want the defaults", cfg)
	}
}

func TestParseFlags_EveryFlag(t *testing.T) {
	cfg, err := parse("-server", "127.0.0.1:9", "-name", "ada", "-timeout", "2s", "-net", "mobile-3g", "-interp", "adaptive",
		"-interp-delay", "150ms", "-prediction=false", "-interpolation=false", "-demo", "-bots", "3", "-bot-skill", "easy",
		"-far-net", "wifi-bad", "-pos", "10,20", "-screenshot", "a.png", "-frames", "30", "-gif", "a.gif", "-frame-report", "60",
		"-screenshot-when", "hit", "-gunner", "-scores", "-tour", "-tour-advance", "5", "-cpuprofile", "cpu.out", "-record", "m.tnrec",
		"-tour-scene", "6", "-slow", "4", "-screenshot-details")
	if err != nil {
		t.Fatal(err)
	}
	easy, _ := client.SkillFor("easy")
	far, _ := linksim.Preset("wifi-bad")
	near, _ := linksim.Preset("mobile-3g")
	checks := []struct {
		name string
		ok   bool
	}{
		{"-server", cfg.Server == "127.0.0.1:9"}, {"-name", cfg.Name == "ada"}, {"-timeout", cfg.DialTimeout.String() == "2s"},
		{"-net", cfg.Net == "mobile-3g" && cfg.Conditions == near}, {"-interp", cfg.Game.Interp.Timeline == netcode.ServerTimeline},
		{"-interp-delay", cfg.Game.Interp.Delay.String() == "150ms"},
		{"-prediction=false keeps the reconciliation switch", !cfg.Techniques.Prediction && cfg.Techniques.Reconciliation},
		{"-interpolation", !cfg.Techniques.Interpolation}, {"-demo", cfg.Demo},
		{"-demo sizes the window", cfg.Width == demoWidth && cfg.Height == demoHeight},
		{"-bots", cfg.Bots == 3}, {"-bot-skill", cfg.BotSkill == easy}, {"-far-net", cfg.FarNet == "wifi-bad" && cfg.FarConditions == far},
		{"-pos", cfg.Position != nil && cfg.Position.X == 10 && cfg.Position.Y == 20},
		{"-screenshot -frames -gif", cfg.Screenshot == "a.png" && cfg.Frames == 30 && cfg.GIF == "a.gif"},
		{"-frame-report", cfg.FrameReport == 60}, {"-screenshot-when", cfg.ScreenshotWhen == "hit"},
		{"-gunner -scores", cfg.Gunner && cfg.Scores}, {"-tour -tour-advance", cfg.Tour && cfg.TourAdvance == 5},
		{"-cpuprofile", cfg.CPUProfile == "cpu.out"}, {"-record", cfg.Record == "m.tnrec"},
		{"-tour-scene", cfg.TourScene == 6 && cfg.renderOptions(nil).Tour}, {"-slow", cfg.Slow == 4},
		{"-screenshot-details", cfg.ScreenshotDetails},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: not in the Config %+v", c.name, cfg)
		}
	}
	if cfg, err := parse("-replay", "m.tnrec", "-replay-at", "30s"); err != nil || cfg.Replay != "m.tnrec" || cfg.ReplayAt != 30*time.Second {
		t.Errorf("-replay m.tnrec -replay-at 30s: %q %v (%v)", cfg.Replay, cfg.ReplayAt, err)
	}
	if cfg, err := parse("-server", "127.0.0.1:7777", "-room", "blue"); err != nil || cfg.Room != "blue" || !strings.HasSuffix(cfg.renderOptions(nil).Title, " / blue") {
		t.Errorf("-room blue: %q, title %q (%v); want the room in the Config and the window's title", cfg.Room, cfg.renderOptions(nil).Title, err)
	}
	if cfg, err := parse("-demo", "-width", "800"); err != nil || cfg.Width != 800 || cfg.Height != demoHeight {
		t.Errorf("-demo -width 800: %dx%d (%v), want 800x%d", cfg.Width, cfg.Height, err, demoHeight)
	}
}

func TestParseFlags_Refuses(t *testing.T) {
	for _, args := range [][]string{
		{"-bogus"}, {"-net", "dialup"}, {"-demo", "-far-net", "dialup"}, {"-bot-skill", "godlike"}, {"-bots", "99"},
		{"-pos", "10"}, {"-interp", "sometimes"}, {"-width", "100"}, {"-frame-report", "-1"}, {"-screenshot-when", "never", "-screenshot", "a.png"},
		{"-replay-at", "5s"}, {"-replay", "m.tnrec", "-replay-at", "-1s"}, {"-replay", "m.tnrec", "-demo"}, {"-replay", "m.tnrec", "-record", "n.tnrec"},
		{"-demo", "-room", "blue"}, {"-replay", "m.tnrec", "-room", "blue"},
		{"-slow", "4"}, {"-demo", "-slow", "3"}, {"-demo", "-tour-scene", "-1"}, {"-demo", "-tour-scene", "11"},
		{"-server", "127.0.0.1:7777", "-screenshot-when", "hit"}, // a moment is waited for before a screenshot
		// The lobby chooses the server and room, and plays one match after another.
		{"-room", "blue"}, {"-record", "m.tnrec"}, {"-frame-report", "60"}, {"-tour-advance", "5"},
		{"-server", "127.0.0.1:7777", "-discover-to", "127.0.0.1"}, {"-demo", "-discover-ports", "47770"},
		{"-discover-to", "lan"}, {"-discover-ports", "0"}, {"-discover-ports", "70000"},
		{"-server", "127.0.0.1:7777", "-room", "a b"}, {"-server", "127.0.0.1:7777", "-room", strings.Repeat("r", 33)},
	} {
		if _, err := parse(args...); err == nil {
			t.Errorf("parseFlags(%q) = nil error, want it refused", args)
		}
	}
}

// TestParseFlags_Lobby: without -server (and -demo, -replay) tankclient opens the lobby,
// asking where -discover-to and -discover-ports say; -server keeps today's direct start.
func TestParseFlags_Lobby(t *testing.T) {
	cases := []struct {
		args  []string
		lobby bool
	}{
		{nil, true}, {[]string{"-name", "ada", "-net", "mobile-3g"}, true}, {[]string{"-server", "127.0.0.1:7777"}, false},
		{[]string{"-demo"}, false}, {[]string{"-replay", "m.tnrec"}, false},
	}
	for _, c := range cases {
		if cfg, err := parse(c.args...); err != nil || cfg.Lobby != c.lobby {
			t.Errorf("parseFlags(%q): lobby %v (%v), want %v", c.args, cfg.Lobby, err, c.lobby)
		}
	}
	cfg, err := parse("-discover-to", "127.0.0.1, 10.0.0.255", "-discover-ports", "40001,40002")
	if err != nil {
		t.Fatal(err)
	}
	d := cfg.Discovery
	if fmt.Sprint(d.Targets) != "[127.0.0.1 10.0.0.255]" || fmt.Sprint(d.Ports) != "[40001 40002]" || d.Refresh != discovery.DefaultBrowseConfig().Refresh {
		t.Errorf("-discover-to -discover-ports: %+v, want two targets, two ports and the default refresh", d)
	}
}

// The refusals say what a flag needs, and what is accepted.
func TestParseFlags_RefusalsSayWhy(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-record", "m.tnrec"}, "-record needs -server (or -demo)"},
		{[]string{"-room", "blue"}, "-room needs -server:"},
		{[]string{"-demo", "-tour-scene", "11"}, "tour scene 11: want 1 to 10"},
		{[]string{"-demo", "-tour-scene", "-1"}, "tour scene -1: want 1 to 10"},
		{[]string{"-server", "127.0.0.1:7777", "-screenshot-when", "hit"}, "set the screenshot too"},
	} {
		if _, err := parse(tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseFlags(%q) = %v, want an error saying %q", tc.args, err, tc.want)
		}
	}
	if _, err := parse("-demo", "-tour-scene", "10"); err != nil {
		t.Errorf("the last scene: %v", err)
	}
}
