package docscheck

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	tankv1 "tanknet/proto/tank/v1"
)

// docField is one field as a PROTOCOL.md table states it.
type docField struct {
	number int
	name   string
	typ    string // a scalar kind (uint32, double, ...) or a message or enum name
	list   bool   // repeated
}

func (f docField) String() string {
	rep := ""
	if f.list {
		rep = "repeated "
	}
	return fmt.Sprintf("%d `%s` %s%s", f.number, f.name, rep, f.typ)
}

// protocolDoc returns docs/PROTOCOL.md's §3, the section with the tables.
func protocolDoc(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(doc), "\n## 3. Envelopes")
	if !ok {
		t.Fatal("docs/PROTOCOL.md has no section 3. Envelopes")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	return sec
}

// tableRows returns the cells of every row of the markdown table whose header row starts
// with header, separator row skipped.
func tableRows(sec, header string) [][]string {
	var rows [][]string
	in := false
	for _, line := range strings.Split(sec, "\n") {
		switch {
		case strings.HasPrefix(line, header):
			in = true
		case in && strings.HasPrefix(line, "|---"):
		case in && strings.HasPrefix(line, "|"):
			var cells []string
			for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
				cells = append(cells, strings.TrimSpace(c))
			}
			rows = append(rows, cells)
		default:
			in = false
		}
	}
	return rows
}

// withoutRemarks drops every parenthesised remark, nested ones included.
func withoutRemarks(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

var (
	fieldPattern = regexp.MustCompile("(\\d+) `(\\w+)` (repeated )?(\\w+)")
	valuePattern = regexp.MustCompile("(\\d+) `(\\w+)`")
	namePattern  = regexp.MustCompile("^`(\\w+)`$")
)

// parseFields reads a Fields cell: "1 `x` double, 2 `ids` repeated uint32 (remark)".
func parseFields(cell string) []docField {
	var out []docField
	for _, m := range fieldPattern.FindAllStringSubmatch(withoutRemarks(cell), -1) {
		var n int
		fmt.Sscan(m[1], &n)
		out = append(out, docField{number: n, name: m[2], list: m[3] != "", typ: m[4]})
	}
	return out
}

// schemaFields returns what tank.proto says of md's fields, in number order.
func schemaFields(md protoreflect.MessageDescriptor) []docField {
	var out []docField
	fs := md.Fields()
	for i := range fs.Len() {
		fd := fs.Get(i)
		f := docField{number: int(fd.Number()), name: string(fd.Name()), list: fd.IsList(), typ: fd.Kind().String()}
		switch fd.Kind() {
		case protoreflect.MessageKind, protoreflect.GroupKind:
			f.typ = string(fd.Message().Name())
		case protoreflect.EnumKind:
			f.typ = string(fd.Enum().Name())
		}
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b docField) int { return a.number - b.number })
	return out
}

// TestProtocolDoc_FieldTablesMatchTheSchema: PROTOCOL.md §3 lists every message of
// tank.proto with every field (number, name, type, repeated or not), the envelopes' oneof
// fields with their numbers and types, and every enum with every value; nothing more.
func TestProtocolDoc_FieldTablesMatchTheSchema(t *testing.T) {
	sec := protocolDoc(t)
	file := tankv1.File_tank_v1_tank_proto
	documented := map[string]bool{}

	for _, env := range []string{"ClientMessage", "ServerMessage"} {
		md := file.Messages().ByName(protoreflect.Name(env))
		rows := tableRows(sec, "| `"+env+"` field |")
		if len(rows) == 0 {
			t.Errorf("§3 has no table of %s's fields", env)
			continue
		}
		documented[env] = true
		var got []docField
		for _, r := range rows {
			if len(r) < 3 {
				t.Errorf("%s row %q: want name, number and type", env, r)
				continue
			}
			var n int
			fmt.Sscan(r[1], &n)
			got = append(got, docField{number: n, name: strings.Trim(r[0], "`"), typ: strings.Trim(r[2], "`")})
		}
		slices.SortFunc(got, func(a, b docField) int { return a.number - b.number })
		compareFields(t, env, got, schemaFields(md))
	}

	for _, r := range tableRows(sec, "| Message | Fields |") {
		m := namePattern.FindStringSubmatch(r[0])
		if m == nil || len(r) < 2 {
			t.Errorf("field table row %q: want one `Message` and its fields", r)
			continue
		}
		name := m[1]
		md := file.Messages().ByName(protoreflect.Name(name))
		if md == nil {
			t.Errorf("§3 documents message %s, which tank.proto does not have", name)
			continue
		}
		if documented[name] {
			t.Errorf("§3 documents message %s twice", name)
		}
		documented[name] = true
		compareFields(t, name, parseFields(r[1]), schemaFields(md))
	}
	msgs := file.Messages()
	for i := range msgs.Len() {
		if name := string(msgs.Get(i).Name()); !documented[name] {
			t.Errorf("§3 does not document message %s of tank.proto", name)
		}
	}

	enums := map[string]bool{}
	for _, r := range tableRows(sec, "| Enum | Values |") {
		m := namePattern.FindStringSubmatch(r[0])
		if m == nil || len(r) < 2 {
			t.Errorf("enum table row %q: want one `Enum` and its values", r)
			continue
		}
		ed := file.Enums().ByName(protoreflect.Name(m[1]))
		if ed == nil {
			t.Errorf("§3 documents enum %s, which tank.proto does not have", m[1])
			continue
		}
		enums[m[1]] = true
		var got, want []string
		for _, v := range valuePattern.FindAllStringSubmatch(withoutRemarks(r[1]), -1) {
			got = append(got, v[1]+" "+v[2])
		}
		vals := ed.Values()
		for i := range vals.Len() {
			want = append(want, fmt.Sprintf("%d %s", vals.Get(i).Number(), vals.Get(i).Name()))
		}
		if !slices.Equal(got, want) {
			t.Errorf("§3 enum %s:\n got  %q\n want %q (tank.proto)", m[1], got, want)
		}
	}
	for i := range file.Enums().Len() {
		if name := string(file.Enums().Get(i).Name()); !enums[name] {
			t.Errorf("§3 does not document enum %s of tank.proto", name)
		}
	}
}

func compareFields(t *testing.T, msg string, got, want []docField) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("§3 %s:\n got  %v\n want %v (tank.proto)", msg, got, want)
	}
}

// The parser itself: a drifted row is caught, so the test above can fail.
func TestProtocolDoc_ParserSeesDrift(t *testing.T) {
	md := tankv1.File_tank_v1_tank_proto.Messages().ByName("Hello")
	want := schemaFields(md)
	for _, tc := range []struct{ name, cell string }{
		{"missing field", "1 `protocol_version` uint32 (must be 2), 2 `name` string"},
		{"wrong number", "1 `protocol_version` uint32, 2 `name` string, 4 `room` string"},
		{"wrong type", "1 `protocol_version` uint64, 2 `name` string, 3 `room` string"},
		{"renamed", "1 `version` uint32, 2 `name` string, 3 `room` string"},
		{"repeated", "1 `protocol_version` uint32, 2 `name` string, 3 `room` repeated string"},
	} {
		if slices.Equal(parseFields(tc.cell), want) {
			t.Errorf("%s: %q read as matching %v", tc.name, tc.cell, want)
		}
	}
	if got := parseFields("1 `protocol_version` uint32 (must be 2, e.g. 7 `x` y), 2 `name` string, 3 `room` string (see (§4.2))"); !slices.Equal(got, want) {
		t.Errorf("remarks not ignored: %v, want %v", got, want)
	}
}
