// Package sim is tanknet's measuring instrument, the engine behind cmd/tanksim. It plays
// headless bots (package client), each behind its own seeded link conditioner (package
// linksim), against a tankserver, and measures how the netcode behaved: prediction
// residuals and corrections of each bot's own tank, holds, delay and position error of the
// remote tanks it draws, lost snapshots and head-of-line stalls, how late the server applied
// each input, round trips, traffic, and the server's tick time.
//
// By default the server runs in-process on 127.0.0.1 and every tick it simulates is
// recorded (server.Observe): that history is the ground truth remote poses are compared
// with. Against an external server (Config.Server) there is no ground truth, and the
// metrics that need it are null.
//
// A run takes a Config (start from DefaultConfig; Validate says what is wrong with one) and
// Run returns a Result: a Report for one network profile, snapshot lane and timeline, or a
// MatrixReport of every profile on both lanes with both timelines. Reports print as text
// (WriteText) or as JSON (WriteJSON), whose field names are the tool's contract with scripts
// and the README; Run also writes PNG charts when Config.PlotDir is set.
//
// A run measures a window of it: from the last bot's first frame plus a warm-up to the
// first bot's last frame, so every bot is playing throughout. Memory is bounded however
// long a run lasts: past a budget, samples are a uniform random subset, and the report
// says so in its notes.
//
// sim never draws and never imports Ebitengine (package render): it must run on a machine
// with no display, in CI and under load tests; internal/layering enforces this. It talks
// only to the server it is given, which by default is its own on the loopback interface.
package sim
