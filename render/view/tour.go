package view

import "tanknet/netcode"

// A Scene is one step of the guided tour (tankclient -tour, or O in the demo): the switches
// and networks it sets, and what to look at where. The tour waits on each scene until the
// user goes on (. next, , back).
type Scene struct {
	Title string
	// Techniques and LagComp are set on both client panes.
	Techniques Techniques
	LagComp    bool
	// NearNet and FarNet name the network presets of the near and far player.
	NearNet, FarNet string
	// Caption says what to look at, and in which pane of the demo, a line each; Solo says it
	// for a single window (which has the far player's network).
	Caption, Solo []string
	// InputOnArrival has the server apply the far player's inputs (a single window's own) as
	// they arrive instead of one a tick from its input buffer; the near player keeps the
	// buffer. Every scene sets it, so going back and on restores each scene as it was.
	InputOnArrival bool
	// Requires names a feature the scene needs ("" for none); a window without it skips
	// the scene (see Tour).
	Requires string

	// What the demo does by itself in the scene, so its lesson shows without skill (a
	// single window does none of it):
	//
	// NearDrive and FarDrive, when not zero, drive that player (a circle at constant speed)
	// while none of its keys is held.
	NearDrive, FarDrive netcode.Input
	// Gunner has the far player's gun aim at the near player as the far pane draws it and
	// fire whenever a shot would hit that drawing; lag compensation flips every
	// GunnerFlipEvery judged shots (L flips it at once), and the server pane tallies hits
	// and misses with it on and off.
	Gunner bool
	// Trail draws the far player's newest server positions in the server pane, a dot a
	// tick, with the share of its moving ticks that moved unevenly (TickTrail).
	Trail bool
	// Slow, if more than 1, runs the demo that many times slower during the scene (one of
	// SlowFactors), so each 50 ms tick can be seen.
	Slow int
	// Contact, when not ContactUnspecified, switches the demo's room to that contact mode
	// for the scene (the C key's switch). Ram drives the near and far tanks at each other
	// while their keys are idle, and the server pane counts, for both players, the pushes
	// they predicted and the corrections and snaps of their tanks (ContactTally).
	Contact netcode.ContactMode
	Ram     bool
}

// GunnerFlipEvery is how many judged shots the tour's gunner fires before lag compensation
// flips.
const GunnerFlipEvery = 4

// Scripted drives: full throttle on a steady turn, a circle of about 5.7 (Circle) and 4
// (TightCircle) world units' radius in the default arena, at the tank's full speed.
var (
	Circle      = netcode.Input{Throttle: 1, Turn: 0.35}
	TightCircle = netcode.Input{Throttle: 1, Turn: 0.5}
)

// FeatureInputBuffer is the server input buffer and its per-client switch: the tour's input
// buffer scene needs a window that can show and switch it.
const FeatureInputBuffer = "input buffer"

// FeatureContact is switching the room's contact mode: the contact scenes need a window
// with a server of its own (the demo).
const FeatureContact = "contact switch"

