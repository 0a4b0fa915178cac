// Package promtext reads the Prometheus text format as a tankserver's -metrics serves it,
// for the tools that measure a running server (tanksim's server figures, loadcurve,
// webmeasure): each series, by its name and labels as written, to its value.
package promtext

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// Series maps each series (`name` or `name{labels}`, as the text writes it) to its value.
type Series map[string]float64

// Read parses Prometheus text from r. Comments, blank lines and samples whose value it does
// not read are skipped; only a failed read is an error.
func Read(r io.Reader) (Series, error) {
	s := Series{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		i := strings.LastIndexByte(line, ' ')
		if line == "" || line[0] == '#' || i < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			s[line[:i]] = v
		}
	}
	return s, sc.Err()
}

// Sum adds every series of the family name, whatever its labels.
func (s Series) Sum(name string) float64 {
	total := 0.0
	for k, v := range s {
		if k == name || strings.HasPrefix(k, name+"{") {
			total += v
		}
	}
	return total
}
