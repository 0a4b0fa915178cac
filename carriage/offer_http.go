//go:build !js

package carriage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// postOffer sends offer to url and returns the server's answer, or an error carrying the
// server's reason when it refused. (In a browser the page's fetch does it: dial_js.go.)
func postOffer(ctx context.Context, url string, offer sessionDescription) (sessionDescription, error) {
	body, err := json.Marshal(offer)
	if err != nil {
		return sessionDescription{}, fmt.Errorf("carriage: encode offer: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return sessionDescription{}, fmt.Errorf("carriage: offer to %s: %w", url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return sessionDescription{}, fmt.Errorf("carriage: offer to %s: %w", url, err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(io.LimitReader(resp.Body, MaxOfferBytes))
	if err != nil {
		return sessionDescription{}, fmt.Errorf("carriage: answer from %s: %w", url, err)
	}
	return answerFrom(url, resp.StatusCode, resp.Status, got)
}
