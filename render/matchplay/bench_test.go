package matchplay

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkSetSeek measures what the three-pane replay window does when the bar is clicked:
// Seek to a whole second of the set, in a shuffled order, so most seeks go back (both
// players replay from their start, the server from the keyframe before the tick). It reports
// the mean (ns/op, one seek) and the slowest seek (max_ms). Set TANKNET_RECORDING_SET to the
// FILE given to tankclient -demo -record FILE to measure that set instead of testdata/a.
func BenchmarkSetSeek(b *testing.B) {
	near, far, server := readSet(b, "a")
	if file := os.Getenv("TANKNET_RECORDING_SET"); file != "" {
		near, far, server = readFileSet(b, file)
	}
	s, err := Open(near, far, server)
	if err != nil {
		b.Fatal(err)
	}
	var seconds []time.Duration
	for at := time.Duration(0); at <= s.Near.Duration(); at += time.Second {
		seconds = append(seconds, at)
	}
	rand.New(rand.NewPCG(5, 6)).Shuffle(len(seconds), func(i, j int) { seconds[i], seconds[j] = seconds[j], seconds[i] })
	b.ResetTimer()
	var slowest time.Duration
	for i := range b.N {
		start := time.Now()
		if err := s.Seek(seconds[i%len(seconds)]); err != nil {
			b.Fatal(err)
		}
		slowest = max(slowest, time.Since(start))
	}
	b.ReportMetric(float64(slowest)/float64(time.Millisecond), "max_ms")
	b.ReportMetric(s.Near.Duration().Seconds(), "recording_s")
	_, frames := s.Near.Frame()
	b.ReportMetric(float64(frames), "near_frames")
}

// readFileSet reads the set -demo -record file wrote.
func readFileSet(b *testing.B, file string) (near, far, server Part) {
	ext := filepath.Ext(file)
	base := strings.TrimSuffix(file, ext)
	read := func(part string) Part {
		path := base + "-" + part + ext
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		return Part{Name: filepath.Base(path), Data: data}
	}
	return read("near"), read("far"), read("server")
}
