package promtext

import (
	"strings"
	"testing"
)

func TestRead_SeriesAndSums(t *testing.T) {
	text := `# HELP tanknet_pushes_refused_total Contact pushes applied as zero.
# TYPE tanknet_pushes_refused_total counter
tanknet_pushes_refused_total{reason="too_long"} 3
tanknet_pushes_refused_total{reason="no_contact"} 2
tanknet_pushes_refused_total_other 40
tanknet_contacts_total 12

tanknet_pushes_total twelve
tanknet_up
`
	s, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if got := s[`tanknet_pushes_refused_total{reason="too_long"}`]; got != 3 {
		t.Errorf("a labelled series read %v, want 3", got)
	}
	if got := s.Sum("tanknet_pushes_refused_total"); got != 5 {
		t.Errorf("the family sums to %v, want 5 (its two labelled series, not another family that shares its prefix)", got)
	}
	if got := s.Sum("tanknet_contacts_total"); got != 12 {
		t.Errorf("an unlabelled series sums to %v, want 12", got)
	}
	if _, ok := s["tanknet_pushes_total"]; ok || len(s) != 4 {
		t.Errorf("read %d series (%v), want the 4 whose values parse", len(s), s)
	}
}
