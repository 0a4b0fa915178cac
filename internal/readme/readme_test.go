package readme

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// programs are the commands the README may run, built from cmd/.
var programs = []string{"tankserver", "tankclient", "tanksim", "tankreplay"}

// commands returns every command in the README: the lines of its sh code blocks (comments and
// a trailing & removed) and the code spans that start with make or a program.
func commands(readme string) []string {
	var cmds []string
	inBlock := false
	for _, line := range strings.Split(readme, "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			inBlock = true
		case strings.HasPrefix(line, "```"):
			inBlock = false
		case inBlock:
			line, _, _ = strings.Cut(line, "#")
			line = strings.TrimSuffix(strings.TrimSpace(line), "&")
			if line = strings.TrimSpace(line); line != "" {
				cmds = append(cmds, line)
			}
		default:
			for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
				if startsACommand(m[1]) {
					cmds = append(cmds, m[1])
				}
			}
		}
	}
	return cmds
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// startsACommand reports whether a code span is a command: make with a target, or a program
// (from bin/ or the PATH) with flags.
func startsACommand(s string) bool {
	f := strings.Fields(s)
	if len(f) < 2 {
		return false
	}
	if f[0] == "make" {
		return true
	}
	return program(f[0]) != "" && strings.HasPrefix(f[1], "-")
}

// program returns which of programs word runs ("bin/tanksim" and "tanksim" both run
// tanksim), or "".
func program(word string) string {
	for _, p := range programs {
		if word == p || word == "bin/"+p {
			return p
		}
	}
	return ""
}

// TestCommands_RunAsWritten: every make target in the README exists in the Makefile, and
// every program run in it accepts its flags: run with them and -h (no display needed), it
// prints its help and exits 0 where an unknown or malformed flag would exit 2. A program
// run through xvfb-run is checked the same way.
func TestCommands_RunAsWritten(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	build := exec.Command("go", append([]string{"build", "-o", bin + "/"}, "../../cmd/tankserver", "../../cmd/tankclient", "../../cmd/tanksim", "../../cmd/tankreplay")...)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmds := commands(string(readme))
	if len(cmds) < 10 {
		t.Fatalf("found only %d commands in the README: %q", len(cmds), cmds)
	}
	checked := 0
	for _, cmd := range cmds {
		words := strings.Fields(cmd)
		if words[0] == "xvfb-run" {
			words = afterXvfb(words)
		}
		switch {
		case len(words) == 0:
			t.Errorf("%q: xvfb-run runs nothing", cmd)
		case words[0] == "make":
			vars := makeVar.FindAllStringSubmatch(cmd, -1)
			for _, v := range vars {
				if v[1] == "ARGS" { // flags for the program the target runs
					checkFlags(t, cmd, filepath.Join(bin, makePrograms[words[1]]), strings.Fields(v[2]))
				}
			}
			for _, target := range strings.Fields(makeVar.ReplaceAllString(cmd, ""))[1:] {
				if strings.Contains(target, "=") {
					continue // a variable: PORT=7778
				}
				if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(target) + `:`).Match(makefile) {
					t.Errorf("%q: the Makefile has no target %s", cmd, target)
				}
			}
			checked++
		case program(words[0]) != "":
			checkFlags(t, cmd, filepath.Join(bin, program(words[0])), words[1:])
			checked++
		default:
			t.Errorf("%q: neither make nor one of %v: add it to this test", cmd, programs)
		}
	}
	t.Logf("checked %d README commands", checked)
}

// makeVar matches a quoted make variable on the command line: ARGS="-bots 14".
var makeVar = regexp.MustCompile(`(\w+)="([^"]*)"`)

// makePrograms says which program a make target passes ARGS to.
var makePrograms = map[string]string{"demo": "tankclient", "client": "tankclient", "server": "tankserver", "sim": "tanksim"}

// afterXvfb returns the command xvfb-run runs: the words after its own options.
func afterXvfb(words []string) []string {
	for i := 1; i < len(words); i++ {
		if program(words[i]) != "" {
			return words[i:]
		}
	}
	return nil
}

// checkFlags runs bin with args and -h and fails unless it exits 0.
func checkFlags(t *testing.T, cmd, bin string, args []string) {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") {
			env = append(env, kv) // -h must work without a display, as the README promises
		}
	}
	c := exec.Command(bin, append(unquote(args), "-h")...)
	c.Env = env
	out, err := c.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) || err != nil {
		t.Errorf("%q: with -h it failed (%v):\n%s", cmd, err, out)
	}
}

// unquote drops the shell quotes around README arguments such as "-screen 0 1920x1080x24".
func unquote(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.Trim(a, `"'`)
	}
	return out
}
