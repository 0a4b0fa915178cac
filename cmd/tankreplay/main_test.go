package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const golden = "../../server/recording/testdata/golden.rec"

func TestParseFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // error text, "" for none
	}{
		{[]string{"verify", "a.rec"}, ""},
		{[]string{"diff", "a.rec", "b.rec"}, ""},
		{nil, "want a subcommand"},
		{[]string{"play", "a.rec"}, "unknown subcommand"},
		{[]string{"verify"}, "takes 1 file"},
		{[]string{"diff", "a.rec"}, "takes 2 file"},
		{[]string{"verify", "a.rec", "-h"}, "help requested"},
		{[]string{"-x", "verify", "a.rec"}, "flag provided but not defined: -x (tankreplay -h lists every flag)"},
	} {
		fs := flag.NewFlagSet("tankreplay", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		_, err := parseFlags(fs, c.args)
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.args, err, c.want)
		}
	}
}

func runOn(mode string, files ...string) (int, string) {
	var out, errOut bytes.Buffer
	code := run(Config{Mode: mode, Files: files}, &out, &errOut)
	return code, out.String() + errOut.String()
}

// verify says exact for the golden recording and names a byte offset for a truncated one;
// diff says same for a file and itself and names the first difference between two.
func TestRun(t *testing.T) {
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	short := filepath.Join(dir, "short.rec")
	os.WriteFile(short, data[:len(data)/2], 0o644)
	if code, out := runOn("verify", golden); code != 0 || !strings.HasPrefix(out, "exact\n") {
		t.Errorf("verify golden: %d %q", code, out)
	}
	if code, out := runOn("verify", short); code != 2 || !strings.Contains(out, "at byte") {
		t.Errorf("verify truncated: %d %q", code, out)
	}
	if code, out := runOn("verify", filepath.Join(dir, "missing.rec")); code != 2 || !strings.Contains(out, "no such file") {
		t.Errorf("verify missing: %d %q", code, out)
	}
	if code, out := runOn("diff", golden, golden); code != 0 || out != "same\n" {
		t.Errorf("diff itself: %d %q", code, out)
	}
	// A prefix that ends on a record boundary: diff says where one file ended.
	if code, out := runOn("diff", golden, short); code == 0 || out == "same\n" {
		t.Errorf("diff against a truncated copy: %d %q", code, out)
	}
}
