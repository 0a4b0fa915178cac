package view

import (
	"strings"
	"testing"

	"tanknet/netcode"
)

// TestNextContact_Cycles: C goes predicted, server, off and back to predicted; a mode the
// window does not know goes to predicted.
func TestNextContact_Cycles(t *testing.T) {
	m := netcode.ContactPredicted
	var seen []string
	for range 3 {
		m = NextContact(m)
		seen = append(seen, m.String())
	}
	if got := strings.Join(seen, " "); got != "server off predicted" {
		t.Errorf("NextContact from predicted, three times: %s, want server off predicted", got)
	}
	if got := NextContact(netcode.ContactUnspecified); got != netcode.ContactPredicted {
		t.Errorf("NextContact(unspecified) = %v, want predicted", got)
	}
}

// TestContactLines_SayTheModeAndItsCost: predicted counts the pushes and is plain; server
// counts the corrections and snaps and warns; off warns; C is named only where it works.
func TestContactLines_SayTheModeAndItsCost(t *testing.T) {
	c := ContactCount{Pushes: 12, Corrections: 3, Snaps: 1}
	for _, tc := range []struct {
		mode  netcode.ContactMode
		key   bool
		want  string
		style Style
	}{
		{netcode.ContactPredicted, true, "C contact predicted: pushed 12 fixed 4", Plain},
		{netcode.ContactServer, true, "C contact server: fixed 3 snapped 1", Warn},
		{netcode.ContactOff, false, "contact off: tanks pass through", Warn},
	} {
		ls := ContactLines(tc.mode, c, tc.key)
		if len(ls) != 1 || ls[0].Text != tc.want || ls[0].Style != tc.style {
			t.Errorf("ContactLines(%v) = %+v, want %q in style %d", tc.mode, ls, tc.want, tc.style)
		}
		// A long match's counts still fit the HUD's 40 columns, unwrapped.
		if long := ContactLines(tc.mode, ContactCount{Pushes: 999, Corrections: 90, Snaps: 9}, true); len(long[0].Text) > 40 {
			t.Errorf("ContactLines(%v) with large counts = %q: %d columns, want at most 40", tc.mode, long[0].Text, len(long[0].Text))
		}
	}
}
