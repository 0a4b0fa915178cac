package server

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestCleanText_StripsWhatScreensAndLogsMisread(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "ada", "ada"},
		{"CR LF and tab become one space", "ada\r\n\tbob", "ada bob"},
		{"ANSI colour", "\x1b[31mred\x1b[0m", "red"},
		{"ANSI cursor movement", "a\x1b[2J\x1b[Hb", "ab"},
		{"lone ESC at the end", "ok\x1b", "ok"},
		{"two-byte escape", "a\x1bcb", "ab"},
		{"ESC before a multi-byte character takes the whole character", "a\x1bé b", "a b"},
		{"ESC before ESC: the second starts its own sequence", "a\x1b\x1b[1mb", "ab"},
		{"bidi override", "evil\u202egnp.exe", "evilgnp.exe"},
		{"bidi isolates and marks", "\u2066a\u2069\u200fb\u200e", "ab"},
		{"zero-width characters", "a\u200bb\u200dc\ufeff", "abc"},
		{"C1 control", "a\u0085\u009bb", "a b"},
		{"line separator", "a\u2028b", "a b"},
		{"NUL and BEL", "a\x00b\x07", "ab"},
		{"private use", "a\ue000b", "ab"},
		{"invalid UTF-8", "bad\xffutf8", "badutf8"},
		{"runs of spaces collapse", "  a    b  ", "a b"},
		{"accents and CJK stay", "Zoë 戦車", "Zoë 戦車"},
		{"only junk", "\x1b[0m\u202e\r\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cleanText(tt.in, maxReasonBytes); got != tt.want {
				t.Errorf("cleanText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestCleanText_OutputIsBoundedAndVisible(t *testing.T) {
	inputs := []string{
		strings.Repeat("x", 20000),
		strings.Repeat("é", 300),
		strings.Repeat("a ", 300),
		strings.Repeat("\u202e\x1b[1m", 1000) + "tail",
	}
	for _, in := range inputs {
		for _, n := range []int{1, 5, maxNameBytes, maxReasonBytes} {
			got := cleanText(in, n)
			if len(got) > n || !utf8.ValidString(got) || strings.TrimSpace(got) != got {
				t.Errorf("cleanText(%.20q..., %d) = %q: want valid, trimmed and at most %d bytes", in, n, got, n)
			}
			for _, r := range got {
				if r != ' ' && !unicode.IsGraphic(r) {
					t.Errorf("cleanText(%.20q..., %d) kept %U", in, n, r)
				}
			}
		}
	}
}

func TestWorld_NamesAreUnique(t *testing.T) {
	w := newTestWorld(t, nil)
	long := strings.Repeat("n", maxNameBytes)
	want := []struct{ in, name string }{
		{"ada", "ada"},
		{"ada", "ada (2)"},
		{"ADA", "ADA (3)"}, // names differing only in case are the same name to a reader
		{"ada\u202e", "ada (4)"},
		{"ada (2)", "ada (2) (2)"},
		{long, long},
		{long, long[:maxNameBytes-4] + " (2)"},
	}
	for _, tt := range want {
		p, _ := mustJoin(t, w, 0, tt.in)
		if p.name != tt.name {
			t.Errorf("join as %q: named %q, want %q", tt.in, p.name, tt.name)
		}
	}
	w.leave(w.players()[0].tank.ID(), "goodbye")
	if p, _ := mustJoin(t, w, 0, "ada"); p.name != "ada" {
		t.Errorf("after ada left, a new ada is named %q, want the name free again", p.name)
	}
}

func TestCleanName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  ada  ", "ada"},
		{"", "tank-7"},
		{"   ", "tank-7"},
		{"bad\xffutf8", "badutf8"},
		{strings.Repeat("é", 20), strings.Repeat("é", 16)}, // 2 bytes each: cut at 32 bytes, on a rune boundary
	}
	for _, tt := range tests {
		if got := cleanName(tt.in, 7); got != tt.want {
			t.Errorf("cleanName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
