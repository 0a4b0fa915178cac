package server

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds on text a client chooses; whatever the server repeats to others must stay small.
const (
	maxNameBytes   = 32  // a label above a tank
	maxReasonBytes = 200 // a goodbye or drop reason, with room for our own prefix
)

// cleanText makes client-chosen text safe to show on every screen and in every log: it drops
// invalid UTF-8, ANSI escape sequences, control characters (CR, LF and tab become a space)
// and format characters (bidi overrides and isolates, zero-width joiners and the like),
// collapses runs of spaces, trims the ends and cuts the result to at most n bytes on a rune
// boundary.
func cleanText(s string, n int) string {
	s = strings.ToValidUTF8(s, "")
	var b strings.Builder
	b.Grow(min(len(s), n+utf8.UTFMax))
	space := false // a space is pending: written only before the next visible rune
	for i := 0; i < len(s) && b.Len() <= n; {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == 0x1b { // ESC: skip the whole escape sequence, not just its first byte
			i += escapeLen(s[i:])
			continue
		}
		i += size
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
		case !visible(r):
			// dropped
		default:
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
	}
	return cutBytes(b.String(), n)
}

// cutBytes returns s cut to at most n bytes on a rune boundary, without trailing space.
func cutBytes(s string, n int) string {
	for len(s) > n {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return strings.TrimRightFunc(s, unicode.IsSpace)
}

// visible reports whether r may appear in a name or reason: a letter, mark, number,
// punctuation or symbol. Controls, format characters (bidi overrides included), private use,
// surrogates, unassigned code points and line or paragraph separators are not.
func visible(r rune) bool { return unicode.IsGraphic(r) && !unicode.IsSpace(r) }

// escapeLen returns the length of the ANSI escape sequence at the start of s (valid UTF-8
// beginning with ESC): a CSI sequence "ESC [ params final"; otherwise ESC and the one
// character after it, whole, unless that is another ESC, which starts a sequence of its own.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	if s[1] != '[' {
		if s[1] == 0x1b {
			return 1
		}
		_, size := utf8.DecodeRuneInString(s[1:])
		return 1 + size
	}
	for i := 2; i < len(s); i++ {
		if c := s[i]; c >= 0x40 && c <= 0x7e { // the final byte of a CSI sequence
			return i + 1
		}
		if s[i] < 0x20 || s[i] > 0x3f { // not a parameter or intermediate byte: malformed
			return i
		}
	}
	return len(s)
}

// cleanName bounds a client-chosen display name; an empty one becomes "tank-<id>".
func cleanName(name string, id uint32) string {
	if name = cleanText(name, maxNameBytes); name == "" {
		name = fmt.Sprintf("tank-%d", id)
	}
	return name
}

// uniqueName returns name, or name with the smallest suffix " (2)", " (3)", ... that no
// player in the game uses, ignoring case. The result stays within maxNameBytes.
func (g *game) uniqueName(name string) string {
	taken := func(s string) bool {
		return slices.ContainsFunc(g.players(), func(p *player) bool { return strings.EqualFold(p.name, s) })
	}
	if !taken(name) {
		return name
	}
	for k := 2; ; k++ { // ends: at most MaxPlayers names are taken
		suffix := fmt.Sprintf(" (%d)", k)
		if s := cutBytes(name, maxNameBytes-len(suffix)) + suffix; !taken(s) {
			return s
		}
	}
}
