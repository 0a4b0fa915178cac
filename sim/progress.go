package sim

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// progressEvery is how often a terminal's progress line is redrawn.
const progressEvery = time.Second

// progress reports how far a long run has got on stderr. On a terminal it redraws one line
// every second; otherwise it writes one line when each run of a matrix starts, and nothing
// for a single run, so logs and tests stay quiet.
type progress struct {
	w     io.Writer
	tty   bool
	total int // runs
}

func newProgress(w io.Writer, runs int) *progress {
	return &progress{w: w, tty: isTerminal(w), total: runs}
}

// isTerminal reports whether w is a character device such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// start announces run i (from 1) of the total, expected to take about d, and returns the
// function that ends the announcement. The returned function waits for the redrawing
// goroutine, so nothing is written after it returns.
func (p *progress) start(i int, label string, d time.Duration) (stop func()) {
	if !p.tty {
		if p.total > 1 {
			fmt.Fprintf(p.w, "tanksim: run %d of %d: %s for %v\n", i, p.total, label, d)
		}
		return func() {}
	}
	begun := time.Now()
	draw := func() {
		fmt.Fprintf(p.w, "\rtanksim: run %d of %d: %s %4.0fs of %.0fs ", i, p.total, label,
			time.Since(begun).Seconds(), d.Seconds())
	}
	draw()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				draw()
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		fmt.Fprint(p.w, "\r\033[K") // clear the line for what comes next
	}
}
