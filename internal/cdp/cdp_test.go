package cdp

import (
	"encoding/json"
	"testing"
)

func TestEventTexts(t *testing.T) {
	console := Event{Method: "Runtime.consoleAPICalled", Params: json.RawMessage(`{"type":"log","args":[{"type":"string","value":"tankclient: hello"},{"type":"number","value":3}]}`)}
	thrown := Event{Method: "Runtime.exceptionThrown", Params: json.RawMessage(`{"exceptionDetails":{"text":"Uncaught","exception":{"type":"object","description":"Error: Go program has already exited\n    at _resume"}}}`)}
	bare := Event{Method: "Runtime.exceptionThrown", Params: json.RawMessage(`{"exceptionDetails":{"text":"Uncaught 7"}}`)}
	other := Event{Method: "Page.loadEventFired", Params: json.RawMessage(`{"timestamp":1}`)}

	if text, ok := ConsoleText(console); !ok || text != "tankclient: hello 3" {
		t.Errorf("ConsoleText of a console call = %q, %v; want its arguments joined", text, ok)
	}
	if text, ok := ExceptionText(thrown); !ok || text != "Error: Go program has already exited\n    at _resume" {
		t.Errorf("ExceptionText of a thrown error = %q, %v; want its description", text, ok)
	}
	if text, ok := ExceptionText(bare); !ok || text != "Uncaught 7" {
		t.Errorf("ExceptionText of a thrown value with no description = %q, %v; want the event's text", text, ok)
	}
	for _, e := range []Event{console, other} {
		if text, ok := ExceptionText(e); ok {
			t.Errorf("ExceptionText of %s = %q, true; want no exception", e.Method, text)
		}
	}
	for _, e := range []Event{thrown, other} {
		if text, ok := ConsoleText(e); ok {
			t.Errorf("ConsoleText of %s = %q, true; want no console line", e.Method, text)
		}
	}
}
