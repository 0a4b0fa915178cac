package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ebitenModule is the import path prefix of everything Ebitengine.
const ebitenModule = "github.com/hajimehoshi/ebiten/"

// headless are the packages that must never pull in Ebitengine, each with why: Ebitengine
// needs cgo and an X display just to start, and panics at init without one.
var headless = []struct{ pkg, why string }{
	{"tanknet/netcode", "pure game logic shared with the server"},
	{"tanknet/transport", "used by the server"},
	{"tanknet/server", "runs on machines without a display"},
	{"tanknet/client", "bots and tanksim run it headless"},
	{"tanknet/render/view", "its tests must run without a display"},
	{"tanknet/render/matchplay", "a recording set plays and is tested without a display"},
	{"tanknet/cmd/tankserver", "runs on machines without a display"},
	{"tanknet/sim", "the measuring instrument runs in CI without a display"},
	{"tanknet/cmd/tanksim", "runs in CI without a display"},
}

// moduleRoot returns the directory holding go.mod.
func moduleRoot(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		t.Fatal("not inside a Go module")
	}
	return filepath.Dir(gomod)
}

// deps returns every package pkg depends on, itself included.
func deps(t *testing.T, root, pkg string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", pkg)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

func TestOnlyTheWindowImportsEbitengine(t *testing.T) {
	root := moduleRoot(t)
	for _, h := range headless {
		t.Run(h.pkg, func(t *testing.T) {
			for _, d := range deps(t, root, h.pkg) {
				if strings.HasPrefix(d, ebitenModule) {
					t.Errorf("%s depends on %s, but it must not (%s)", h.pkg, d, h.why)
					return
				}
			}
		})
	}
	// The check above would pass vacuously if the module path changed: make sure the
	// window itself does import Ebitengine.
	found := false
	for _, d := range deps(t, root, "tanknet/cmd/tankclient") {
		found = found || strings.HasPrefix(d, ebitenModule)
	}
	if !found {
		t.Errorf("tanknet/cmd/tankclient does not depend on %s*; is the ban list stale?", ebitenModule)
	}
}

func TestHeadlessPackagesBuildWithoutCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds several packages")
	}
	root := moduleRoot(t)
	args := []string{"build"}
	for _, h := range headless {
		args = append(args, h.pkg)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("CGO_ENABLED=0 go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
