package transport

import (
	"encoding/binary"
)

// What the address-validation layer reads from KCP datagrams, without decoding them for
// kcp-go: which conversation a datagram belongs to, and the sequence numbers and
// acknowledgements that say whether a peer is taking the server's data.
//
// A datagram is either raw KCP segments (24-byte header each: conv u32, cmd u8, frg u8,
// wnd u16, ts u32, sn u32, una u32, len u32, then len payload bytes; little-endian), or a
// kcp-go FEC packet: seqid u32, type u16 (0xf1 data, 0xf2 parity, 0xf3 out-of-band), then
// for data and out-of-band a u16 size and, respectively, KCP segments or conv u32 + payload.
const (
	kcpHeaderSize = 24
	kcpCmdPush    = 81
	kcpCmdAck     = 82

	fecTypeData   = 0xf1
	fecTypeParity = 0xf2
	fecTypeOOB    = 0xf3
)

// datagramConv returns the KCP conversation id a datagram claims, and false when it has none
// (an FEC parity shard) or is too short to be anything kcp-go accepts.
func datagramConv(b []byte) (conv uint32, ok bool) {
	if len(b) < 6 {
		return 0, false
	}
	switch binary.LittleEndian.Uint16(b[4:]) {
	case fecTypeData:
		if len(b) < fecHeaderSize+kcpHeaderSize {
			return 0, false
		}
		return binary.LittleEndian.Uint32(b[fecHeaderSize:]), true
	case fecTypeOOB:
		if len(b) < fecHeaderSize+4 {
			return 0, false
		}
		return binary.LittleEndian.Uint32(b[fecHeaderSize:]), true
	case fecTypeParity:
		return 0, false
	}
	if len(b) < kcpHeaderSize {
		return 0, false
	}
	return binary.LittleEndian.Uint32(b), true
}

// isParity reports whether b is an FEC parity packet (of a size kcp-go takes).
func isParity(b []byte) bool {
	return len(b) >= fecHeaderSize && binary.LittleEndian.Uint16(b[4:]) == fecTypeParity
}

// kcpSegment is the header of one KCP segment.
type kcpSegment struct {
	conv     uint32
	cmd, frg byte
	wnd      uint16
	ts       uint32
	sn, una  uint32
	payload  []byte
}

// kcpSegments calls f for each whole KCP segment in datagram b (raw or FEC data; nothing for
// parity or out-of-band packets) and stops at the first that does not fit.
func kcpSegments(b []byte, f func(kcpSegment)) {
	if len(b) >= 6 {
		switch binary.LittleEndian.Uint16(b[4:]) {
		case fecTypeData:
			b = b[min(len(b), fecHeaderSize):]
		case fecTypeParity, fecTypeOOB:
			return
		}
	}
	for len(b) >= kcpHeaderSize {
		n := binary.LittleEndian.Uint32(b[20:])
		if uint64(n) > uint64(len(b)-kcpHeaderSize) {
			return
		}
		f(kcpSegment{
			conv: binary.LittleEndian.Uint32(b), cmd: b[4], frg: b[5],
			wnd: binary.LittleEndian.Uint16(b[6:]), ts: binary.LittleEndian.Uint32(b[8:]),
			sn: binary.LittleEndian.Uint32(b[12:]), una: binary.LittleEndian.Uint32(b[16:]),
			payload: b[kcpHeaderSize : kcpHeaderSize+int(n)],
		})
		b = b[kcpHeaderSize+int(n):]
	}
}

// appendKCPSegment appends one KCP segment with the given header fields and payload.
func appendKCPSegment(dst []byte, s kcpSegment) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, s.conv)
	dst = append(dst, s.cmd, s.frg)
	dst = binary.LittleEndian.AppendUint16(dst, s.wnd)
	dst = binary.LittleEndian.AppendUint32(dst, s.ts)
	dst = binary.LittleEndian.AppendUint32(dst, s.sn)
	dst = binary.LittleEndian.AppendUint32(dst, s.una)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s.payload)))
	return append(dst, s.payload...)
}
