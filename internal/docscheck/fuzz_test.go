package docscheck

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the repository's top, from this package's directory.
const repoRoot = "../.."

// fuzzTargetsVar is the Makefile's list of what make fuzz runs: "FuzzName:./dir" words, over
// as many lines as the backslashes continue it.
var fuzzTargetsVar = regexp.MustCompile(`(?m)^FUZZ_TARGETS\s*:=((?:.*\\\n)*.*)`)

// fuzzFunc matches a fuzz test's declaration in a _test.go file.
var fuzzFunc = regexp.MustCompile(`(?m)^func (Fuzz\w*)\(\w+ \*testing\.F\)`)

// TestMakefile_FuzzRunsEveryFuzzTest: make fuzz names each fuzz test in the package that
// declares it, and every one the tree has. go test -fuzz in a package without the named test
// only warns and passes, so a moved or new fuzz test would otherwise never be fuzzed.
func TestMakefile_FuzzRunsEveryFuzzTest(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join(repoRoot, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := fuzzTargetsVar.FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile has no FUZZ_TARGETS")
	}
	var listed []string
	for _, w := range strings.Fields(strings.ReplaceAll(string(m[1]), "\\", " ")) {
		name, dir, ok := strings.Cut(w, ":")
		if !ok {
			t.Errorf("FUZZ_TARGETS word %q is not FuzzName:./dir", w)
			continue
		}
		listed = append(listed, strings.TrimPrefix(dir, "./")+"."+name)
	}

	var declared []string
	err = filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != repoRoot && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, filepath.Dir(path))
		for _, f := range fuzzFunc.FindAllSubmatch(src, -1) {
			declared = append(declared, filepath.ToSlash(rel)+"."+string(f[1]))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(declared) == 0 {
		t.Fatal("found no fuzz tests in the tree")
	}
	for _, l := range listed {
		if !slices.Contains(declared, l) {
			t.Errorf("FUZZ_TARGETS names %s, which that package does not declare", l)
		}
	}
	for _, d := range declared {
		if !slices.Contains(listed, d) {
			t.Errorf("fuzz test %s is not in the Makefile's FUZZ_TARGETS", d)
		}
	}
}
