package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"tanknet/internal/cliflag"
)

func main() {
	out := flag.String("out", "docs/MEASUREMENTS.md", "write the document to this `file`")
	only := flag.String("only", "", "run only the sections whose title matches this `regexp`, keeping the others as -out has them")
	cliflag.ParseCommandLine("measurements")
	re, err := regexp.Compile(*only)
	if err != nil {
		fail(err)
	}
	var old string // the document as it stands, whose other sections -only keeps
	if *only != "" {
		if b, err := os.ReadFile(*out); err == nil {
			old = string(b)
		}
	}
	var doc bytes.Buffer
	here := machine()
	elsewhere := false // the sections kept were measured on another machine than this one
	if kept, ok := header(old); ok {
		doc.WriteString(kept) // the machine line describes the sections kept
		elsewhere = !strings.Contains(kept, "**Machine:** "+withoutLoad(here)+";")
	} else {
		writeHeader(&doc, here)
	}
	run := func(title string, write func(w io.Writer)) {
		if kept, ok := sectionText(old, title); ok && !re.MatchString(title) {
			doc.WriteString(kept)
			return
		}
		if !re.MatchString(title) {
			return
		}
		fmt.Fprintf(os.Stderr, "measuring: %s\n", title)
		if !elsewhere {
			write(&doc)
			return
		}
		var sec bytes.Buffer // its own machine line, under its title
		write(&sec)
		doc.WriteString(underTitle(sec.String(), "**Measured on:** "+here+"."))
	}
	for _, s := range sections {
		limit := cmp.Or(s.timeout, runTimeout)
		run(s.title, func(w io.Writer) {
			writeSection(w, s, func(cmd []string) ([]byte, error) { return runCommandFor(cmd, limit) })
		})
	}
	run(matrix.title, func(w io.Writer) {
		writeMatrix(w, matrix, path.Dir(filepath.ToSlash(*out)), func(cmd []string) ([]byte, error) { return runCommandFor(cmd, matrixTimeout) })
	})
	doc.WriteString(otherChecks)
	if err := os.WriteFile(*out, doc.Bytes(), 0o644); err != nil {
		fail(err)
	}
}

// otherChecks lists the measurements that are tests or long runs of their own, with the
// commands that run them; their figures are in their output, not in this document.
const otherChecks = `
## Other checks, by command

| what | command |
|---|---|
| the server under attack: spoofed sources, floods, join bursts, churn, a client that never acknowledges, squatters that send a single datagram, leaks over 1000 connect/leave cycles | ` + "`go test -race -count=1 ./server -run 'TestFlood_\\|TestJoins_Burst\\|TestChurn_Joins\\|TestLeak_\\|TestSpoof_\\|TestSlots_' -v`" + ` |
| 32 bots across rooms for 10 minutes (three steady rooms of 8; a room of 8 opening and closing every 30 s) on a harsh network (1 s latency, 100 ms jitter, 25% loss and duplicates each way): every input applied once, in order, no bot dropped while it plays, memory and goroutines back to the baseline; figures in [SOAK.md](SOAK.md) | ` + "`make soak`" + ` |
| the cost of the hot paths (a tick's snapshots, judging a lag-compensated shot, a delta chunk) | ` + "`make bench`" + ` |
| bytes per client and server CPU against player count on the large arena | ` + "`go run ./tools/scalesweep -after bin -out docs/plots` (after `make build`)" + ` |
| LAN discovery: how soon ten servers on this host answer a round (the benchmark's answer_p50_ms and answer_max_ms); across two network namespaces joined by a veth pair, the answer_ms tanksim -discover prints there (root) | ` + "`go test ./discovery -run '^$' -bench TenServers -benchtime 20x`; `make lan-check`" + ` |
| what the window's lobby spends taking in a refresh of ten servers of three rooms (on the frame that picks it up; discovery itself runs on its own goroutine) | ` + "`go test ./render/view -run '^$' -bench LobbyRefresh -benchmem`" + ` |
| a thin client's CPU beside a full bot's, 64 of each against one server, one after the other; and what the kernel alone charges for the same datagrams (the floor no client that sends them goes below) | ` + "`bin/tankserver -addr 127.0.0.1:7890 -max-players 64 &`, then `time bin/tanksim -server 127.0.0.1:7890 -bots 64 -net none -duration 20s` and `time bin/tankload -server 127.0.0.1:7890 -players 64 -room-size 0 -duration 20s`; `go run ./tools/packetfloor -clients 64 -duration 20s`" + ` |
`

func fail(err error) {
	fmt.Fprintln(os.Stderr, "measurements:", err)
	os.Exit(1)
}

// runTimeout bounds one command: the longest plays 60 s (contact, the browser's eight pages),
// plus joining and the report.
const runTimeout = 3 * time.Minute

// runCommandFor runs cmd for at most limit and returns what it printed on stdout: one JSON
// report.
func runCommandFor(cmd []string, limit time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	c := exec.CommandContext(ctx, cmd[0], cmd[1:]...)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %s", strings.Join(cmd, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// machine describes where the measurements ran: processor, cores, kernel, Go, and the load
// when they started.
func machine() string {
	cpu := "unknown processor"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	load := "unknown"
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		f := strings.Fields(string(b))
		if len(f) >= 3 {
			load = strings.Join(f[:3], " ")
		}
	}
	kernel := "unknown"
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = strings.TrimSpace(string(b))
	}
	return fmt.Sprintf("%s, %d cores, %s/%s, Linux %s, %s; load average at the start %s (1, 5, 15 min)",
		cpu, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, kernel, runtime.Version(), load)
}

