package carriage

import (
	"bytes"
	"testing"
	"time"
)

// A client's Conn, like the hub, reads only binary messages as datagrams: a text message
// on the channel is dropped and counted (PROTOCOL.md §1.9).
func TestConn_TextMessagesAreDroppedAndCounted(t *testing.T) {
	c := &connCore{in: newInbox(4)}
	c.receive([]byte("\x01\x02 not a datagram"), true)
	c.receive([]byte{1, 2, 3}, false)
	buf := make([]byte, 64)
	c.SetReadDeadline(time.Now().Add(time.Second))
	n, _, err := c.ReadFrom(buf)
	if err != nil || !bytes.Equal(buf[:n], []byte{1, 2, 3}) {
		t.Fatalf("ReadFrom = %q, %v; want the binary message alone", buf[:n], err)
	}
	c.SetReadDeadline(time.Now())
	if n, _, err := c.ReadFrom(buf); err == nil {
		t.Errorf("a second ReadFrom read %q: the text message came through", buf[:n])
	}
	if got := c.TextMessages(); got != 1 {
		t.Errorf("TextMessages() = %d, want 1", got)
	}
}
