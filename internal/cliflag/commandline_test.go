package cliflag

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// commandLineArgs, when set, makes this test binary a program that parses them with
// ParseCommandLine (TestParseCommandLine runs it so).
const commandLineArgs = "TANKNET_CLIFLAG_ARGS"

// TestParseCommandLine runs a program with a -bots flag through ParseCommandLine: -h prints
// the usage under the program's name and exits 0; a bad value or a stray argument prints one
// line that names the program and exits 2; good flags parse.
func TestParseCommandLine(t *testing.T) {
	if args, ok := os.LookupEnv(commandLineArgs); ok {
		bots := flag.Int("bots", 8, "number of bots")
		os.Args = append([]string{"/tmp/go-build/exe/tool"}, strings.Fields(args)...)
		ParseCommandLine("tool")
		fmt.Printf("bots %d", *bots)
		os.Exit(0)
	}
	for _, c := range []struct {
		args, want string
		code       int
	}{
		{"-bots 3", "bots 3", 0},
		{"-h", "Usage of tool:\n  -bots int", 0},
		{"-bots x", `tool: invalid value "x" for flag -bots: parse error (tool -h lists every flag)` + "\n", 2},
		{"stray", `tool: unexpected argument "stray": tool takes flags only`, 2},
	} {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestParseCommandLine$")
		cmd.Env = append(os.Environ(), commandLineArgs+"="+c.args)
		out, err := cmd.CombinedOutput()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || !strings.HasPrefix(string(out), c.want) {
			t.Errorf("tool %s: exit %d, said %q; want exit %d and %q", c.args, code, out, c.code, c.want)
		}
	}
}
