package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strings"
	"time"
)

// A matrixSection is one tanksim -matrix command: a table with a row per run of the matrix
// (its JSON report's "runs"), and the bar charts the command wrote with -plot.
type matrixSection struct {
	title, about string
	cmd          []string
	plotDir      string   // where cmd writes its charts, relative to the repository
	plots        []string // the charts to show, by file name without ".png"
	cols         []column
}

// matrixTimeout bounds the matrix command: 40 runs of 10 s each, with joining and reports.
const matrixTimeout = 20 * time.Minute

// writeMatrix runs s's command through run and writes its table, its charts (linked from
// docDir, the document's directory relative to the repository) and the command.
func writeMatrix(w io.Writer, s matrixSection, docDir string, run func([]string) ([]byte, error)) {
	fmt.Fprintf(w, "\n## %s\n\n%s\n\n", s.title, s.about)
	fmt.Fprintf(w, "| profile | lane | timeline | input buffer |")
	for _, c := range s.cols {
		fmt.Fprintf(w, " %s |", c.header)
	}
	fmt.Fprintf(w, "\n|---|---|---|---|%s\n", strings.Repeat("---|", len(s.cols)))
	var m struct {
		Runs  []map[string]any `json:"runs"`
		Notes []string         `json:"notes"`
	}
	out, err := run(s.cmd)
	if err == nil {
		err = json.Unmarshal(out, &m)
	}
	switch {
	case err != nil:
		fmt.Fprintf(w, "| failed: %s | | | |%s\n", oneLine(err.Error()), strings.Repeat(" |", len(s.cols)))
	case len(m.Runs) == 0:
		fmt.Fprintf(w, "| no run finished | | | |%s\n", strings.Repeat(" |", len(s.cols)))
	}
	for _, r := range m.Runs {
		fmt.Fprintf(w, "| %s | %s | %s | %s |", format(r["profile"]), format(r["lane"]), format(r["interp"]), format(r["input_buffer"]))
		writeCells(w, r, s.cols)
	}
	for _, n := range m.Notes {
		fmt.Fprintf(w, "\nNote: %s\n", n)
	}
	if err == nil && len(m.Runs) > 0 {
		fmt.Fprintln(w)
		for _, p := range s.plots {
			fmt.Fprintf(w, "![%s](%s)\n", p, relPath(docDir, path.Join(s.plotDir, p+".png")))
		}
	}
	fmt.Fprintf(w, "\n```sh\n%s\n```\n", shellLine(s.cmd))
}

// relPath returns target, a slash path from the repository's root, as seen from dir.
func relPath(dir, target string) string {
	dir = path.Clean(dir)
	if dir == "." {
		return target
	}
	up := strings.Repeat("../", strings.Count(dir, "/")+1)
	if rest, ok := strings.CutPrefix(target, dir+"/"); ok {
		return rest
	}
	return up + target
}
