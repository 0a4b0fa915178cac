// Package testbuild builds what a package's tests run as a user would (a program, the
// browser page) once per test process: the first test that asks builds it into a folder of
// its own, later ones wait for that build and share it, and Main removes the folder when
// the tests end. A test process that panics or times out never gets there and leaves its
// folders behind in the temporary directory, named tanknet-test-*. It is for tests only.
package testbuild

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sync"
	"testing"
)

// Once is one thing built once per test process: call Dir or Program on it the same way
// every time. Its zero value is ready to use; declare it as a package variable and hand it to
// Main.
type Once struct {
	once sync.Once
	dir  string
	err  error
}

// Dir returns the folder build filled. The first call makes the folder and calls build with
// it; the others wait for that call. It fails t if the folder could not be made or build
// failed, on that call or an earlier one.
func (o *Once) Dir(t testing.TB, build func(dir string) error) string {
	t.Helper()
	o.once.Do(func() {
		if o.dir, o.err = os.MkdirTemp("", "tanknet-test-"); o.err == nil {
			o.err = build(o.dir)
		}
	})
	if o.err != nil {
		t.Fatal(o.err)
	}
	return o.dir
}

// Program builds the Go program importPath (a main package of this module) once, as Dir,
// and returns the binary's path: the folder and the import path's last element.
func (o *Once) Program(t testing.TB, importPath string) string {
	t.Helper()
	name := path.Base(importPath)
	dir := o.Dir(t, func(dir string) error {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, name), importPath).CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", importPath, err, out)
		}
		return nil
	})
	return filepath.Join(dir, name)
}

// remove removes the folder, if the build made one.
func (o *Once) remove() {
	if o.dir != "" {
		os.RemoveAll(o.dir)
	}
}

// Main runs m's tests, removes every folder builds made, and exits with the tests' code: a
// TestMain of one line.
func Main(m *testing.M, builds ...*Once) {
	code := m.Run()
	for _, b := range builds {
		b.remove()
	}
	os.Exit(code)
}
