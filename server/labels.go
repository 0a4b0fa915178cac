package server

import (
	"slices"

	"tanknet/wire"
	"tanknet/world"
)

// The values a key of each split of Stats takes. server/metrics exports every one of them
// from the start, at zero until counted. Each returns a new slice, sorted.

// RejectLabels returns every key of Stats.RejectsByCode: the label of each reject code a
// server sends.
func RejectLabels() []string {
	var out []string
	for _, c := range wire.RejectCodes() {
		out = append(out, c.String())
	}
	return sorted(out)
}

// DropLabels returns every key of Stats.DropsByReason: the code of each kind of drop
// reason, and dropOther.
func DropLabels() []string {
	out := []string{dropOther}
	for _, k := range dropKinds {
		out = append(out, k.code.String())
	}
	return sorted(out)
}

// InputRuleLabels returns every key of Stats.InputsRefused: the rules whose breach drops a
// client.
func InputRuleLabels() []string {
	return sorted([]string{world.RuleDuration, ruleInboxFull, world.RuleNotFinite, world.RuleLead})
}

// PushRefusalLabels returns every key of Stats.PushesRefused: world.PushRefusal's labels.
func PushRefusalLabels() []string { return sorted(world.PushRefusalLabels()) }

// ShotRefusalLabels returns every key of Stats.ShotsRefused: the label of each reason a
// Fire is refused for.
func ShotRefusalLabels() []string {
	var out []string
	for _, r := range wire.Refusals() {
		out = append(out, r.Label())
	}
	return sorted(out)
}

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}
