package netcode

import (
	"strings"
	"testing"
	"time"
)

func TestRules_Validate(t *testing.T) {
	if err := DefaultRules().Validate(); err != nil {
		t.Fatalf("DefaultRules().Validate() = %v", err)
	}
	tests := []struct {
		name   string
		change func(*Rules)
		want   string
	}{
		{"zero range", func(r *Rules) { r.ShotRange = 0 }, "shot range"},
		{"cooldown off the tick", func(r *Rules) { r.Cooldown = 70 * time.Millisecond }, "cooldown"},
		{"no cooldown", func(r *Rules) { r.Cooldown = 0 }, "cooldown"},
		{"no damage", func(r *Rules) { r.Damage = 0 }, "damage"},
		{"negative respawn", func(r *Rules) { r.RespawnDelay = -StepInterval }, "respawn"},
		{"endless rewind", func(r *Rules) { r.RewindWindow = time.Hour }, "rewind"},
	}
	for _, tt := range tests {
		r := DefaultRules()
		tt.change(&r)
		if err := r.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Validate() = %v, want an error about %q", tt.name, err, tt.want)
		}
	}
}
