package load

import (
	"strings"
	"testing"
)

// TestConfig_RoomOf: rooms fill RoomSize at a time, with tanksim's room names.
func TestConfig_RoomOf(t *testing.T) {
	c := DefaultConfig()
	c.Players, c.RoomSize = 65, 32
	tests := []struct {
		player int
		want   string
	}{{0, ""}, {31, ""}, {32, "room-2"}, {63, "room-2"}, {64, "room-3"}}
	for _, tc := range tests {
		if got := c.RoomOf(tc.player); got != tc.want {
			t.Errorf("RoomOf(%d) = %q, want %q", tc.player, got, tc.want)
		}
	}
	if c.Rooms() != 3 {
		t.Errorf("Rooms() = %d, want 3", c.Rooms())
	}
}

// TestConfig_Validate: each bad setting is named in the error.
func TestConfig_Validate(t *testing.T) {
	ok := DefaultConfig()
	ok.Server = "127.0.0.1:7777"
	if err := ok.Validate(); err != nil {
		t.Fatalf("default config with a server: %v", err)
	}
	tests := []struct {
		name   string
		mutate func(*Config)
		want   string
	}{
		{"no server", func(c *Config) { c.Server = "" }, "-server"},
		{"bad server", func(c *Config) { c.Server = "nowhere" }, "-server"},
		{"too many players", func(c *Config) { c.Players = MaxPlayers + 1 }, "-players"},
		{"no drivers", func(c *Config) { c.Drivers = 0 }, "-drivers"},
		{"no duration", func(c *Config) { c.Duration = 0 }, "-duration"},
	}
	for _, tc := range tests {
		c := ok
		tc.mutate(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate() = %v, want an error naming %s", tc.name, err, tc.want)
		}
	}
}
