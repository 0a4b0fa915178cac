// Command packetfloor measures what the kernel's per-packet work alone costs a load client:
// it sends and receives the datagrams a tanknet client does each 50 ms tick (given as counts
// and sizes), from many UDP sockets over loopback, to and from a sink in another process
// that plays the server, and reports its own process CPU per client tick. Nothing is
// decoded, acknowledged or retransmitted: whatever a real client costs beyond this figure is
// its own code, and no client that sends the same packets can cost less.
//
//	go run ./tools/packetfloor -clients 64 -up 1x51,1x51,0.6x51 -ack 1x42,0.33x44 -down 1x430,0.27x150
//
// Each -up, -ack and -down item is COUNTxBYTES: COUNT datagrams (a fraction adds up over
// ticks) of BYTES UDP payload per client per tick; the defaults (the line above) are
// tankload's 64 clients in one room, as its report's last line counts them: 2.6 datagrams
// of about 52 bytes sent and 2.6 of about 200 received a client tick. The sink sends the
// -ack datagrams as soon as a client's tick arrives (KCP acknowledges at once) and the -down
// ones on its own tick (the snapshot), so a client's datagrams arrive at two moments a tick,
// as a real client's do. On loopback the sending process also pays for delivering what it
// sends into the receiver's socket, as it does with a real server on the same machine,
// which is why the sink runs in a process of its own.
//
// Three modes say how far down the user-space side goes:
//   - goroutine: a reading goroutine per socket blocked in ReadFrom, as kcp-go's reader is,
//     and a goroutine sending each socket's tick: every arrival wakes a goroutine.
//   - drain: one goroutine for every socket, on the tick's clock: send, then read each
//     socket until it has nothing (one EAGAIN a socket a tick). Arrivals wake nothing.
//   - batch: drain with sendmmsg and recvmmsg, one call each a socket a tick: the fewest
//     system calls for the same datagrams, the kernel's floor. It holds every ACK back to the
//     tick, which a KCP client cannot do without changing what the server sees.
//   - all runs the three one after the other and prints each.
//
// What it showed for issue 38's figure, a thin client at 1/20 of a full bot's CPU, on a quiet
// 2-core Intel Xeon (load average below 0.5 at the start): tankload's 64 clients send 2.6
// datagrams of about 52 bytes and receive 2.6 of about 200 bytes a client tick (a Move on the
// stream, the InputBatch, FEC parity for every third stream packet, KCP acknowledgements both
// ways, the snapshot chunk, pings). Those datagrams alone cost 28 to 40 µs of CPU a client
// tick in all three modes over two runs, 0.72 to 1.01 s for 64 clients over 20 s, most of it
// system time. tanksim's 64 full bots (on -net none, as tankload plays) take 8.7 to 11.8 s
// for the same 20 s, so 1/20 of them is 0.44 to 0.59 s: less than the kernel alone charges
// for the datagrams. Batching does not help (the cost is per datagram, not per call), and a
// client that sent fewer datagrams would no longer load the server as a real one does. No
// thin client can meet the figure on this machine; what is left to win is its distance from
// this floor (package load's thin clients: 2.7 to 3.2 s, 2.7 to 4.4 times it). Hosts
// with faster cores charge fewer seconds for each.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"tanknet/internal/cliflag"
)

// tick is the client's and the server's clock: a tanknet tick.
const tick = 50 * time.Millisecond

// flow is COUNT datagrams of Size bytes per client per tick.
type flow struct {
	Count float64
	Size  int
}

// parseFlows reads "1x60,0.33x80".
func parseFlows(s string) ([]flow, error) {
	var out []flow
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item == "" {
			continue
		}
		c, b, ok := strings.Cut(item, "x")
		if !ok {
			return nil, fmt.Errorf("packetfloor: %q is not COUNTxBYTES", item)
		}
		n, err := strconv.ParseFloat(c, 64)
		if err != nil || n < 0 || n > 64 {
			return nil, fmt.Errorf("packetfloor: count %q outside [0, 64]", c)
		}
		size, err := strconv.Atoi(b)
		if err != nil || size < 1 || size > 1400 {
			return nil, fmt.Errorf("packetfloor: size %q outside [1, 1400]", b)
		}
		out = append(out, flow{n, size})
	}
	return out, nil
}

// due turns flows into whole datagram counts for one tick, carrying fractions in acc.
func due(flows []flow, acc []float64, sizes []int) []int {
	sizes = sizes[:0]
	for i, f := range flows {
		acc[i] += f.Count
		for acc[i] >= 1 {
			acc[i]--
			sizes = append(sizes, f.Size)
		}
	}
	return sizes
}

