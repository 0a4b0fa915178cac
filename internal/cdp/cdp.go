package cdp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
)

// Event is a protocol event: its method (e.g. "Runtime.consoleAPICalled"), its parameters
// and the session (page) it came from.
type Event struct {
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	SessionID string          `json:"sessionId"`
}

// message is anything the browser writes: a reply (ID set) or an event.
type message struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Event
}

// Browser is a running Chromium driven over its pipe. Safe for concurrent use.
type Browser struct {
	cmd    *exec.Cmd
	in     io.WriteCloser // the browser's fd 3
	events chan Event
	done   chan struct{} // closed when the browser's output ends

	mu      sync.Mutex
	nextID  int
	pending map[int]chan message
}

// Headless is the flags every headless run here starts Chromium with: no window, no
// sandbox (tests run as root), software drawing, and none of the background connections
// Chromium makes on its own (this machine's network is closed to them). Add a fresh
// --user-data-dir.
var Headless = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
	"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"}

// Start runs the browser at path with args (Start adds --remote-debugging-pipe) and stderr
// going to stderr (nil: discarded). Close ends it.
func Start(path string, stderr io.Writer, args ...string) (*Browser, error) {
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		cmdR.Close()
		cmdW.Close()
		return nil, err
	}
	cmd := exec.Command(path, append(args, "--remote-debugging-pipe")...)
	cmd.ExtraFiles = []*os.File{cmdR, outW} // fd 3 and fd 4 in the browser
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		cmdR.Close()
		cmdW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("cdp: start %s: %w", path, err)
	}
	cmdR.Close() // the browser's ends
	outW.Close()
	b := &Browser{cmd: cmd, in: cmdW, events: make(chan Event), done: make(chan struct{}), pending: map[int]chan message{}}
	queued := make(chan Event)
	go b.read(outR, queued)
	go b.deliver(queued)
	return b, nil
}

// deliver hands the events read to Events in order, keeping those nobody has taken yet
// (however many: a page's console must not be lost while a test does something else, and
// reading must never wait for the test, or replies behind the events would never come).
func (b *Browser) deliver(queued <-chan Event) {
	defer close(b.events)
	var backlog []Event
	for {
		var out chan Event
		var next Event
		if len(backlog) > 0 {
			out, next = b.events, backlog[0]
		}
		select {
		case e, ok := <-queued:
			if !ok {
				return
			}
			backlog = append(backlog, e)
		case out <- next:
			backlog = backlog[1:]
		}
	}
}

// read dispatches the browser's messages until its output ends: replies to their callers,
// events to queued.
func (b *Browser) read(out io.ReadCloser, queued chan<- Event) {
	defer close(b.done)
	defer close(queued)
	defer out.Close()
	r := bufio.NewReaderSize(out, 1<<20)
	for {
		raw, err := r.ReadBytes(0)
		if err != nil {
			return
		}
		var m message
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.pending[m.ID]
			delete(b.pending, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		queued <- m.Event
	}
}

// Events returns the browser's events, in order; it is closed once the browser's output
// ends and every event has been taken.
func (b *Browser) Events() <-chan Event { return b.events }

// Call sends method with params to the page of session (empty: the browser itself) and
// decodes the reply into result (nil: ignored).
func (b *Browser) Call(ctx context.Context, session, method string, params, result any) error {
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan message, 1)
	b.pending[id] = ch
	b.mu.Unlock()
	cmd := map[string]any{"id": id, "method": method}
	if params != nil {
		cmd["params"] = params
	}
	if session != "" {
		cmd["sessionId"] = session
	}
	raw, err := json.Marshal(cmd)
	if err != nil {
		return err
	}
	if _, err := b.in.Write(append(raw, 0)); err != nil {
		return fmt.Errorf("cdp: %s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("cdp: %s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-b.done:
		return fmt.Errorf("cdp: %s: the browser exited", method)
	case <-ctx.Done():
		return fmt.Errorf("cdp: %s: %w", method, ctx.Err())
	}
}

// OpenPage opens a new page at about:blank, in a window of its own (so pages opened
// together all play, none a tab in the background), with the console and page events on,
// and returns its session.
func (b *Browser) OpenPage(ctx context.Context) (string, error) {
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.Call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank", "newWindow": true}, &target); err != nil {
		return "", err
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.Call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached); err != nil {
		return "", err
	}
	for _, m := range []string{"Runtime.enable", "Page.enable"} {
		if err := b.Call(ctx, attached.SessionID, m, nil, nil); err != nil {
			return "", err
		}
	}
	return attached.SessionID, nil
}

// ConsoleText returns the text of a Runtime.consoleAPICalled event's arguments (strings
// as they are, others as JSON), and whether e is one.
func ConsoleText(e Event) (string, bool) {
	if e.Method != "Runtime.consoleAPICalled" {
		return "", false
	}
	var p struct {
		Args []struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		} `json:"args"`
	}
	if json.Unmarshal(e.Params, &p) != nil {
		return "", false
	}
	text := ""
	for i, a := range p.Args {
		if i > 0 {
			text += " "
		}
		var s string
		if a.Type == "string" && json.Unmarshal(a.Value, &s) == nil {
			text += s
		} else {
			text += string(a.Value)
		}
	}
	return text, true
}

// ExceptionText returns what a Runtime.exceptionThrown event says (the exception's
// description, or the event's text when it has none), and whether e is one: an error the
// page's scripts threw and nothing caught.
func ExceptionText(e Event) (string, bool) {
	if e.Method != "Runtime.exceptionThrown" {
		return "", false
	}
	var p struct {
		Details struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if json.Unmarshal(e.Params, &p) != nil {
		return "", false
	}
	if d := p.Details.Exception.Description; d != "" {
		return d, true
	}
	return p.Details.Text, true
}

// Screenshot returns a PNG of the page of session.
func (b *Browser) Screenshot(ctx context.Context, session string) ([]byte, error) {
	var shot struct {
		Data []byte `json:"data"` // base64 in JSON: encoding/json decodes it into bytes
	}
	if err := b.Call(ctx, session, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		return nil, err
	}
	if len(shot.Data) == 0 {
		return nil, errors.New("cdp: an empty screenshot")
	}
	return shot.Data, nil
}

// Close asks the browser to close, then kills it if it has not exited, and waits for it.
func (b *Browser) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 3e9)
	defer cancel()
	_ = b.Call(ctx, "", "Browser.close", nil, nil)
	b.in.Close()
	select {
	case <-b.done:
	case <-ctx.Done():
		b.cmd.Process.Kill()
	}
	return b.cmd.Wait()
}
