package client

import (
	"fmt"
	"time"
)

// Skill is how well a gunner bot plays. The zero value is the sharpest: it turns at full
// rate and fires the moment a shot would hit, which is what tanksim measures with. A human
// cannot win against that, so the demo's bots take a level below it (SkillFor).
type Skill struct {
	// Reaction is how long a target must have been the nearest before the bot turns toward
	// it or fires at it: a human's delay in noticing.
	Reaction time.Duration
	// TurnScale in (0, 1] scales the steering toward the target; 0 means 1.
	TurnScale float64
	// FireGap is the least time between two of the bot's shots, on top of the cannon's
	// cooldown; 0 means the cooldown alone.
	FireGap time.Duration
}

// Skill levels by name, weakest first.
var skills = []struct {
	name  string
	skill Skill
}{
	{"easy", Skill{Reaction: 900 * time.Millisecond, TurnScale: 0.35, FireGap: 2 * time.Second}},
	{"fair", Skill{Reaction: 450 * time.Millisecond, TurnScale: 0.6, FireGap: time.Second}},
	{"sharp", Skill{}},
}

// SkillNames lists the skill levels, weakest first.
func SkillNames() []string {
	names := make([]string, len(skills))
	for i, s := range skills {
		names[i] = s.name
	}
	return names
}

// SkillFor returns the skill level called name (see SkillNames).
func SkillFor(name string) (Skill, error) {
	for _, s := range skills {
		if s.name == name {
			return s.skill, nil
		}
	}
	return Skill{}, fmt.Errorf("client: unknown bot skill %q (want one of %v)", name, SkillNames())
}

// gunner turns a frame's Aim into what a bot of some Skill does: it waits Skill.Reaction after
// a new target appears, steers toward it at Skill.TurnScale, and spaces its shots by
// Skill.FireGap.
type gunner struct {
	skill       Skill
	target      uint32
	targetSince time.Time
	lastShot    time.Time
}

// decide returns the bot's steering at now given aim, whether it steers at all (false: the
// driver keeps its own), and whether it fires.
func (gu *gunner) decide(now time.Time, aim Aim) (turn float64, steer, fire bool) {
	if aim.TargetID == 0 {
		gu.target = 0
		return 0, false, false
	}
	if aim.TargetID != gu.target {
		gu.target, gu.targetSince = aim.TargetID, now
	}
	if now.Sub(gu.targetSince) < gu.skill.Reaction {
		return 0, false, false // not noticed yet
	}
	scale := gu.skill.TurnScale
	if scale <= 0 {
		scale = 1
	}
	fire = aim.Aligned && (gu.lastShot.IsZero() || now.Sub(gu.lastShot) >= gu.skill.FireGap)
	if fire {
		gu.lastShot = now
	}
	return aim.Turn * scale, true, fire
}