func main() {
	clients := flag.Int("clients", 64, "client sockets")
	duration := flag.Duration("duration", 10*time.Second, "how long each mode runs, after a second of warm-up")
	up := flag.String("up", "1x51,1x51,0.6x51", "client to server datagrams per client per tick, COUNTxBYTES,...")
	ack := flag.String("ack", "1x42,0.33x44", "server to client datagrams per client per tick sent as the client's tick arrives, COUNTxBYTES,...")
	down := flag.String("down", "1x430,0.27x150", "server to client datagrams per client per tick sent on the server's tick, COUNTxBYTES,...")
	mode := flag.String("mode", "all", "goroutine, drain, batch or all")
	sink := flag.Bool("sink", false, "internal: run as the sink")
	cliflag.ParseCommandLine("packetfloor")
	if *sink {
		if err := runSink(*ack, *down); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	upF, err := parseFlows(*up)
	if err == nil {
		_, err = parseFlows(*down)
	}
	if err == nil {
		_, err = parseFlows(*ack)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	modes := []string{*mode}
	if *mode == "all" {
		modes = []string{"goroutine", "drain", "batch"}
	}
	for _, m := range modes {
		r, err := measure(m, *clients, *duration, upF, *ack, *down)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(r)
	}
}

// result is one mode's figures.
type result struct {
	mode             string
	clients          int
	wall, cpu        time.Duration
	user, sys        time.Duration
	sent, received   uint64
	tickPerClientCPU time.Duration
}

func (r result) String() string {
	ticks := float64(r.clients) * r.wall.Seconds() / tick.Seconds()
	return fmt.Sprintf("%-9s %d clients %v: CPU %.3f s (user %.3f, sys %.3f) = %.1f µs per client tick, %.2f s per 20 s; per client tick %.2f sent, %.2f received",
		r.mode, r.clients, r.wall.Round(time.Millisecond), r.cpu.Seconds(), r.user.Seconds(), r.sys.Seconds(),
		float64(r.tickPerClientCPU)/float64(time.Microsecond), r.cpu.Seconds()*20/r.wall.Seconds(),
		float64(r.sent)/ticks, float64(r.received)/ticks)
}

// measure starts a sink process, opens the client sockets, runs mode for d after a
// second's warm-up and returns this process's CPU over d.
func measure(mode string, clients int, d time.Duration, up []flow, ack, down string) (result, error) {
	cmd := exec.Command(os.Args[0], "-sink", "-ack", ack, "-down", down)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return result{}, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		return result{}, fmt.Errorf("packetfloor: sink: %w", err)
	}
	sinkAddr, err := net.ResolveUDPAddr("udp", strings.TrimSpace(line))
	if err != nil {
		return result{}, err
	}
	conns := make([]*net.UDPConn, clients)
	for i := range conns {
		if conns[i], err = net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}); err != nil {
			return result{}, err
		}
		conns[i].SetReadBuffer(1 << 20)
		defer conns[i].Close()
		conns[i].WriteTo([]byte("hello"), sinkAddr) // the sink learns our address
	}
	var c counters
	stop := make(chan struct{})
	var wg sync.WaitGroup
	switch mode {
	case "goroutine":
		runGoroutines(conns, sinkAddr, up, &c, stop, &wg)
	case "drain":
		wg.Add(1)
		go func() { defer wg.Done(); runDrain(conns, sinkAddr, up, &c, stop) }()
	case "batch":
		wg.Add(1)
		go func() { defer wg.Done(); runBatch(conns, sinkAddr, up, &c, stop) }()
	default:
		return result{}, fmt.Errorf("packetfloor: unknown -mode %q", mode)
	}
	time.Sleep(time.Second)
	u0, s0 := usage()
	sent0, recv0 := c.load()
	t0 := time.Now()
	time.Sleep(d)
	u1, s1 := usage()
	sent1, recv1 := c.load()
	wall := time.Since(t0)
	close(stop)
	for _, cn := range conns {
		cn.SetReadDeadline(time.Now()) // wakes the readers
	}
	wg.Wait()
	r := result{mode: mode, clients: clients, wall: wall, user: u1 - u0, sys: s1 - s0,
		sent: sent1 - sent0, received: recv1 - recv0}
	r.cpu = r.user + r.sys
	r.tickPerClientCPU = time.Duration(float64(r.cpu) / (float64(clients) * wall.Seconds() / tick.Seconds()))
	return r, nil
}

// counters counts datagrams across goroutines.
type counters struct {
	mu             sync.Mutex
	sent, received uint64
}

func (c *counters) add(sent, received uint64) {
	c.mu.Lock()
	c.sent += sent
	c.received += received
	c.mu.Unlock()
}

