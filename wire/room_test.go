package wire

import (
	"strings"
	"testing"
)

// TestCheckRoomName: 1 to 32 ASCII letters, digits, '-' or '_', or empty (the default
// room); anything else is refused naming the length or the first bad byte and its place.
func TestCheckRoomName(t *testing.T) {
	for _, c := range []struct{ in, err string }{
		{"", ""},
		{"Class-7_b", ""},
		{strings.Repeat("r", MaxRoomName), ""},
		{strings.Repeat("r", MaxRoomName+1), "is 33 bytes; at most 32"},
		{"a b", `"a b" has a byte 0x20 at 1`},
		{"blå", "0xc3 at 2"},
		{"room\x00", "0x00 at 4"},
	} {
		err := CheckRoomName(c.in)
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("CheckRoomName(%q) = %v, want an error saying %q", c.in, err, c.err)
		}
	}
}
