package netcode

import (
	"fmt"
	"strings"
)

// ArenaNames lists the arenas ArenaByName knows, the default first.
func ArenaNames() []string { return []string{"default", "large"} }

// ArenaByName returns a named arena: "default" (DefaultArena, up to 16 players) or "large"
// (LargeArena, up to 256).
func ArenaByName(name string) (Arena, error) {
	switch name {
	case "default", "":
		return DefaultArena(), nil
	case "large":
		return LargeArena(), nil
	}
	return Arena{}, fmt.Errorf("netcode: unknown arena %q (known: %s)", name, strings.Join(ArenaNames(), ", "))
}

// Large arena layout: the default arena's field, tiled largeTiles x largeTiles with every
// other tile mirrored so the obstacles do not line up in rows.
const (
	largeTiles = 4 // 4 x 4 default fields: 160 x 100 units, 16 times the area
)

// LargeArena returns an arena for many players: 160 x 100 units with 80 obstacles, room for
// 256 tanks at the density the default arena has with 16 (about 62 square units each). The
// movement rules are the default ones. A window shows only part of it (see ViewWidth), so
// clients follow their tank with a camera and the server sends each client the tanks near it.
func LargeArena() Arena {
	tile := DefaultArena()
	a := tile
	a.Width, a.Height = tile.Width*largeTiles, tile.Height*largeTiles
	a.Obstacles = nil
	for row := range largeTiles {
		for col := range largeTiles {
			ox, oy := float64(col)*tile.Width, float64(row)*tile.Height
			for _, o := range tile.Obstacles {
				if col%2 == 1 { // mirror left-right
					o.MinX, o.MaxX = tile.Width-o.MaxX, tile.Width-o.MinX
				}
				if row%2 == 1 { // mirror top-bottom
					o.MinY, o.MaxY = tile.Height-o.MaxY, tile.Height-o.MinY
				}
				a.Obstacles = append(a.Obstacles, Rect{MinX: ox + o.MinX, MinY: oy + o.MinY, MaxX: ox + o.MaxX, MaxY: oy + o.MaxY})
			}
		}
	}
	return a
}