// underTitle returns section with line put after its "## " title line, a blank line on
// either side.
func underTitle(section, line string) string {
	i := strings.Index(section, "## ")
	if i < 0 {
		return section
	}
	end := strings.IndexByte(section[i:], '\n')
	if end < 0 {
		return section + "\n\n" + line + "\n"
	}
	end += i + 1
	return section[:end] + "\n" + line + "\n" + section[end:]
}

// withoutLoad returns a machine line without the load average at its end.
func withoutLoad(machine string) string {
	m, _, _ := strings.Cut(machine, "; load average")
	return m
}

func writeHeader(w io.Writer, machine string) {
	fmt.Fprintf(w, "# Measurements\n\n")
	fmt.Fprintf(w, "Generated by `make measurements` (tools/measurements): every table below comes from the\n")
	fmt.Fprintf(w, "commands listed under it, run one after another on the machine below, except a section\n")
	fmt.Fprintf(w, "that names its own: one rerun alone (-only) says where it ran. Run it again to check a\n")
	fmt.Fprintf(w, "figure; on a loaded machine the timing figures (frame rate, ticks, delays) are worse.\n")
	fmt.Fprintf(w, "Where tanks touch, a run may also find a pile-up the server had to separate itself\n")
	fmt.Fprintf(w, "(PROTOCOL.md §7c): each such pair moves two tanks their clients did not predict, so a\n")
	fmt.Fprintf(w, "residual count of 0 below may read 2 or 4 in another run (more often on a loaded machine);\n")
	fmt.Fprintf(w, "the run's `contact_figures.contacts` counts those pairs.\n\n")
	fmt.Fprintf(w, "**Machine:** %s.\n\n", machine)
	fmt.Fprintf(w, "The network presets are described in the README; `tanksim -h` and `tankclient -h` explain\n")
	fmt.Fprintf(w, "every flag, and `tanksim`'s JSON fields are documented in sim/report.go.\n")
}

// writeSection runs s's commands through run and writes its table; a run that fails gets a
// row saying why, so the document shows it rather than a stale figure.
func writeSection(w io.Writer, s section, run func([]string) ([]byte, error)) {
	fmt.Fprintf(w, "\n## %s\n\n%s\n\n", s.title, s.about)
	fmt.Fprintf(w, "| run |")
	for _, c := range s.cols {
		fmt.Fprintf(w, " %s |", c.header)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(s.cols)))
	type result struct {
		out []byte
		err error
	}
	ran := map[string]result{} // rows with the same command share its run
	for _, r := range s.rows {
		key := strings.Join(r.cmd, "\x00")
		res, ok := ran[key]
		if !ok {
			res.out, res.err = run(r.cmd)
			ran[key] = res
		}
		var report any
		err := res.err
		if err == nil {
			err = json.Unmarshal(res.out, &report)
		}
		if err == nil && r.path != "" {
			if report = lookup(report, r.path); report == nil {
				err = fmt.Errorf("the report has no %s", r.path)
			}
		}
		if err != nil {
			fmt.Fprintf(w, "| %s | failed: %s |%s\n", r.label, oneLine(err.Error()), strings.Repeat(" |", len(s.cols)-1))
			continue
		}
		fmt.Fprintf(w, "| %s |", r.label)
		writeCells(w, report, s.cols)
	}
	fmt.Fprintf(w, "\n```sh\n")
	printed := map[string]bool{}
	for _, r := range s.rows {
		if l := shellLine(r.cmd); !printed[l] {
			printed[l] = true
			fmt.Fprintln(w, l)
		}
	}
	fmt.Fprintf(w, "```\n")
}

// writeCells ends a table row with a cell per column of report, the figures at a column's
// paths joined by " / ".
func writeCells(w io.Writer, report any, cols []column) {
	for _, c := range cols {
		var vs []string
		for _, p := range strings.Fields(c.path) {
			vs = append(vs, format(lookup(report, p)))
		}
		fmt.Fprintf(w, " %s |", strings.Join(vs, " / "))
	}
	fmt.Fprintln(w)
}

// lookup follows a dotted path through a decoded JSON value, a number indexing an array
// ("groups.1.rtt_ms"); nil when it is absent.
func lookup(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// format writes a JSON value for a table cell: integers as integers, other numbers with
// three significant decimals, null as "-".
func format(v any) string {
	switch x := v.(type) {
	case nil:
		return "-"
	case float64:
		switch {
		case x == float64(int64(x)):
			return fmt.Sprint(int64(x))
		case x >= 100 || x <= -100:
			return fmt.Sprintf("%.0f", x)
		}
		return fmt.Sprintf("%.3g", x)
	default:
		return fmt.Sprint(x)
	}
}

// shellLine quotes cmd's words that need it for a shell.
func shellLine(cmd []string) string {
	q := make([]string, len(cmd))
	for i, a := range cmd {
		if strings.ContainsAny(a, " \"'$") {
			a = "'" + a + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", "/")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}
