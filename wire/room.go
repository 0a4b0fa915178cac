package wire

import "fmt"

// MaxRoomName is the longest room name a Hello may ask for, in bytes.
const MaxRoomName = 32

// CheckRoomName returns why name cannot be a Hello's room, or nil: 1 to 32 ASCII letters,
// digits, '-' or '_', or empty for the server's default room (PROTOCOL.md §4.2). A server
// refuses any other with REJECT_CODE_BAD_HELLO and this error's text; clients check before
// they dial.
func CheckRoomName(name string) error {
	if len(name) > MaxRoomName {
		return fmt.Errorf("room name %q is %d bytes; at most %d", ClipRoomName(name), len(name), MaxRoomName)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("room name %q has a byte 0x%02x at %d; use ASCII letters, digits, '-' and '_'", ClipRoomName(name), c, i)
		}
	}
	return nil
}

// ClipRoomName cuts a room name that may break the rules to MaxRoomName bytes, marked with
// "...", for an error message.
func ClipRoomName(s string) string {
	if len(s) > MaxRoomName {
		return s[:MaxRoomName] + "..."
	}
	return s
}
