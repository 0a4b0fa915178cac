package main

import (
	"encoding/binary"
	"net"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mmsghdr is the kernel's struct mmsghdr, for sendmmsg and recvmmsg.
type mmsghdr struct {
	hdr unix.Msghdr
	len uint32
	_   [4]byte
}

// batchSlots is the most datagrams one sendmmsg or recvmmsg call moves for one socket.
const batchSlots = 16

// runBatch is drain with one sendmmsg a socket a tick for its datagrams and one recvmmsg a
// socket a tick for what came (more only when 16 came): the fewest system calls that move
// the same datagrams, and so the kernel's floor.
func runBatch(conns []*net.UDPConn, to *net.UDPAddr, up []flow, c *counters, stop chan struct{}) {
	raws := make([]syscall.RawConn, len(conns))
	for i, cn := range conns {
		raws[i], _ = cn.SyscallConn()
	}
	var name unix.RawSockaddrInet4
	name.Family = unix.AF_INET
	binary.BigEndian.PutUint16((*[2]byte)(unsafe.Pointer(&name.Port))[:], uint16(to.Port))
	copy(name.Addr[:], to.IP.To4())

	first, rest := make([]byte, 1400), make([]byte, 1400)
	first[0] = 1 // the tick's first: the sink acknowledges it
	var out [batchSlots]mmsghdr
	var outIov [batchSlots]unix.Iovec
	in := make([]mmsghdr, batchSlots)
	inIov := make([]unix.Iovec, batchSlots)
	bufs := make([][]byte, batchSlots)
	for k := range in {
		bufs[k] = make([]byte, 2048)
		inIov[k].Base = &bufs[k][0]
		inIov[k].SetLen(len(bufs[k]))
		in[k].hdr.Iov = &inIov[k]
		in[k].hdr.SetIovlen(1)
	}
	acc := make([][]float64, len(conns))
	for i := range acc {
		acc[i] = make([]float64, len(up))
	}
	var sizes []int
	tick := func() {
		var sent, got uint64
		for i, rc := range raws {
			sizes = due(up, acc[i], sizes)
			n := min(len(sizes), batchSlots)
			for k := range n {
				outIov[k].Base = &rest[0]
				if k == 0 {
					outIov[k].Base = &first[0]
				}
				outIov[k].SetLen(sizes[k])
				out[k].hdr = unix.Msghdr{Name: (*byte)(unsafe.Pointer(&name)), Namelen: unix.SizeofSockaddrInet4, Iov: &outIov[k]}
				out[k].hdr.SetIovlen(1)
			}
			rc.Write(func(fd uintptr) bool {
				if n > 0 {
					r, _, e := unix.Syscall6(unix.SYS_SENDMMSG, fd, uintptr(unsafe.Pointer(&out[0])), uintptr(n), unix.MSG_DONTWAIT, 0, 0)
					if e == 0 {
						sent += uint64(r)
					}
				}
				return true
			})
			rc.Read(func(fd uintptr) bool {
				for {
					r, _, e := unix.Syscall6(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&in[0])), uintptr(len(in)), unix.MSG_DONTWAIT, 0, 0)
					if e != 0 {
						return true
					}
					got += uint64(r)
					if int(r) < len(in) {
						return true
					}
				}
			})
		}
		c.add(sent, got)
	}
	wait(stop, tick)
}
