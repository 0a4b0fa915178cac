package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"tanknet/render"
)

// runReplay plays a client recording in the window (-replay FILE).
func runReplay(ctx context.Context, cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return &joinError{err}
	}
	data, err := os.ReadFile(cfg.Replay)
	if err != nil {
		return &joinError{fmt.Errorf("-replay: %w", err)}
	}
	opts := cfg.renderOptions(nil)
	opts.Title = "tanknet replay — " + filepath.Base(cfg.Replay)
	if err := render.RunReplay(ctx, data, cfg.ReplayAt, opts); err != nil {
		return &joinError{fmt.Errorf("-replay %s: %w", cfg.Replay, err)}
	}
	return nil
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
