package discovery_test

import (
	"fmt"

	"tanknet/discovery"
)

// The worked bytes of PROTOCOL.md §12.2: a server's answer to a 128-byte request.
func ExampleAppendAnswer() {
	req, _ := discovery.AppendRequest(nil, 0x01020304, discovery.MinRequest)
	r, _ := discovery.ParseRequest(req)
	b, err := discovery.AppendAnswer(nil, discovery.Answer{
		Nonce: r.Nonce, ServerID: 0x1122334455667788, Name: "lab", GameProtocol: 2, GamePort: 7777,
		RoomCapacity: 16, MaxRooms: 8, RoomsOpen: 2, Players: 3,
		Rooms: []discovery.Room{{Name: "default", Players: 2}, {Name: "duel", Players: 1}},
	}, r.Budget())
	fmt.Println(len(req), "byte request, header:", fmt.Sprintf("% x", req[:14]))
	fmt.Println(len(b), "byte answer:", err)
	fmt.Printf("% x\n% x\n% x\n% x\n", b[:14], b[14:36], b[36:40], b[40:])
	// Output:
	// 128 byte request, header: 9c dd d8 44 b3 e8 47 07 01 01 04 03 02 01
	// 58 byte answer: <nil>
	// 9c dd d8 44 b3 e8 47 07 02 01 04 03 02 01
	// 88 77 66 55 44 33 22 11 02 00 61 1e 00 00 10 00 08 00 02 00 03 00
	// 03 6c 61 62
	// 02 07 64 65 66 61 75 6c 74 02 00 04 64 75 65 6c 01 00
}
