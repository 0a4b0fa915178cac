package discovery

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// sample is an answer with every field set, the default room first as tankserver lists it.
func sample() Answer {
	return Answer{
		Nonce: 0xdeadbeef, ServerID: 0x0123456789abcdef, Name: "Tänk lab", GameProtocol: 2,
		Draining: true, GamePort: 7777, WebPort: 8080, RoomCapacity: 16, MaxRooms: 8,
		RoomsOpen: 3, Players: 5, Rooms: []Room{{"default", 4}, {"duel", 1}, {"empty-room_2", 0}},
	}
}

func TestAnswerRoundTrip(t *testing.T) {
	a := sample()
	b, err := AppendAnswer(nil, a, MaxDatagram)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseAnswer(b)
	if err != nil {
		t.Fatalf("ParseAnswer(AppendAnswer(%+v)): %v", a, err)
	}
	if !reflect.DeepEqual(got, a) {
		t.Errorf("ParseAnswer(AppendAnswer(%+v)) = %+v", a, got)
	}
}

func TestRequestRoundTrip(t *testing.T) {
	for _, size := range []int{MinRequest, 500, MaxDatagram} {
		b, err := AppendRequest(nil, 42, size)
		if err != nil || len(b) != size {
			t.Fatalf("AppendRequest(42, %d) = %d bytes, %v", size, len(b), err)
		}
		r, err := ParseRequest(b)
		if err != nil || r != (Request{Nonce: 42, Size: size}) {
			t.Errorf("ParseRequest(%d bytes) = %+v, %v, want nonce 42 size %d", size, r, err, size)
		}
	}
	for _, size := range []int{0, MinRequest - 1, MaxDatagram + 1} {
		if _, err := AppendRequest(nil, 1, size); err == nil {
			t.Errorf("AppendRequest(size %d) succeeded, want an error", size)
		}
	}
}

// TestAnswerNeverOutgrowsItsRequest is the amplification rule: for every request size a
// server answers, the answer (with as many rooms of the longest names as a server may
// have) is at most MaxRatio times the request's bytes, and lists as many rooms as fit.
func TestAnswerNeverOutgrowsItsRequest(t *testing.T) {
	a := sample()
	a.Name = strings.Repeat("n", MaxName)
	a.Rooms = nil
	for i := range 256 {
		a.Rooms = append(a.Rooms, Room{Name: strings.Repeat("r", MaxName-3) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "x", Players: 65535})
	}
	a.RoomsOpen = len(a.Rooms)
	const roomBytes = 1 + MaxName + 2
	for size := MinRequest; size <= MaxDatagram+100; size++ {
		req, _ := AppendRequest(nil, 7, min(size, MaxDatagram))
		r, err := ParseRequest(append(req, make([]byte, size-len(req))...))
		if err != nil {
			t.Fatalf("ParseRequest(%d bytes): %v", size, err)
		}
		b, err := AppendAnswer(nil, a, r.Budget())
		if err != nil {
			t.Fatalf("AppendAnswer for a %d-byte request: %v", size, err)
		}
		if len(b) > size*MaxRatio || len(b) > MaxDatagram {
			t.Fatalf("a %d-byte request is answered with %d bytes, want at most %d", size, len(b), min(size*MaxRatio, MaxDatagram))
		}
		got, err := ParseAnswer(b)
		if err != nil {
			t.Fatalf("ParseAnswer(answer to %d bytes): %v", size, err)
		}
		if room := len(b) + roomBytes; room <= r.Budget() && len(got.Rooms) < a.RoomsOpen {
			t.Fatalf("a %d-byte answer to a %d-byte request lists %d rooms of %d, though one more fits", len(b), size, len(got.Rooms), a.RoomsOpen)
		}
	}
}

func TestParseRejects(t *testing.T) {
	good, _ := AppendAnswer(nil, sample(), MaxDatagram)
	req, _ := AppendRequest(nil, 1, MinRequest)
	with := func(b []byte, at int, v byte) []byte { c := append([]byte(nil), b...); c[at] = v; return c }
	cases := []struct {
		name string
		b    []byte
		want error
	}{
		{"empty", nil, ErrForeign},
		{"another game's handshake", with(good, 0, 0), ErrForeign},
		{"the connect handshake", append([]byte("TNK!\xe1\x02"), make([]byte, 26)...), ErrForeign},
		{"another version", with(good, 9, 2), ErrVersion},
		{"a request as an answer", req, ErrMalformed},
		{"cut in the fixed fields", good[:30], ErrMalformed},
		{"cut in the rooms", good[:len(good)-1], ErrMalformed},
		{"a name too long", with(good, 36, MaxName+1), ErrMalformed},
		{"a control character in the name", with(good, 37, 0x1b), ErrMalformed},
		{"more rooms listed than open", with(good, 36+1+len("Tänk lab"), 4), ErrMalformed},
	}
	for _, c := range cases {
		if _, err := ParseAnswer(c.b); !errors.Is(err, c.want) {
			t.Errorf("%s: ParseAnswer = %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := ParseRequest(req[:MinRequest-1]); !errors.Is(err, ErrMalformed) {
		t.Errorf("short request: ParseRequest = %v, want %v", err, ErrMalformed)
	}
	if _, err := ParseRequest(good); !errors.Is(err, ErrMalformed) {
		t.Errorf("answer as a request: ParseRequest = %v, want %v", err, ErrMalformed)
	}
}

func TestAppendAnswerRejects(t *testing.T) {
	cases := map[string]func(*Answer){
		"name too long":        func(a *Answer) { a.Name = strings.Repeat("x", MaxName+1) },
		"name not UTF-8":       func(a *Answer) { a.Name = "\xff" },
		"room name empty":      func(a *Answer) { a.Rooms[0].Name = "" },
		"players out of range": func(a *Answer) { a.Players = 70000 },
		"more rooms than open": func(a *Answer) { a.RoomsOpen = 1 },
		"negative room":        func(a *Answer) { a.Rooms[1].Players = -1 },
	}
	for name, change := range cases {
		a := sample()
		change(&a)
		if _, err := AppendAnswer(nil, a, MaxDatagram); err == nil {
			t.Errorf("%s: AppendAnswer succeeded, want an error", name)
		}
	}
	if _, err := AppendAnswer(nil, sample(), answerFixed); err == nil {
		t.Errorf("AppendAnswer with a budget short of the name succeeded, want an error")
	}
}
