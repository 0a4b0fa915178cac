package docscheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The page names files and directories in these forms, each checked against the tree. A
// name ending in "/" must be a directory; a name without a slash may be anywhere in the
// tree (a bare file or package name).
//   - A code span that is a path: words joined by slashes (render/view, server/world.go,
//     agones/), or one file name with an extension (presets.go). A span with spaces names
//     its first word if that is a slashed path (cmd/tankserver -web).
//   - A code span that is one lower-case word is a package: a directory (`wire`), and so is
//     every word of a dependency arrow (cmd -> client -> {wire, netcode}).
//   - A relative markdown link, [text](path), relative to docs/.
//   - A document's name in the prose (PROTOCOL.md, in capitals).
//   - In a fenced block (the package picture): every lower-case slashed word and every file
//     name with an extension; and when an entry's description is only a list of names, each
//     with or without a note in parentheses (internal/: "cdp (drives Chromium), scalesweep"),
//     each name is a directory under the entry's head.
//
// Code spans that are neither (client.Game.Update, -h, make gen) are code, not paths:
// pkg.Name symbols included.
var (
	pathLike    = regexp.MustCompile(`^(?:[\w.-]+/)+[\w.-]*$|^[\w-]+\.(?:go|proto|md|sh|yaml|json|png)$`)
	packageWord = regexp.MustCompile(`^[a-z][a-z0-9]*$`)
	docName     = regexp.MustCompile(`\b[A-Z][A-Z0-9_]*\.md\b`)
	arrowWord   = regexp.MustCompile(`[\w/]+`)
	listItem    = regexp.MustCompile(`^([a-z][a-z0-9]*)(?:\s*\(.*\))?$`)
	// docLink matches a relative markdown link: [text](path).
	docLink = regexp.MustCompile(`\]\(([^)#:]+)\)`)
)

// namedPaths returns the paths doc names, in the forms above.
func namedPaths(doc string) []string {
	var out []string
	var text strings.Builder // doc without its fenced blocks, whose backticks are no spans
	var block []string       // the lines of the fenced block being read
	fenced := false
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			if fenced {
				out = append(out, blockPaths(block)...)
				block = nil
			}
			fenced = !fenced
		case fenced:
			block = append(block, line)
		default:
			text.WriteString(line + "\n")
		}
	}
	doc = text.String()
	for _, m := range docSpan.FindAllStringSubmatch(doc, -1) {
		out = append(out, spanPaths(m[1])...)
	}
	for _, m := range docLink.FindAllStringSubmatch(doc, -1) {
		out = append(out, "docs/"+m[1]) // links are relative to docs/
	}
	prose := docLink.ReplaceAllString(docSpan.ReplaceAllString(doc, ""), "]")
	out = append(out, docName.FindAllString(prose, -1)...)
	return out
}

// spanPaths returns the paths a code span names.
func spanPaths(span string) []string {
	first, _, spaced := strings.Cut(span, " ")
	switch {
	case strings.Contains(span, "->"):
		var out []string
		for _, w := range arrowWord.FindAllString(span, -1) {
			out = append(out, strings.TrimSuffix(w, "/")+"/")
		}
		return out
	case pathLike.MatchString(span):
		return []string{span}
	case packageWord.MatchString(span):
		return []string{span + "/"}
	case spaced && strings.Contains(first, "/") && pathLike.MatchString(first):
		return []string{first}
	}
	return nil
}

// blockPaths returns the paths a fenced block names: its slashed words and file names, and
// the directories of each entry whose description is a list of names. An entry starts with
// a line that does not start with a space: its first word is its head.
func blockPaths(lines []string) []string {
	var out []string
	var head string
	var desc []string
	endEntry := func() {
		if head != "" {
			out = append(out, listedDirs(head, strings.Join(desc, " "))...)
		}
		head, desc = "", nil
	}
	for _, line := range lines {
		for _, w := range strings.Fields(line) {
			w = strings.Trim(w, ",;:.()")
			switch {
			case strings.Contains(w, "/") && w == strings.ToLower(w) && pathLike.MatchString(w):
				out = append(out, w)
			case !strings.Contains(w, "/") && pathLike.MatchString(w):
				out = append(out, w) // a file name: tank.proto, web_js.go, PROTOCOL.md
			}
		}
		if line != "" && line[0] != ' ' {
			endEntry()
			fields := strings.Fields(line)
			if len(fields) == 0 {
				continue
			}
			head, line = fields[0], strings.TrimPrefix(line, fields[0])
		}
		desc = append(desc, strings.TrimSpace(line))
	}
	endEntry()
	return out
}

