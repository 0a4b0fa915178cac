package recording

import (
	"errors"
	"fmt"
	"log/slog"
	"os"

	"tanknet/server"
)

// File is a server recording being written to a file: what tankserver -record and the
// demo's tankclient -demo -record both run. It records the default room (one world's story
// per file); other rooms' ticks are ignored.
type File struct {
	f   *os.File
	rec *Recorder
}

// Create creates path and starts recording a server running cfg into it, with a keyframe
// every DefaultKeyframeEvery ticks. Register Tick with the server's Observe before Serve,
// and Close the file after the server has stopped ticking.
func Create(path string, cfg server.Config, log *slog.Logger) (*File, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("-record: %w", err)
	}
	return &File{f: f, rec: NewRecorder(f, cfg, 0, log)}, nil
}

// Tick records one tick of the default room; it is a server.Observe function.
func (f *File) Tick(r server.TickRecord) {
	if r.Room == server.DefaultRoom {
		f.rec.Tick(r)
	}
}

// Close writes what is queued, closes the file and returns the first error: a recording
// that stopped (the disk could not keep up, or a write failed) or a file that did not close.
// After a failed write the file is cut back to its last whole record, so what it holds is a
// valid, shorter recording either way.
func (f *File) Close() error {
	err := f.rec.Close()
	if err != nil && !errors.Is(err, ErrCannotKeepUp) {
		err = errors.Join(err, f.f.Truncate(f.rec.Whole()))
	}
	return errors.Join(err, f.f.Close())
}
