package agones

import (
	"encoding/json"
	"testing"
)

// FuzzSidecarAnswers feeds arbitrary bytes to what reads the sidecar's answers (a watch
// line, a counter, a GameServer): each is a value or an error, never a panic. Seeds: the
// shapes Agones documents, the gateway's error, and near misses.
func FuzzSidecarAnswers(f *testing.F) {
	for _, seed := range []string{
		`{"result":{"object_meta":{"name":"gs-1","namespace":"default","labels":{"a":"b"}},"status":{"state":"Allocated","address":"10.0.0.1","ports":[{"name":"default","port":7001}]}}}`,
		`{"error":{"code":14,"message":"connection refused"}}`,
		`{"result":null}`,
		`{"name":"players","count":"3","capacity":"16"}`,
		`{"name":"players","count":3,"capacity":"9223372036854775808"}`,
		`{"status":{"state":7}}`,
		`[]`, `"`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if gs, err := parseWatchLine(b); err == nil && !json.Valid(b) {
			t.Errorf("parseWatchLine(%q) = %+v from bytes that are not JSON", b, gs)
		}
		var c counterJSON
		_ = json.Unmarshal(b, &c)
		var gs GameServer
		_ = json.Unmarshal(b, &gs)
	})
}
