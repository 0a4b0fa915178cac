package wire_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

// TestSealed_OnlyTheMessageTypes: exactly the documented message types implement each
// union, and a value of another type (a netcode value, a Hello for a Game to send) fails to
// compile where a message is expected.
func TestSealed_OnlyTheMessageTypes(t *testing.T) {
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	wire, err := imp.Import("tanknet/wire")
	if err != nil {
		t.Fatal(err)
	}
	for union, want := range map[string][]string{
		"ClientMessage": {"Away", "Fire", "Goodbye", "Hello", "InputBatch", "InputMode", "Move", "Ping"},
		"GameMessage":   {"Away", "Fire", "InputBatch", "InputMode", "Move", "Ping"},
		"ServerMessage": {"*Snapshot", "Disconnect", "Kill", "Pong", "Reject", "Roster", "RulesChanged", "Shot", "ShotResult", "Welcome"},
	} {
		iface := wire.Scope().Lookup(union).Type().Underlying().(*types.Interface)
		var got []string
		for _, name := range wire.Scope().Names() {
			tn, ok := wire.Scope().Lookup(name).(*types.TypeName)
			if !ok || types.IsInterface(tn.Type()) {
				continue
			}
			switch {
			case types.Implements(tn.Type(), iface):
				got = append(got, name)
			case types.Implements(types.NewPointer(tn.Type()), iface):
				got = append(got, "*"+name)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s is implemented by %v, want %v", union, got, want)
		}
	}
	for name, tc := range map[string]struct {
		src      string
		compiles bool
	}{
		"a step sent":             {`var _ wire.GameMessage = wire.Move(netcode.PendingInput{})`, true},
		"a netcode step sent":     {`var _ wire.GameMessage = netcode.PendingInput{}`, false},
		"a Hello sent by a Game":  {`var _ wire.GameMessage = wire.Hello{}`, false},
		"a netcode kill received": {`func f(m wire.ServerMessage) { _ = m.(netcode.Kill) }`, false},
		"a string sent":           {`var _ = wire.ServerMessageToProto("not a message")`, false},
	} {
		f, err := parser.ParseFile(fset, "x.go", `package x; import ("tanknet/netcode"; "tanknet/wire"); var _ netcode.Pose; `+tc.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		conf := types.Config{Importer: imp.(types.ImporterFrom)}
		if _, err := conf.Check("x", fset, []*ast.File{f}, nil); (err == nil) != tc.compiles {
			t.Errorf("%s: %q compiles: %v, want %v (%v)", name, tc.src, err == nil, tc.compiles, err)
		}
	}
}
