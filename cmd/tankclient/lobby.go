//go:build !js

package main

import (
	"context"
	"os"

	"tanknet/client"
	"tanknet/render"
	"tanknet/render/view"
)

// runLobby opens the window on the lobby (tankclient without -server): the servers LAN
// discovery finds, their rooms, and a match in the same window for each room joined.
func runLobby(ctx context.Context, cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	opts := render.Options{
		Title: "tanknet lobby", Width: cfg.Width, Height: cfg.Height, Position: cfg.Position,
		ScreenshotPath: cfg.Screenshot, ScreenshotFrames: cfg.Frames,
		Game: cfg.Game, Techniques: cfg.Techniques,
	}
	return render.RunLobby(ctx, opts, render.LobbyConfig{ // main waits for the last goodbye
		Name:      cfg.Name,
		Discovery: cfg.Discovery,
		Join:      cfg.joinRoom,
		Log:       os.Stdout,
	})
}

// joinRoom dials the room the lobby chose, over a conditioned socket of its own, and returns
// the session with the match window's Options. The lobby calls it on a goroutine.
func (c Config) joinRoom(ctx context.Context, j view.Join) (*client.Session, render.Options, error) {
	m := c
	m.Server, m.Name, m.Room, m.Screenshot = j.Addr, j.Name, j.Room, ""
	sess, cc, err := dial(ctx, m)
	if err != nil {
		return nil, render.Options{}, err
	}
	return sess, m.renderOptions(cc), nil
}
