package agones

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// EnvPort is the environment variable through which Agones tells a game server the
// sidecar's HTTP port.
const EnvPort = "AGONES_SDK_HTTP_PORT"

// DefaultPort is the sidecar's HTTP port when EnvPort is set but empty.
const DefaultPort = 9358

// DefaultTimeout bounds a request when New is given no timeout: long enough for a busy
// sidecar on the same pod, short enough that a health ping is not lost behind it.
const DefaultTimeout = 2 * time.Second

// maxResponse caps how many bytes of one answer (or one watch line) are read: a
// GameServer is a few kilobytes, so anything near this is not a real sidecar.
const maxResponse = 1 << 20

// URLFromEnv returns the sidecar's base URL, http://localhost:PORT, from EnvPort as
// lookup reads it (os.LookupEnv in a program). ok is false when the variable is unset: the
// process is not running under Agones. An empty value means DefaultPort; anything that is
// not a port number is an error.
func URLFromEnv(lookup func(string) (string, bool)) (url string, ok bool, err error) {
	v, set := lookup(EnvPort)
	if !set {
		return "", false, nil
	}
	port := DefaultPort
	if v = strings.TrimSpace(v); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 1 || p > 65535 {
			return "", true, fmt.Errorf("agones: %s=%q is not a port number", EnvPort, v)
		}
		port = p
	}
	return "http://localhost:" + strconv.Itoa(port), true, nil
}

// Client talks to one sidecar. Its methods are safe for concurrent use; each ends within
// the client's timeout (Watch only while connecting) or when its context ends.
type Client struct {
	base    string
	timeout time.Duration
	http    *http.Client
}

// New returns a client of the sidecar at baseURL (e.g. from URLFromEnv) whose requests
// each end within timeout; timeout 0 means DefaultTimeout.
func New(baseURL string, timeout time.Duration) *Client {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil // the sidecar is on localhost: never through a proxy from the environment
	return &Client{base: strings.TrimRight(baseURL, "/"), timeout: timeout, http: &http.Client{Transport: tr}}
}

// Ready tells Agones the game server can take players.
func (c *Client) Ready(ctx context.Context) error {
	return c.do(ctx, http.MethodPost, "/ready", empty{}, nil)
}

// Health is one health ping; Agones marks a server that stops pinging Unhealthy.
func (c *Client) Health(ctx context.Context) error {
	return c.do(ctx, http.MethodPost, "/health", empty{}, nil)
}

// Shutdown tells Agones the game server is done and may be deleted.
func (c *Client) Shutdown(ctx context.Context) error {
	return c.do(ctx, http.MethodPost, "/shutdown", empty{}, nil)
}

// SetLabel sets the label agones.dev/sdk-KEY to value on the GameServer (Agones adds the
// prefix; key and value must be valid Kubernetes label parts).
func (c *Client) SetLabel(ctx context.Context, key, value string) error {
	return c.do(ctx, http.MethodPut, "/metadata/label", struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	}{key, value}, nil)
}

// empty is the body of the requests that carry none ({}).
type empty struct{}

// Error is a sidecar's answer that was not a success.
type Error struct {
	Method, Path string
	Status       int    // HTTP status code
	Message      string // the gateway's message, if it sent one
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("agones: %s %s: %d %s", e.Method, e.Path, e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// gatewayError is the JSON body of a failed gateway call (a gRPC status).
type gatewayError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// do sends one request with body as JSON (nil: none) and decodes a 2xx answer into out
// (nil: ignored), all within the client's timeout.
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("agones: %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return fmt.Errorf("agones: %s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			return fmt.Errorf("agones: %s %s: no answer within %v: %w", method, path, c.timeout, err)
		}
		return fmt.Errorf("agones: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return fmt.Errorf("agones: %s %s: reading the answer: %w", method, path, err)
	}
	if len(data) > maxResponse {
		return fmt.Errorf("agones: %s %s: answer larger than %d bytes", method, path, maxResponse)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := &Error{Method: method, Path: path, Status: resp.StatusCode}
		var ge gatewayError
		if json.Unmarshal(data, &ge) == nil {
			e.Message = ge.Message
		}
		if len(e.Message) > 200 {
			e.Message = e.Message[:200] + "..."
		}
		return e
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("agones: %s %s: the answer is not the JSON expected: %w", method, path, err)
		}
	}
	return nil
}
