package docscheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// programs are the commands docs/COMMANDS.md documents, each with the section that
// documents it ("**tankserver**" up to the next bold heading).
var programs = []string{"tankserver", "tankclient", "tanksim", "tankreplay", "tankload"}

// linkFlagPrograms share the network simulation flags, documented once in their own section.
var linkFlagPrograms = map[string]bool{"tankserver": true, "tankclient": true, "tanksim": true}

// flagLine matches a flag in the usage `-h` prints (flag.PrintDefaults): "  -name ...".
var flagLine = regexp.MustCompile(`(?m)^  -([A-Za-z0-9][\w-]*)`)

// docFlag matches a flag named in a code span of the document: `-name`, `-name VALUE`,
// `-screenshot FILE -frames N`.
var (
	docSpan = regexp.MustCompile("`([^`\n]+)`")
	docFlag = regexp.MustCompile(`(?:^|\s)-([A-Za-z0-9][\w-]*)`)
)

// flagsOf returns the flags program prints with -h, run without a display (tankclient
// prints its help anywhere; it is never imported here, so nothing headless links
// Ebitengine).
func flagsOf(t *testing.T, bin string) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	c := exec.Command(bin, "-h")
	c.Env = env
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%s -h: %v\n%s", bin, err, out)
	}
	var flags []string
	for _, m := range flagLine.FindAllStringSubmatch(string(out), -1) {
		flags = append(flags, m[1])
	}
	return flags
}

// section returns the part of doc that starts at the bold heading head, up to the next
// bold heading at the start of a line.
func section(doc, head string) string {
	i := strings.Index(doc, "\n"+head)
	if i < 0 {
		return ""
	}
	rest := doc[i+1+len(head):]
	if j := strings.Index(rest, "\n**"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// documentedFlags returns the flags named in code spans of text.
func documentedFlags(text string) map[string]bool {
	out := map[string]bool{}
	for _, span := range docSpan.FindAllStringSubmatch(text, -1) {
		for _, m := range docFlag.FindAllStringSubmatch(span[1], -1) {
			out[m[1]] = true
		}
	}
	return out
}

// TestCommandsDoc_EveryFlagDocumented: every flag each program prints with -h is named in
// its section of docs/COMMANDS.md (the network simulation flags in theirs; a link flag's
// -up and -down forms with it), so a new flag cannot go undocumented.
func TestCommandsDoc_EveryFlagDocumented(t *testing.T) {
	raw, err := os.ReadFile("../../docs/COMMANDS.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	bin := t.TempDir()
	args := []string{"build", "-o", bin + "/"}
	for _, p := range programs {
		args = append(args, "../../cmd/"+p)
	}
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	network := documentedFlags(section(doc, "**Network simulation.**"))
	if !network["latency"] {
		t.Fatal("COMMANDS.md has no **Network simulation.** section naming -latency")
	}
	for _, p := range programs {
		sec := section(doc, "**"+p+"**")
		if sec == "" {
			t.Errorf("COMMANDS.md has no **%s** section", p)
			continue
		}
		own := documentedFlags(sec)
		flags := flagsOf(t, filepath.Join(bin, p))
		if p != "tankreplay" && len(flags) < 5 {
			t.Fatalf("%s -h listed only %v: the usage parser is broken", p, flags)
		}
		for _, f := range flags {
			base := strings.TrimSuffix(strings.TrimSuffix(f, "-up"), "-down")
			shared := linkFlagPrograms[p] && (network[f] || network[base])
			if !own[f] && !shared {
				t.Errorf("%s -%s is not in its section of docs/COMMANDS.md", p, f)
			}
		}
	}
}

// The parser finds flags where the document writes them, and only there.
func TestCommandsDoc_ParserReadsSpans(t *testing.T) {
	got := documentedFlags("| `-width`, `-height` | x |\n| `-screenshot FILE -frames N` | a `1-2` range, -not-a-span |\n`tanksim -latency 50ms`")
	for _, f := range []string{"width", "height", "screenshot", "frames", "latency"} {
		if !got[f] {
			t.Errorf("-%s not found in %v", f, got)
		}
	}
	if got["not-a-span"] || got["2"] {
		t.Errorf("found flags outside code spans or inside words: %v", got)
	}
}
