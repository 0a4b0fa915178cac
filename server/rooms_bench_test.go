package server

import (
	"fmt"
	"testing"
	"time"

	"tanknet/netcode"
)

// BenchmarkRoomTick_BesideABusyRoom measures one room's tick (32 players on the large
// arena) alone, and while another room of 224 players ticks beside it every 50 ms on its
// own goroutine, as two rooms of one server do. The rooms share nothing but the process:
// the difference is what one room's load costs another's tick on this machine.
//
//	go test ./server -run '^$' -bench RoomTick_BesideABusyRoom -benchtime 10s
func BenchmarkRoomTick_BesideABusyRoom(b *testing.B) {
	for _, busy := range []int{0, 224} {
		b.Run(fmt.Sprintf("other-room=%d", busy), func(b *testing.B) {
			step := largeArenaTicker(b, 32)
			if busy > 0 {
				other := largeArenaTicker(b, busy)
				stop, done := make(chan struct{}), make(chan struct{})
				go func() {
					defer close(done)
					t := time.NewTicker(tickInterval)
					defer t.Stop()
					for {
						select {
						case <-stop:
							return
						case <-t.C:
							other()
						}
					}
				}()
				defer func() { close(stop); <-done }()
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				step()
			}
		})
	}
}

// largeArenaTicker is syntheticTicker for players on the large arena, as a room of many is.
func largeArenaTicker(b *testing.B, players int) func() {
	b.Helper()
	cfg := DefaultConfig()
	cfg.Arena = netcode.LargeArena()
	cfg.MaxPlayers = players
	cfg.Logger = discardLogger()
	step, err := syntheticTicker(&cfg, players)
	if err != nil {
		b.Fatal(err)
	}
	return step
}
