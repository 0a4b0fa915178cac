package discovery

import (
	"bytes"
	"testing"
)

// FuzzParseRequest feeds the request decoder any bytes: it never panics, and what it
// accepts is a request of the size it read.
func FuzzParseRequest(f *testing.F) {
	req, _ := AppendRequest(nil, 1, MinRequest)
	f.Add(req)                    // a well-formed request
	f.Add(req[:MinRequest-1])     // one byte short
	f.Add(req[:headerSize])       // the header alone
	f.Add([]byte("TNK!\xe1\x02")) // the game's own connect handshake
	ans, _ := AppendAnswer(nil, sample(), MaxDatagram)
	f.Add(ans) // an answer sent back at a server
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseRequest(b)
		if err == nil && (r.Size != len(b) || r.Budget() > len(b)*MaxRatio) {
			t.Fatalf("ParseRequest(%d bytes) = %+v", len(b), r)
		}
	})
}

// FuzzParseAnswer feeds the answer decoder any bytes: it never panics, and an answer it
// accepts encodes again to the bytes it read, minus any trailing bytes it ignored.
func FuzzParseAnswer(f *testing.F) {
	ans, _ := AppendAnswer(nil, sample(), MaxDatagram)
	f.Add(ans)                  // a well-formed answer
	f.Add(ans[:len(ans)-1])     // cut in the last room
	f.Add(append(ans, 1, 2, 3)) // with bytes a later version might add
	empty := sample()
	empty.Rooms, empty.RoomsOpen = nil, 0
	noRooms, _ := AppendAnswer(nil, empty, MaxDatagram)
	f.Add(noRooms) // no rooms
	req, _ := AppendRequest(nil, 1, MinRequest)
	f.Add(req) // a request, not an answer
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := ParseAnswer(b)
		if err != nil {
			return
		}
		again, err := AppendAnswer(nil, a, len(b))
		if err != nil {
			t.Fatalf("ParseAnswer accepted %+v, which AppendAnswer refuses: %v", a, err)
		}
		// Flag bits other than draining are ignored, so compare without them.
		want := bytes.Clone(b[:len(again)])
		want[23] &= flagDraining
		if !bytes.Equal(again, want) {
			t.Fatalf("ParseAnswer(%x) = %+v, which encodes as %x", b, a, again)
		}
	})
}
