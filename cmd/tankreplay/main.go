// Command tankreplay checks server recordings (tankserver -record FILE) against the current
// code.
//
//	tankreplay verify FILE   # re-simulate FILE; print "exact" or the first tick, player and field that differ
//	tankreplay diff A B      # compare two recordings; print "same" or the first difference
//
// It exits 0 when the answer is exact (same), 1 when something differs and 2 for bad usage
// or a file it cannot read (the error names the byte offset and what was expected there).
// docs/RECORDINGS.md describes the file.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"tanknet/internal/cliflag"
	"tanknet/server/recording"
)

// Config is what tankreplay was asked to do.
type Config struct {
	Mode  string   // "verify" or "diff"
	Files []string // one for verify, two for diff
}

// parseFlags defines tankreplay's flags on fs (it has none but -h), parses args and returns
// the Config they describe. Like every tanknet command, tankreplay parses its arguments here
// and nowhere else.
func parseFlags(fs *flag.FlagSet, args []string) (Config, error) {
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tankreplay verify FILE | tankreplay diff A B")
		fs.PrintDefaults()
	}
	out := fs.Output()
	fs.SetOutput(io.Discard) // the flag package prints every flag's usage after any error
	err := fs.Parse(args)
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return Config{}, err
	case err != nil:
		return Config{}, cliflag.Explain(fs, err) // one line, pointing at -h, as every command's
	}
	rest := fs.Args()
	for _, a := range rest { // -h after the subcommand helps too
		if a == "-h" || a == "-help" || a == "--help" {
			fs.Usage()
			return Config{}, flag.ErrHelp
		}
	}
	if len(rest) == 0 {
		return Config{}, errors.New("want a subcommand: verify FILE or diff A B")
	}
	cfg := Config{Mode: rest[0], Files: rest[1:]}
	want := map[string]int{"verify": 1, "diff": 2}
	n, ok := want[cfg.Mode]
	switch {
	case !ok:
		return cfg, fmt.Errorf("unknown subcommand %q: want verify or diff", cfg.Mode)
	case len(cfg.Files) != n:
		return cfg, fmt.Errorf("%s takes %d file(s), not %d", cfg.Mode, n, len(cfg.Files))
	}
	return cfg, nil
}

func main() {
	fs := flag.NewFlagSet(os.Args[0], flag.ContinueOnError)
	cfg, err := parseFlags(fs, os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tankreplay:", err)
		os.Exit(2)
	}
	os.Exit(run(cfg, os.Stdout, os.Stderr))
}

// run does what cfg says, writes the answer to out and problems to errOut, and returns the
// exit code: 0 exact or same, 1 different, 2 unreadable.
func run(cfg Config, out, errOut io.Writer) int {
	files := make([]*os.File, len(cfg.Files))
	for i, name := range cfg.Files {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(errOut, "tankreplay:", err)
			return 2
		}
		defer f.Close()
		files[i] = f
	}
	if cfg.Mode == "diff" {
		d, err := recording.Diff(files[0], files[1])
		if err != nil {
			fmt.Fprintf(errOut, "tankreplay: %v\n", err)
			return 2
		}
		if d == nil {
			fmt.Fprintln(out, "same")
			return 0
		}
		fmt.Fprintf(out, "differ at %s (%s vs %s)\n", d, cfg.Files[0], cfg.Files[1])
		return 1
	}
	rep, err := recording.Verify(files[0])
	if err != nil {
		fmt.Fprintf(errOut, "tankreplay: %s: %v\n", cfg.Files[0], err)
		return 2
	}
	fmt.Fprintln(out, rep)
	if !rep.Exact() {
		return 1
	}
	fmt.Fprintf(errOut, "%d ticks, %d inputs, %d shots judged again, %d keyframes compared\n", rep.Ticks, rep.Moves, rep.Shots, rep.Keyframes)
	return 0
}
