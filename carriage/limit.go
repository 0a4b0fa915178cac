//go:build !js

package carriage

import (
	"net/http"
	"net/netip"
	"time"
)

// hostOf returns what per-address limits count: ip, an IPv6 one by its /64.
func hostOf(ip netip.Addr) netip.Addr {
	if ip = ip.Unmap(); ip.Is6() {
		if p, err := ip.Prefix(64); err == nil {
			return p.Addr()
		}
	}
	return ip
}

// RequestHost returns what per-address limits count of an HTTP request: its source
// address, an IPv6 one by its /64 (the zero Addr when RemoteAddr does not parse).
func RequestHost(r *http.Request) netip.Addr { return hostOf(remoteIP(r)) }

// AddressLimiter is a token bucket per address (as RequestHost counts them): burst
// requests at once, then one every interval; the Hub's for offers. It remembers at most
// maxTracked addresses, forgetting full buckets first. Not safe for concurrent use (the
// Hub holds its lock, as must any other user).
type AddressLimiter struct {
	burst    int
	interval time.Duration
	by       map[netip.Addr]addressBucket
}

type addressBucket struct {
	tokens float64
	at     time.Time
}

// maxTracked bounds the limiter's memory: a bucket is some 50 bytes.
const maxTracked = 16384

// NewAddressLimiter returns a limiter of burst at once, then one every interval.
func NewAddressLimiter(burst int, interval time.Duration) *AddressLimiter {
	return &AddressLimiter{burst: burst, interval: interval, by: map[netip.Addr]addressBucket{}}
}

// Allow spends one of host's tokens at now, or reports how long until one is back.
func (l *AddressLimiter) Allow(host netip.Addr, now time.Time) (ok bool, retry time.Duration) {
	b, seen := l.by[host]
	if !seen {
		if len(l.by) >= maxTracked {
			l.forgetFull(now)
		}
		if len(l.by) >= maxTracked {
			return false, l.interval // a flood from many addresses: everyone waits
		}
		b = addressBucket{tokens: float64(l.burst), at: now}
	}
	b.tokens = min(float64(l.burst), b.tokens+float64(now.Sub(b.at))/float64(l.interval))
	b.at = now
	if b.tokens < 1 {
		l.by[host] = b
		return false, time.Duration((1 - b.tokens) * float64(l.interval))
	}
	b.tokens--
	l.by[host] = b
	return true, 0
}

// forgetFull drops the buckets that have refilled by now: forgetting them changes nothing.
func (l *AddressLimiter) forgetFull(now time.Time) {
	for host, b := range l.by {
		if b.tokens+float64(now.Sub(b.at))/float64(l.interval) >= float64(l.burst) {
			delete(l.by, host)
		}
	}
}
