package transport

import (
	"net/netip"
	"time"
)

// The Challenge budget is shared fairly among source prefixes, so that a flood from many
// spoofed sources cannot starve honest joins. Sources are grouped by prefix (/24 for IPv4,
// /64 for IPv6): a network that filters spoofed sources (BCP 38) confines an attacker to
// its own prefix, and one host's or one NAT's players share one. Each prefix heard from
// recently has a token bucket that refills at the budget (DefaultChallengesPerSecond unless
// the Listener was told otherwise) divided among all of them, and starts with prefixBurst
// tokens; so a prefix that asks for little, as an honest client's does, gets its Challenges
// whatever the others send, and the total stays near the budget. A flood spread over more than maxPrefixes prefixes at once shares
// one more bucket with every prefix first heard after the table filled: that is the limit
// of this defence (a flood spoofing the whole address space looks like many honest hosts).
const (
	// prefixBurst is the Challenges a prefix may have at once: a LAN party's players
	// behind one NAT joining together, each with a retry.
	prefixBurst = 32
	// maxPrefixes bounds the prefixes remembered, about 100 bytes each.
	maxPrefixes = 4096
	// prefixBitsV4 and prefixBitsV6 are the prefix lengths sources are grouped by.
	prefixBitsV4, prefixBitsV6 = 24, 64
)

// challengeShare divides the Challenge budget among source prefixes. Not safe for
// concurrent use: the gate's reading goroutine alone uses it.
type challengeShare struct {
	rate     float64 // Challenges a second, all prefixes together
	prefixes map[netip.Prefix]*tokenBucket
	overflow *tokenBucket // for prefixes first heard while the table was full
}

func newChallengeShare(rate float64) *challengeShare {
	return &challengeShare{rate: rate, prefixes: map[netip.Prefix]*tokenBucket{},
		overflow: &tokenBucket{burst: prefixBurst, tokens: prefixBurst}}
}

// sourcePrefix returns the prefix a source address is grouped in.
func sourcePrefix(a netip.Addr) netip.Prefix {
	a = a.Unmap()
	bits := prefixBitsV6
	if a.Is4() {
		bits = prefixBitsV4
	}
	p, _ := a.Prefix(bits) // an invalid address makes the zero Prefix: one group
	return p
}

// take reports whether a Challenge to a may be sent at now, and spends it.
func (s *challengeShare) take(a netip.Addr, now time.Duration) bool {
	p := sourcePrefix(a)
	b := s.prefixes[p]
	if b == nil {
		b = s.overflow
		if len(s.prefixes) < maxPrefixes {
			b = &tokenBucket{burst: prefixBurst, tokens: prefixBurst, at: now}
			s.prefixes[p] = b
		}
	}
	b.rate = s.rate / float64(len(s.prefixes)+1) // the overflow bucket counts as one more
	return b.take(now)
}

// sweep forgets the prefixes whose bucket is full again: they have asked for nothing for a
// while, and a new bucket would start the same.
func (s *challengeShare) sweep(now time.Duration) {
	for p, b := range s.prefixes {
		if b.tokens+(now-b.at).Seconds()*b.rate >= b.burst {
			delete(s.prefixes, p)
		}
	}
}