func (c *counters) load() (sent, received uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sent, c.received
}

// runGoroutines reads each socket on a goroutine of its own and sends every socket's tick
// from one more, on the tick's clock.
func runGoroutines(conns []*net.UDPConn, to *net.UDPAddr, up []flow, c *counters, stop chan struct{}, wg *sync.WaitGroup) {
	for _, cn := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 2048)
			for {
				if _, _, err := cn.ReadFromUDP(buf); err != nil {
					return
				}
				c.add(0, 1)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		send(conns, to, up, c, stop, nil)
	}()
}

// runDrain sends each socket's tick and then reads every socket dry, on one goroutine.
func runDrain(conns []*net.UDPConn, to *net.UDPAddr, up []flow, c *counters, stop chan struct{}) {
	raws := make([]syscall.RawConn, len(conns))
	for i, cn := range conns {
		raws[i], _ = cn.SyscallConn()
	}
	buf := make([]byte, 2048)
	drain := func() {
		var got uint64
		for _, rc := range raws {
			rc.Read(func(fd uintptr) bool {
				for {
					if _, _, err := syscall.Recvfrom(int(fd), buf, syscall.MSG_DONTWAIT); err != nil {
						return true // EAGAIN: dry; never park in the poller
					}
					got++
				}
			})
		}
		c.add(0, got)
	}
	send(conns, to, up, c, stop, drain)
}

// wait calls f every tick until stop closes.
func wait(stop chan struct{}, f func()) {
	timer := time.NewTimer(tick)
	defer timer.Stop()
	for next := time.Now().Add(tick); ; next = next.Add(tick) {
		timer.Reset(time.Until(next))
		select {
		case <-stop:
			return
		case <-timer.C:
		}
		f()
	}
}

// send writes every socket's datagrams each tick, then calls after (if any).
func send(conns []*net.UDPConn, to *net.UDPAddr, up []flow, c *counters, stop chan struct{}, after func()) {
	acc := make([][]float64, len(conns))
	for i := range acc {
		acc[i] = make([]float64, len(up))
	}
	payload := make([]byte, 1400)
	var sizes []int
	wait(stop, func() {
		var n uint64
		for i, cn := range conns {
			sizes = due(up, acc[i], sizes)
			for k, s := range sizes {
				payload[0] = 0
				if k == 0 {
					payload[0] = 1 // the tick's first: the sink acknowledges it
				}
				if _, err := cn.WriteToUDP(payload[:s], to); err == nil {
					n++
				}
			}
		}
		c.add(n, 0)
		if after != nil {
			after()
		}
	})
}

// runSink is the server's side: it learns client addresses from what they send, answers
// the first datagram of each client tick with the -ack datagrams and, every tick, sends each
// client the -down datagrams. It prints its address first.
func runSink(ack, down string) error {
	flows, err := parseFlows(down)
	if err != nil {
		return err
	}
	acks, err := parseFlows(ack)
	if err != nil {
		return err
	}
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return err
	}
	pc.SetReadBuffer(4 << 20)
	fmt.Println(pc.LocalAddr())
	var mu sync.Mutex
	var peers []*net.UDPAddr
	go func() {
		buf := make([]byte, 2048)
		reply := make([]byte, 1400)
		ackAcc := map[netip.AddrPort][]float64{}
		var sizes []int
		for {
			n, from, err := pc.ReadFromUDPAddrPort(buf)
			if err != nil {
				if errors.Is(err, net.ErrClosed) {
					return
				}
				continue
			}
			acc := ackAcc[from]
			if acc == nil {
				acc = make([]float64, len(acks))
				ackAcc[from] = acc
				mu.Lock()
				peers = append(peers, net.UDPAddrFromAddrPort(from))
				mu.Unlock()
			}
			if n > 0 && buf[0] == 1 {
				sizes = due(acks, acc, sizes)
				for _, s := range sizes {
					pc.WriteToUDPAddrPort(reply[:s], from)
				}
			}
		}
	}()
	payload := make([]byte, 1400)
	accs := map[*net.UDPAddr][]float64{}
	var sizes []int
	for next := time.Now(); ; {
		next = next.Add(tick)
		time.Sleep(time.Until(next))
		mu.Lock()
		ps := peers
		mu.Unlock()
		for _, p := range ps {
			acc := accs[p]
			if acc == nil {
				acc = make([]float64, len(flows))
				accs[p] = acc
			}
			sizes = due(flows, acc, sizes)
			for _, s := range sizes {
				pc.WriteToUDP(payload[:s], p)
			}
		}
	}
}

// usage returns this process's user and system CPU so far.
func usage() (user, sys time.Duration) {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}
