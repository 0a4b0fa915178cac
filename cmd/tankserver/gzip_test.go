package main

import (
	"net/http/httptest"
	"testing"
)

// The page's wasm goes gzipped only to a client whose Accept-Encoding accepts gzip, as
// RFC 9110 reads it: named in any case (or as x-gzip) with a weight above 0, or covered by
// "*" when not named.
func TestAcceptsGzip(t *testing.T) {
	for _, tc := range []struct {
		header []string
		want   bool
	}{
		{nil, false},
		{[]string{"gzip, deflate, br, zstd"}, true}, // what browsers send
		{[]string{"GZIP"}, true},
		{[]string{"x-gzip"}, true},
		{[]string{"br;q=1.0, gzip;q=0.5"}, true},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0.000"}, false},
		{[]string{"gzip;Q=0"}, false},
		{[]string{"gzip;q=zero"}, false},
		{[]string{"*"}, true},
		{[]string{"*;q=0.5"}, true},
		{[]string{"*;q=0"}, false},
		{[]string{"gzip;q=0, *"}, false}, // named: the star does not cover it
		{[]string{"identity"}, false},
		{[]string{"deflate", "gzip"}, true}, // two header lines
		{[]string{"gzipped"}, false},
	} {
		r := httptest.NewRequest("GET", "/tankclient.wasm", nil)
		for _, h := range tc.header {
			r.Header.Add("Accept-Encoding", h)
		}
		if got := acceptsGzip(r); got != tc.want {
			t.Errorf("Accept-Encoding %q: acceptsGzip = %v, want %v", tc.header, got, tc.want)
		}
	}
}
