package load

import (
	"testing"

	"github.com/xtaci/kcp-go/v5"
)

// TestFlushKCP_SendsAtOnce: right after an update (so Update would send nothing for an
// interval), flushKCP puts each message sent on the wire at once, one output a message.
func TestFlushKCP_SendsAtOnce(t *testing.T) {
	var outputs []int
	k := kcp.NewKCP(1, func(buf []byte, size int) { outputs = append(outputs, size) })
	k.NoDelay(1, 10, 2, 1)
	k.Update()
	for i, msg := range []string{"move", "ping"} {
		k.Send([]byte(msg))
		k.Update() // not due: sends nothing
		if len(outputs) != i {
			t.Fatalf("Update sent %d outputs after message %d, want %d", len(outputs), i+1, i)
		}
		if next := flushKCP(k, kcp.IKCP_FLUSH_FULL); next == 0 || next > 10 {
			t.Errorf("flushKCP returned next update in %d ms, want 1..10", next)
		}
		if len(outputs) != i+1 || outputs[i] != 24+len(msg) {
			t.Fatalf("after flushKCP outputs = %v, want message %d (%d bytes) out", outputs, i+1, 24+len(msg))
		}
	}
}
