// Package matchplay plays a demo's recording set — the near and far players' client
// recordings and the server recording of the same match (tankclient -demo -record FILE
// writes FILE-near, FILE-far and FILE-server) — on one playback clock, for the three-pane
// replay window: each player's pane is its recording replayed through a client.Game (as a
// single replay is), and the server pane is the world the server recording rebuilds at the
// tick that belongs to the moment (recording.Match).
//
// The clocks. A client recording's times run from its Game's start; the demo starts both
// Games at one instant, so the near and far recordings share one clock and the playback
// position is a moment on it. A server recording has ticks and no clock. What ties a tick to
// that clock is in the client recordings: when each snapshot arrived. The server pane shows,
// at each moment, the newest tick whose snapshot had reached either player by then. That is
// a fact of the recordings, not an estimate; it trails the tick the live demo's server pane
// drew at the same moment by the faster link's one-way delay (the near player's link adds
// none by default, so mostly it is the same tick) and never leads it.
//
// Package matchplay is headless: it draws nothing and never imports Ebitengine, so tests
// and benchmarks run it without a display.
package matchplay
