package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"tanknet/render"
	"tanknet/render/matchplay"
)

// runReplay plays a recording in the window (-replay FILE): a client recording when FILE is
// one, or, when there is no FILE but FILE-near, FILE-far and FILE-server (what -demo -record
// FILE wrote), the demo's three panes on that set (replaySet).
func runReplay(ctx context.Context, cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return &joinError{err}
	}
	if _, err := os.Stat(cfg.Replay); errors.Is(err, fs.ErrNotExist) {
		if parts := recordPaths(cfg.Replay, true); anyExists(parts) {
			return replaySet(ctx, cfg, parts)
		}
	}
	data, err := os.ReadFile(cfg.Replay)
	if err != nil {
		return &joinError{fmt.Errorf("-replay: %w (nor is there a demo recording set %s)", err, strings.Join(recordPaths(filepath.Base(cfg.Replay), true), ", "))}
	}
	opts := cfg.renderOptions(nil)
	opts.Title = "tanknet replay — " + filepath.Base(cfg.Replay)
	if err := render.RunReplay(ctx, data, cfg.ReplayAt, opts); err != nil {
		return &joinError{fmt.Errorf("-replay %s: %w", cfg.Replay, err)}
	}
	return nil
}

// replaySet opens the recording set at paths (near, far, server) in the demo's three panes.
// Every part must be there, and of one match.
func replaySet(ctx context.Context, cfg Config, paths []string) error {
	var parts [3]matchplay.Part
	for i, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return &joinError{fmt.Errorf("-replay %s: a demo recording set is %s: %w", cfg.Replay, strings.Join(paths, ", "), err)}
		}
		parts[i] = matchplay.Part{Name: filepath.Base(p), Data: data}
	}
	set, err := matchplay.Open(parts[0], parts[1], parts[2])
	if err != nil {
		return &joinError{fmt.Errorf("-replay %s: %w", cfg.Replay, err)}
	}
	opts := cfg.renderOptions(nil)
	if !cfg.widthGiven {
		opts.Width = demoWidth // the demo's three panes, as they were recorded
	}
	if !cfg.heightGiven {
		opts.Height = demoHeight + render.ReplayBarHeight
	}
	opts.Title = "tanknet replay — " + filepath.Base(cfg.Replay) + ": near player | server | far player"
	if err := render.RunMatchReplay(ctx, set, cfg.ReplayAt, opts); err != nil {
		return &joinError{fmt.Errorf("-replay %s: %w", cfg.Replay, err)}
	}
	return nil
}

// anyExists reports whether any of paths names an existing file.
func anyExists(paths []string) bool {
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// recordPaths returns the files -record FILE writes: FILE for a single window; for the demo
// a client recording per player and the server recording of its in-process server, "near",
// "far" and "server" put before FILE's extension (match.tnrec: match-near.tnrec,
// match-far.tnrec, match-server.tnrec), in that order. No file, no paths.
func recordPaths(file string, demo bool) []string {
	switch {
	case file == "":
		return nil
	case !demo:
		return []string{file}
	}
	ext := filepath.Ext(file)
	base := strings.TrimSuffix(file, ext)
	return []string{base + "-near" + ext, base + "-far" + ext, base + "-server" + ext}
}

// openRecordings creates the files at paths before the window opens, so a path that cannot
// be written fails at once. close closes them all and reports the first error.
func openRecordings(paths []string) (ws []io.Writer, closeAll func() error, err error) {
	var files []*os.File
	closeAll = func() error {
		var errs []error
		for _, f := range files {
			errs = append(errs, f.Close())
		}
		return errors.Join(errs...)
	}
	for _, p := range paths {
		f, err := os.Create(p)
		if err != nil {
			_ = closeAll()
			return nil, nil, fmt.Errorf("-record: %w", err)
		}
		files = append(files, f)
		ws = append(ws, f)
	}
	return ws, closeAll, nil
}
