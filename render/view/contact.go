package view

import (
	"fmt"

	"tanknet/netcode"
)

// NextContact returns the contact mode the demo's C key switches the room to after m:
// predicted, then server (the old way), then off, then predicted again.
func NextContact(m netcode.ContactMode) netcode.ContactMode {
	switch m {
	case netcode.ContactPredicted:
		return netcode.ContactServer
	case netcode.ContactServer:
		return netcode.ContactOff
	}
	return netcode.ContactPredicted
}

// ContactCount is what one client's contact did since its room's mode last changed: the
// inputs it sent with a push (netcode.LocalCounters.Pushes), and the reconciliations that
// corrected or snapped its tank (with exact prediction, every one of them is contact the
// client did not predict: the server's pushes in contact server).
type ContactCount struct {
	Pushes, Corrections, Snaps int
}

// ContactLines are the HUD's line on contact: the room's mode with the key that switches it
// (canSwitch: the demo's C), and what it cost this client, counted since the mode began
// (fixed: corrections and snaps). It fits the HUD's 40 columns with up to 999 pushes.
func ContactLines(m netcode.ContactMode, c ContactCount, canSwitch bool) []Line {
	key := ""
	if canSwitch {
		key = "C "
	}
	switch m {
	case netcode.ContactPredicted:
		return []Line{{fmt.Sprintf("%scontact predicted: pushed %d fixed %d", key, c.Pushes, c.Corrections+c.Snaps), Plain}}
	case netcode.ContactServer:
		return []Line{{fmt.Sprintf("%scontact server: fixed %d snapped %d", key, c.Corrections, c.Snaps), Warn}}
	}
	return []Line{{fmt.Sprintf("%scontact %s: tanks pass through", key, m), Warn}}
}