// TourScenes are the tour's scenes, in order: each adds or shows one technique.
var TourScenes = []Scene{
	{
		Title: "No prediction", Techniques: Techniques{Interpolation: true}, LagComp: true,
		NearNet: "none", FarNet: "mobile-3g",
		Caption: []string{
			"Drive the far player (arrows): its tank moves only when the server",
			"says so, a round trip after your key. Left pane (perfect link): at once.",
		},
		Solo: []string{"Drive: your tank moves only when the server says so,", "a round trip after your key."},
	},
	{
		Title: "Prediction", Techniques: Techniques{Prediction: true, Interpolation: true}, LagComp: true,
		NearNet: "none", FarNet: "mobile-3g", FarDrive: Circle,
		Caption: []string{
			"The far player circles by itself (the arrows take over). Its client now predicts",
			"with the same Step the server runs, so it moves at once; without reconciliation",
			"it snaps back on every snapshot.",
		},
		Solo: []string{"Your tank moves at once (prediction), then snaps back", "on every snapshot: nothing replays the inputs in flight."},
	},
	{
		Title: "Reconciliation", Techniques: AllOn(), LagComp: true,
		NearNet: "none", FarNet: "mobile-3g", FarDrive: Circle,
		Caption: []string{
			"Each snapshot now replays the inputs still in flight (blue, bottom row of",
			"the strip): the far tank stays where you drove it. Compare with the middle.",
		},
		Solo: []string{"Each snapshot now replays the inputs still in flight (blue,", "bottom row of the strip): the tank stays where you drove it."},
	},
	{
		Title: "Interpolation off, then on", Techniques: Techniques{Prediction: true, Reconciliation: true}, LagComp: true,
		NearNet: "none", FarNet: "mobile-3g", NearDrive: Circle,
		Caption: []string{
			"The near tank circles by itself. In the right pane it and the other tanks jump",
			"20 times a second. Press I there to interpolate: drawn a steady 100 ms in the",
			"past, between two snapshots.",
		},
		Solo: []string{"Other tanks jump 20 times a second. Press I to draw", "them between two snapshots, a steady 100 ms in the past."},
	},
	{
		Title: "The lanes: lost snapshots are skipped", Techniques: AllOn(), LagComp: true,
		NearNet: "none", FarNet: "wifi-bad", NearDrive: Circle,
		Caption: []string{
			"Right pane on wifi-bad (4% loss): red slots in the strip's top row are lost",
			"snapshots. On the datagram lane nothing waits for them; tanks keep moving.",
		},
		Solo: []string{"Red slots in the strip's top row are lost snapshots; on", "the datagram lane nothing waits for them."},
	},
	{
		Title: "Lag compensation", Techniques: AllOn(), LagComp: true,
		NearNet: "none", FarNet: "mobile-3g", NearDrive: Circle, Gunner: true,
		Caption: []string{
			"The near tank circles by itself. The far player's gun fires at it as the right",
			"pane draws it, a few hundred ms in the past. L on: the server rewinds the target",
			"to that moment and the shot hits. L off: it tests where the tank is now and",
			"misses. L flips every 4 shots (or press L over the right pane).",
		},
		Solo: []string{"Fire (Space) at a tank you see: the server rewinds it to", "where you drew it (G: white ghost). L off: hits start missing."},
	},
	{
		Title: "Inputs applied as they arrive", Techniques: AllOn(), LagComp: true,
		NearNet: "none", FarNet: "wifi-bad", InputOnArrival: true,
		FarDrive: TightCircle, Trail: true, Slow: 4,
		Caption: []string{
			"Slow motion, 1/4. The far player drives a circle by itself over a jittery link,",
			"and the server applies its inputs as they arrive. The dots in the middle pane",
			"are where the server had it each tick: bunched where no input came in time,",
			"gapped where two came at once.",
		},
		Solo:     []string{"The server applies your inputs as they arrive: on this", "jittery link your tank stops one tick and lurches the next."},
		Requires: FeatureInputBuffer,
	},
	{
		Title: "The input buffer", Techniques: AllOn(), LagComp: true,
		NearNet: "none", FarNet: "wifi-bad",
		FarDrive: TightCircle, Trail: true, Slow: 4,
		Caption: []string{
			"Now the server holds the far player's inputs a few ticks and applies one a tick:",
			"the dots are evenly spaced and uneven ticks fall to almost none, on the same",
			"link. The right pane's HUD shows the buffer, the wait and its clock's rate.",
		},
		Solo:     []string{"The server holds your inputs a few ticks and applies one a", "tick: your tank moves evenly. The HUD shows the buffer and clock."},
		Requires: FeatureInputBuffer,
	},
	{
		Title: "Tank contact, the old way: the server pushes", Techniques: AllOn(), LagComp: true,
		NearNet: "none", FarNet: "none", Contact: netcode.ContactServer, Ram: true,
		Caption: []string{
			"Both links are perfect, and the two players drive into each other by themselves.",
			"The server pushes overlapping tanks apart after its tick: neither client could",
			"predict that, so each snapshot corrects them (pink and red lines in the strips,",
			"and the count below). This was tanknet's contact until clients predicted it.",
		},
		Solo:     []string{"The server pushes tanks apart after its tick: your client", "cannot predict it, so each touch corrects your tank."},
		Requires: FeatureContact,
	},
	{
		Title: "Tank contact, predicted: each client pushes its own tank", Techniques: AllOn(), LagComp: true,
		NearNet: "none", FarNet: "none", Contact: netcode.ContactPredicted, Ram: true,
		Caption: []string{
			"Same ram, new rules: each client pushes its own tank out of the other in its",
			"inputs (yellow ticks under the strips), the server applies those pushes as",
			"sent, and the replay of every snapshot agrees: no correction at all.",
		},
		Solo:     []string{"Your client pushes your tank out of the others in its", "inputs; the server applies them as sent: no correction."},
		Requires: FeatureContact,
	},
}

// Tour walks the scenes a window can show. The zero value is not running; Start begins it.
type Tour struct {
	scenes []Scene
	at     int
	on     bool
}

// NewTour returns a tour of the scenes whose requirement is among features.
func NewTour(scenes []Scene, features ...string) Tour {
	var t Tour
	for _, s := range scenes {
		if s.Requires == "" || contains(features, s.Requires) {
			t.scenes = append(t.scenes, s)
		}
	}
	return t
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Start begins the tour at its first scene.
func (t *Tour) Start() { t.at, t.on = 0, len(t.scenes) > 0 }

// StartAt begins the tour at scene n (1-based, held within the scenes there are).
func (t *Tour) StartAt(n int) {
	t.Start()
	t.at = max(0, min(n-1, len(t.scenes)-1))
}

// Stop ends the tour; the switches stay as the last scene set them.
func (t *Tour) Stop() { t.on = false }

// Running reports whether the tour is showing a scene.
func (t *Tour) Running() bool { return t.on }

// Scene returns the scene shown and its place (1-based) of how many; ok is false when the
// tour is not running.
func (t *Tour) Scene() (s Scene, n, of int, ok bool) {
	if !t.on {
		return Scene{}, 0, 0, false
	}
	return t.scenes[t.at], t.at + 1, len(t.scenes), true
}

// Next goes on to the next scene, or ends the tour after the last. It reports whether the
// tour is still running.
func (t *Tour) Next() bool {
	if !t.on {
		return false
	}
	if t.at++; t.at >= len(t.scenes) {
		t.at, t.on = len(t.scenes)-1, false
	}
	return t.on
}

// Back returns to the previous scene (the first stays).
func (t *Tour) Back() {
	if t.on && t.at > 0 {
		t.at--
	}
}
