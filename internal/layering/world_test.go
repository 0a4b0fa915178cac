package layering

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// worldStd is every standard package package world may import itself: none that opens a
// socket or file, logs, or reads a clock (time is there for time.Duration; see the clock
// check below).
var worldStd = []string{"cmp", "errors", "fmt", "math", "slices", "sort", "time"}

// TestWorld_NoIONoClock: package world, the authoritative match, is driven by plain calls
// with time as an argument. It depends on no tanknet package but netcode and nothing outside
// the module, imports no standard package that does I/O, and never reads the clock.
func TestWorld_NoIONoClock(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, d := range deps(t, "tanknet/world") {
		if d != "tanknet/world" && d != "tanknet/netcode" {
			t.Errorf("tanknet/world depends on %s: the world knows only netcode", d)
		}
	}
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}\n{{join .Imports \"\\n\"}}", "tanknet/world").Output()
	if err != nil {
		t.Fatalf("go list tanknet/world: %v", err)
	}
	lines := strings.Fields(string(out))
	dir, imports := lines[0], lines[1:]
	for _, imp := range imports {
		if !strings.HasPrefix(imp, "tanknet/") && !slices.Contains(worldStd, imp) {
			t.Errorf("tanknet/world imports %s: it does no I/O (allowed: %v)", imp, worldStd)
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	clock := []string{"Now", "Since", "Until", "Sleep", "After", "AfterFunc", "Tick", "NewTimer", "NewTicker"}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "time" && slices.Contains(clock, sel.Sel.Name) {
				t.Errorf("%s calls time.%s: the world's time is an argument", filepath.Base(f), sel.Sel.Name)
			}
			return true
		})
	}
}
