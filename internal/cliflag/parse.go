package cliflag

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// Parse parses args with fs, which must be flag.ContinueOnError, for a command that takes
// flags only. With -h it prints fs's usage to fs's output and returns flag.ErrHelp. A flag
// that does not parse, or an argument that is not a flag (which would otherwise be ignored,
// as the word after a boolean flag is), prints nothing and returns an error that says which
// and why, ready to print on one line.
func Parse(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard) // the flag package prints every flag's usage after any error
	err := fs.Parse(args)
	fs.SetOutput(out)
	switch {
	case err == nil && fs.NArg() > 0:
		return fmt.Errorf("unexpected argument %q: %s takes flags only, each as -name value or -name=value (%s -h lists every flag)",
			fs.Arg(0), filepath.Base(fs.Name()), filepath.Base(fs.Name()))
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return flag.ErrHelp
	}
	return Explain(fs, err)
}

// badValue is how the flag package reports a value its flag cannot take.
var badValue = regexp.MustCompile(`^invalid value "(.*)" for flag -([\w-]+): `)

// Explain rewrites a parse error of fs for a person: a duration flag given a bare number
// says to add a unit; any other error keeps its text and points at -h.
func Explain(fs *flag.FlagSet, err error) error {
	if m := badValue.FindStringSubmatch(err.Error()); m != nil {
		value, name := m[1], m[2]
		if f := fs.Lookup(name); f != nil && isDuration(f) {
			if _, numErr := strconv.ParseFloat(value, 64); numErr == nil {
				return fmt.Errorf("-%s %s: a duration needs a unit, e.g. %sms or %ss (ns, us, ms, s, m, h)", name, value, value, value)
			}
			return fmt.Errorf("-%s %s: not a duration; write one like 50ms, 1.5s or 2m", name, value)
		}
	}
	return fmt.Errorf("%w (%s -h lists every flag)", err, filepath.Base(fs.Name()))
}

// isDuration reports whether f holds a time.Duration.
func isDuration(f *flag.Flag) bool {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	_, ok = g.Get().(time.Duration)
	return ok
}

// ParseCommandLine parses the program's arguments into the flags defined on the flag
// package's command line (flag.String and the like), as Parse does, for a program named
// name that takes flags only: -h prints the usage (flag.Usage, which it sets to name the
// program) and exits 0, and a flag that does not parse or an argument that is not a flag
// prints one line and exits 2.
func ParseCommandLine(name string) {
	flag.CommandLine.Init(name, flag.ContinueOnError)
	flag.Usage = func() { // the flag package's own names the binary's path (go run's is a temporary one)
		fmt.Fprintf(flag.CommandLine.Output(), "Usage of %s:\n", name)
		flag.PrintDefaults()
	}
	switch err := Parse(flag.CommandLine, os.Args[1:]); {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(2)
	}
}