// listedDirs returns head/name/ for each name of desc when desc is a list of two or more
// names, each with or without a note in parentheses; otherwise nothing.
func listedDirs(head, desc string) []string {
	var items []string
	depth, start := 0, 0
	for i, r := range desc {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				items, start = append(items, desc[start:i]), i+1
			}
		}
	}
	items = append(items, desc[start:])
	if len(items) < 2 {
		return nil
	}
	var out []string
	for _, item := range items {
		m := listItem.FindStringSubmatch(strings.TrimSpace(item))
		if m == nil {
			return nil
		}
		out = append(out, strings.TrimSuffix(head, "/")+"/"+m[1]+"/")
	}
	return out
}

// missingPaths returns the paths doc names that the tree at root lacks.
func missingPaths(doc, root string) ([]string, error) {
	isDir := map[string]bool{} // every base name in the tree: whether one of that name is a directory
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root {
			return filepath.SkipDir
		}
		isDir[d.Name()] = isDir[d.Name()] || d.IsDir()
		return nil
	})
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, p := range namedPaths(doc) {
		wantDir := strings.HasSuffix(p, "/")
		name := strings.TrimSuffix(p, "/")
		if !strings.Contains(name, "/") {
			if dir, ok := isDir[name]; !ok || wantDir && !dir {
				missing = append(missing, p)
			}
			continue
		}
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err != nil || wantDir && !fi.IsDir() {
			missing = append(missing, p)
		}
	}
	return missing, nil
}

// TestArchitectureDoc_NamedPathsExist: every file or directory docs/ARCHITECTURE.md names
// exists, in any of the forms it names them in, so a renamed or deleted file cannot stay in
// the map of the code.
func TestArchitectureDoc_NamedPathsExist(t *testing.T) {
	raw, err := os.ReadFile("../../docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	if paths := namedPaths(string(raw)); len(paths) < 20 {
		t.Fatalf("found only %d paths in ARCHITECTURE.md: %q", len(paths), paths)
	}
	missing, err := missingPaths(string(raw), "../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range missing {
		t.Errorf("ARCHITECTURE.md names %s, which does not exist", p)
	}
}

// The path finder takes every form of path, and leaves code alone.
func TestArchitectureDoc_PathFinder(t *testing.T) {
	got := namedPaths("```\n" +
		"wire/   the bytes (wire.go); server/recording writes, see PROTOCOL.md. No I/O\n" +
		"internal/  cdp (drives Chromium, headless), scalesweep,\n" +
		"           layering (the import rules)\n" +
		"netcode/   Step, arena, prediction\n" +
		"```\n" +
		"`server/world.go`, `render/`, `presets.go`, `cmd -> client -> {wire, netcode}`, `client.Game.Update`, " +
		"`-h`, `make gen`, `cmd/tankserver -web`, `tankclient -demo`, `linksim`, `motion_ratio`, " +
		"[RECORDINGS](RECORDINGS.md), see DEPLOY.md's steps")
	want := []string{"wire/", "wire.go", "server/recording", "PROTOCOL.md", "internal/", "netcode/",
		"internal/cdp/", "internal/scalesweep/", "internal/layering/",
		"server/world.go", "render/", "presets.go", "cmd/", "client/", "wire/", "netcode/", "cmd/tankserver", "linksim/",
		"docs/RECORDINGS.md", "DEPLOY.md"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("namedPaths = %q\nwant %q", got, want)
	}
}

// Drift in any form is caught: a tree that lacks what a page names, in each form, has each
// of those names reported, and nothing it has.
func TestArchitectureDoc_CatchesDrift(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"docs/DEPLOY.md", "internal/cdp/cdp.go", "server/world.go", "linksim/presets.go", "cmd/tankserver/main.go", "wire/wire.go"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc := "```\n" +
		"wire/      the bytes (wire.go, delta.go); carriage/ beside it\n" +
		"internal/  cdp (drives Chromium), scalesweep (gone)\n" +
		"```\n" +
		"`server/world.go` and `server/fire.go`; `presets.go` and `conditioner.go`; `cmd/tankserver -web` and `cmd/tankweb -port`; " +
		"`linksim` and `sim`; `wire -> {linksim, client}`; `wire/wire.go/`; [deploy](DEPLOY.md), [rooms](ROOMS.md); see DEPLOY.md and AGONES.md."
	missing, err := missingPaths(doc, root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"delta.go", "carriage/", "internal/scalesweep/", "server/fire.go", "conditioner.go", "cmd/tankweb", "sim/", "client/",
		"wire/wire.go/", "docs/ROOMS.md", "AGONES.md"}
	slices.Sort(missing)
	slices.Sort(want)
	if !slices.Equal(missing, want) {
		t.Errorf("missing = %q\nwant %q", missing, want)
	}
}
