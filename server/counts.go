package server

import (
	"fmt"
	"reflect"
	"sync/atomic"
)

// countReader reads the live counts L (counters, bufferStats) into the figures S that
// export them (Stats, InputBufferStats). It holds no declaration of its own: the field of S
// tagged counter:"x" is read from field x of L, and one tagged sum:"Y" is the total of the
// map Y of S. readerOf checks the pairing when the program starts, so a count kept in L is
// always shown in S, and from there, by its metric tag, on /metrics.
type countReader[L, S any] struct {
	copies []countCopy
	sums   []countSum
}

type countCopy struct{ live, field int } // the index of a count in L and of its field in S
type countSum struct{ of, field int }    // the index in S of a map and of the field its total goes to

// readerOf pairs the fields of S with the counts of L their counter tags name. It panics,
// naming the field, when a tag names no count of L or one of another type, when two fields
// name one count, or when a count of L is named by no field: mistakes in this package, found
// when the program starts.
func readerOf[L, S any]() countReader[L, S] {
	lt, st := reflect.TypeFor[L](), reflect.TypeFor[S]()
	var r countReader[L, S]
	shownBy := make([]string, lt.NumField()) // the field of S that shows each count of L
	for i := range st.NumField() {
		f := st.Field(i)
		if name, ok := f.Tag.Lookup("counter"); ok {
			live, ok := lt.FieldByName(name)
			if !ok || len(live.Index) != 1 {
				panic(fmt.Sprintf("server: %s.%s counts %s, which %s does not have", st, f.Name, name, lt))
			}
			if by := shownBy[live.Index[0]]; by != "" {
				panic(fmt.Sprintf("server: %s.%s and %s.%s both show %s.%s", st, by, st, f.Name, lt, name))
			}
			if got := reflect.TypeOf(load(reflect.New(live.Type).Interface())); !got.ConvertibleTo(f.Type) {
				panic(fmt.Sprintf("server: %s.%s is a %v and cannot hold %s.%s, a %v", st, f.Name, f.Type, lt, name, got))
			}
			shownBy[live.Index[0]] = f.Name
			r.copies = append(r.copies, countCopy{live: live.Index[0], field: i})
		}
		if name, ok := f.Tag.Lookup("sum"); ok {
			of, ok := st.FieldByName(name)
			if !ok || of.Type != reflect.TypeFor[map[string]uint64]() || f.Type.Kind() != reflect.Uint64 {
				panic(fmt.Sprintf("server: %s.%s sums %s, which is no map[string]uint64 of %s", st, f.Name, name, st))
			}
			r.sums = append(r.sums, countSum{of: of.Index[0], field: i})
		}
	}
	for i, by := range shownBy {
		if by == "" {
			panic(fmt.Sprintf("server: %s.%s is counted but no field of %s shows it (tag one counter:%q)", lt, lt.Field(i).Name, st, lt.Field(i).Name))
		}
	}
	return r
}

// read returns the figures of the live counts: each field of S its count in live, each sum
// the total of its map as read, so the two agree.
func (r countReader[L, S]) read(live *L) S {
	var s S
	lv, sv := reflect.ValueOf(live).Elem(), reflect.ValueOf(&s).Elem()
	for _, c := range r.copies {
		f := lv.Field(c.live)
		// The counts are unexported fields: reach them through their address, as the
		// package's own code does.
		n := load(reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Interface())
		to := sv.Field(c.field)
		to.Set(reflect.ValueOf(n).Convert(to.Type()))
	}
	for _, sum := range r.sums {
		var total uint64
		for _, n := range sv.Field(sum.of).Interface().(map[string]uint64) {
			total += n
		}
		sv.Field(sum.field).SetUint(total)
	}
	return s
}

// load reads one live count, given its address, as a plain value. It panics on a type that
// is no live count.
func load(count any) any {
	switch c := count.(type) {
	case *atomic.Uint64:
		return c.Load()
	case *atomic.Int64:
		return c.Load()
	case *tally:
		return c.snapshot()
	case *tickHistogram:
		return c.snapshot()
	case *liveHistogram:
		return c.snapshot()
	}
	panic(fmt.Sprintf("server: %T is no live count", count))
}
