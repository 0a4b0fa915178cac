package sim

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"tanknet/client"
)

// TestWriteText_ClientsInPlayerOrder: the per-bot table lists players by id, whatever order
// the bots finished in.
func TestWriteText_ClientsInPlayerOrder(t *testing.T) {
	var r Report
	for _, id := range []uint32{3, 1, 4, 2} {
		r.Clients = append(r.Clients, ClientReport{Report: client.Report{PlayerID: id}})
	}
	var text bytes.Buffer
	if err := r.writeClients(&text); err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, m := range regexp.MustCompile(`(?m)^\s+(\d+)\s`).FindAllStringSubmatch(text.String(), -1) {
		id, _ := strconv.Atoi(m[1])
		ids = append(ids, id)
	}
	if want := []int{1, 2, 3, 4}; !slices.Equal(ids, want) {
		t.Errorf("rows for players %v, want %v:\n%s", ids, want, text.String())
	}
	if r.Clients[0].PlayerID != 3 {
		t.Error("writing the table reordered the report's own list")
	}
}
