package load

import (
	_ "unsafe" // for go:linkname

	"github.com/xtaci/kcp-go/v5"
)

// flushKCP is kcp-go's (*KCP).flush, which a kcp-go session calls as soon as a message is
// written (Dial's sessions never delay writes) and kcp.KCP exports only behind Update's
// interval check. A thin client calls it the same way, so each message leaves in a datagram
// of its own the moment it is sent, as a dialled session's does; Update alone would hold a
// message sent just after an update for up to an interval, or pack it with the next. The
// signature is kcp-go v5.6.72's (go.mod pins it); TestFlushKCP_SendsAtOnce checks it.
//
//go:linkname flushKCP github.com/xtaci/kcp-go/v5.(*KCP).flush
func flushKCP(k *kcp.KCP, flushType kcp.FlushType) (nextUpdate uint32)
