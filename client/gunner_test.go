package client

import (
	"testing"
	"time"
)

// TestGunner_SkillDelaysAndSpacesShots steps a gunner through a target appearing, staying
// aligned and changing, at each skill level.
func TestGunner_SkillDelaysAndSpacesShots(t *testing.T) {
	fair, err := SkillFor("fair")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Unix(100, 0)
	at := func(ms int) time.Time { return start.Add(time.Duration(ms) * time.Millisecond) }
	aimed := Aim{TargetID: 7, Turn: 1, Aligned: true}
	steps := []struct {
		name        string
		skill       Skill
		ms          int
		aim         Aim
		turn        float64
		steer, fire bool
	}{
		{"sharp: fires at once", Skill{}, 0, aimed, 1, true, true},
		{"sharp: fires again next frame", Skill{}, 17, aimed, 1, true, true},
		{"fair: target just appeared", fair, 0, aimed, 0, false, false},
		{"fair: still reacting", fair, 400, aimed, 0, false, false},
		{"fair: reacted, steers slower and fires", fair, 450, aimed, 0.6, true, true},
		{"fair: within the fire gap", fair, 900, aimed, 0.6, true, false},
		{"fair: after the fire gap", fair, 1450, aimed, 0.6, true, true},
		{"fair: a new target restarts the reaction", fair, 1500, Aim{TargetID: 9, Turn: -1, Aligned: true}, 0, false, false},
		{"fair: nothing to aim at", fair, 1600, Aim{}, 0, false, false},
	}
	var gu gunner
	for _, s := range steps {
		if s.skill != gu.skill {
			gu = gunner{skill: s.skill}
		}
		turn, steer, fire := gu.decide(at(s.ms), s.aim)
		if turn != s.turn || steer != s.steer || fire != s.fire {
			t.Errorf("%s: decide(%d ms) = %v %v %v, want %v %v %v", s.name, s.ms, turn, steer, fire, s.turn, s.steer, s.fire)
		}
	}
	if _, err := SkillFor("godlike"); err == nil {
		t.Error(`SkillFor("godlike") = nil error, want unknown skill`)
	}
}
