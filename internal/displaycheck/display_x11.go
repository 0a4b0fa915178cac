//go:build (linux || freebsd || netbsd || openbsd || dragonfly) && !android

package displaycheck

import (
	_ "embed"
	"os"
)

// Help is tankclient's -h text, printed when there is no display to start the window
// system, which the flags' own help would need. cmd/tankclient's tests check it matches.
//
//go:embed help.txt
var Help string

func init() {
	msg := problem(os.Getenv("DISPLAY"), exists)
	switch {
	case msg == "":
	case asksForHelp(os.Args[1:]):
		os.Stderr.WriteString(Help)
		os.Exit(0)
	default:
		os.Stderr.WriteString(msg)
		os.Exit(2)
	}
}

// exists reports whether a file is at path.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// problem returns what stops a window from opening on display (the DISPLAY variable), or
// "" when nothing obviously does. A local display ":N" needs its X socket; a remote one
// ("host:N") is left for the window system to judge.
func problem(display string, exists func(string) bool) string {
	const hint = "run it on a desktop session, or under a virtual display: xvfb-run -a tankclient ...\n" +
		"For a run with no window at all, use tanksim (make sim).\n"
	if display == "" {
		return "tankclient: no display: the DISPLAY environment variable is not set, and the window needs X11.\n" + hint
	}
	if display[0] != ':' {
		return ""
	}
	n := display[1:]
	for i := 0; i < len(n); i++ {
		if n[i] == '.' { // ":0.1" is screen 1 of display 0
			n = n[:i]
			break
		}
	}
	if !exists("/tmp/.X11-unix/X" + n) {
		return "tankclient: no display: DISPLAY is " + display + " but no X server listens there (/tmp/.X11-unix/X" + n + " is missing).\n" + hint
	}
	return ""
}

// asksForHelp reports whether the command line asks for the flags' help (-h, -help, with one
// or two dashes).
func asksForHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false // what follows is not flags
		case "-h", "--h", "-help", "--help":
			return true
		}
	}
	return false
}
