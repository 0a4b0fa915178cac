package docscheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pathLike matches a code span that names a file or directory of the tree: words joined by
// slashes (render/view, server/world.go, agones/), or one file name with an extension
// (presets.go). Spans with spaces, arrows or calls are code, not paths.
var pathLike = regexp.MustCompile(`^(?:[\w.-]+/)+[\w.-]*$|^[\w-]+\.(?:go|proto|md|sh|yaml|json|png)$`)

// docLink matches a relative markdown link: [text](path).
var docLink = regexp.MustCompile(`\]\(([^)#:]+)\)`)

// namedPaths returns the paths doc names: in code spans, in relative links, and the
// slashed words of its fenced blocks (a tree of directories).
func namedPaths(doc string) []string {
	var out []string
	var text strings.Builder // doc without its fenced blocks, whose backticks are no spans
	fenced := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			text.WriteString(line + "\n")
			continue
		}
		for _, w := range strings.Fields(line) {
			if w = strings.TrimRight(w, ",;:."); strings.Contains(w, "/") && w == strings.ToLower(w) && pathLike.MatchString(w) {
				out = append(out, w)
			}
		}
	}
	doc = text.String()
	for _, m := range docSpan.FindAllStringSubmatch(doc, -1) {
		if pathLike.MatchString(m[1]) {
			out = append(out, m[1])
		}
	}
	for _, m := range docLink.FindAllStringSubmatch(doc, -1) {
		out = append(out, "docs/"+m[1]) // links are relative to docs/
	}
	return out
}

// TestArchitectureDoc_NamedPathsExist: every file or directory docs/ARCHITECTURE.md names
// exists (a bare file name somewhere in the tree), so a renamed or deleted file cannot stay
// in the map of the code.
func TestArchitectureDoc_NamedPathsExist(t *testing.T) {
	raw, err := os.ReadFile("../../docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	root := "../.."
	names := map[string]bool{} // every file's base name, for bare names
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root {
			return filepath.SkipDir
		}
		names[d.Name()] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	paths := namedPaths(string(raw))
	if len(paths) < 20 {
		t.Fatalf("found only %d paths in ARCHITECTURE.md: %q", len(paths), paths)
	}
	for _, p := range paths {
		if !strings.Contains(strings.TrimSuffix(p, "/"), "/") {
			if !names[strings.TrimSuffix(p, "/")] {
				t.Errorf("ARCHITECTURE.md names %s, and no file or directory of that name exists", p)
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			t.Errorf("ARCHITECTURE.md names %s, which does not exist", p)
		}
	}
}

// The path finder takes paths and bare file names, and leaves code alone.
func TestArchitectureDoc_PathFinder(t *testing.T) {
	got := namedPaths("```\nwire/   the bytes; server/recording writes, see PROTOCOL.md\n```\n`server/world.go`, `render/`, `presets.go`, `cmd -> client`, `client.Game.Update`, `-h`, `make gen`, [RECORDINGS](RECORDINGS.md)")
	want := []string{"wire/", "server/recording", "server/world.go", "render/", "presets.go", "docs/RECORDINGS.md"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("namedPaths = %q, want %q", got, want)
	}
}
