package discovery

import (
	"fmt"
	"net/netip"
	"time"
)

// Limits is how many answers a Responder sends. The defaults (DefaultLimits) let a lobby
// that asks every two seconds through several network cards get every answer, while a
// flood, spoofed or not, gets a trickle.
type Limits struct {
	// Burst is how many answers one source (an IPv4 address, an IPv6 /64) gets at once.
	Burst int
	// PerSecond is how fast a source's burst refills, in answers a second.
	PerSecond float64
	// Sources is how many sources are tracked at once; a new source beyond them gets no
	// answer until a tracked source's bucket has refilled and it is forgotten.
	Sources int
	// TotalPerSecond bounds every answer together, in answers a second (with a burst of
	// as many): at most this times MaxDatagram bytes a second leave the server.
	TotalPerSecond float64
}

// DefaultLimits returns the limits PROTOCOL.md §12 documents.
func DefaultLimits() Limits {
	return Limits{
		Burst:          16,   // two requests a round through up to eight addresses
		PerSecond:      8,    // a round every 2 s at that: a quarter of it
		Sources:        1024, // a LAN has fewer hosts asking at once
		TotalPerSecond: 256,  // 300 KB/s of answers at most, whoever asks
	}
}

// Validate reports the first limit that cannot work.
func (l Limits) Validate() error {
	if l.Burst < 1 || l.PerSecond <= 0 || l.Sources < 1 || l.TotalPerSecond < 1 {
		return fmt.Errorf("discovery: limits %+v: each must be positive (burst and total at least 1)", l)
	}
	return nil
}

// bucket is a token bucket: tokens left at last.
type bucket struct {
	tokens float64
	last   time.Time
}

// take refills b at rate up to burst for the time since its last take, and takes one
// token if there is one.
func (b *bucket) take(now time.Time, rate, burst float64) bool {
	if dt := now.Sub(b.last).Seconds(); dt > 0 {
		b.tokens = min(burst, b.tokens+dt*rate)
		b.last = now
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// full reports whether b would be full at now.
func (b *bucket) full(now time.Time, rate, burst float64) bool {
	return b.tokens+now.Sub(b.last).Seconds()*rate >= burst
}

// limiter holds one bucket per source and one for all. Not safe for concurrent use: one
// Responder goroutine owns it.
type limiter struct {
	lim     Limits
	sources map[netip.Prefix]*bucket
	total   bucket
	swept   time.Time // when forgetFull last ran: a flood of new sources sweeps once a second
}

func newLimiter(lim Limits, now time.Time) *limiter {
	return &limiter{lim: lim, sources: map[netip.Prefix]*bucket{}, total: bucket{tokens: lim.TotalPerSecond, last: now}}
}

// sourceOf returns the prefix src is limited by: its IPv4 address, or its IPv6 /64.
func sourceOf(src netip.Addr) netip.Prefix {
	src = src.Unmap()
	if src.Is4() {
		return netip.PrefixFrom(src, 32)
	}
	p, _ := src.WithZone("").Prefix(64)
	return p
}

// allow reports whether src may be answered at now, and takes its tokens if so.
func (l *limiter) allow(src netip.Addr, now time.Time) bool {
	key := sourceOf(src)
	b := l.sources[key]
	if b == nil {
		if len(l.sources) >= l.lim.Sources && now.Sub(l.swept) >= time.Second {
			l.forgetFull(now)
			l.swept = now
		}
		if len(l.sources) >= l.lim.Sources {
			return false
		}
		b = &bucket{tokens: float64(l.lim.Burst), last: now}
		l.sources[key] = b
	}
	if !b.take(now, l.lim.PerSecond, float64(l.lim.Burst)) {
		return false
	}
	return l.total.take(now, l.lim.TotalPerSecond, l.lim.TotalPerSecond)
}

// forgetFull forgets every source whose bucket has refilled: it would start full anyway.
func (l *limiter) forgetFull(now time.Time) {
	for k, b := range l.sources {
		if b.full(now, l.lim.PerSecond, float64(l.lim.Burst)) {
			delete(l.sources, k)
		}
	}
}
