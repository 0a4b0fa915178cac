//go:build js

package main

import (
	"fmt"
	"syscall/js"
	"time"
)

// awaySaidFor is how long the page says it was paused once it is back.
const awaySaidFor = 4 * time.Second

// watchAway follows the tab's visibility and the Page Lifecycle's freeze: a hidden tab
// (whose timers run about once a second) or one about to be frozen (which runs no code at
// all) goes away, so the server holds its tank still and waits for it instead of starving
// its input buffer or dropping it (PROTOCOL.md §6b); shown again, it comes back, and the
// page says for how long it was paused. The Away leaves when the tab is hidden, since
// Chromium hides a tab before it freezes it. set is told each change: the live window's
// render.AwaySwitch, or the page's worker, which plays the game. It returns what stops
// following.
func watchAway(set func(away bool)) func() {
	doc := js.Global().Get("document")
	var since time.Time
	var unsay *time.Timer // clears "paused for ..." a while after the page is back
	update := func() {
		hidden := doc.Get("visibilityState").String() == "hidden"
		switch {
		case hidden && since.IsZero():
			since = time.Now()
			set(true)
			showStatus("paused: this tab is hidden, and the server holds your tank still until it is shown again")
		case !hidden && !since.IsZero():
			away := time.Since(since).Round(100 * time.Millisecond)
			since = time.Time{}
			set(false)
			showStatus(fmt.Sprintf("paused for %v while the tab was hidden; playing again", away))
			if unsay != nil {
				unsay.Stop()
			}
			unsay = time.AfterFunc(awaySaidFor, func() {
				if since.IsZero() {
					showStatus("")
				}
			})
		}
	}
	onVisibility := js.FuncOf(func(js.Value, []js.Value) any { update(); return nil })
	onFreeze := js.FuncOf(func(js.Value, []js.Value) any {
		if since.IsZero() { // frozen while still shown (a test's lifecycle call): away all the same
			since = time.Now()
			set(true)
		}
		return nil
	})
	onResume := js.FuncOf(func(js.Value, []js.Value) any { update(); return nil })
	doc.Call("addEventListener", "visibilitychange", onVisibility)
	doc.Call("addEventListener", "freeze", onFreeze)
	doc.Call("addEventListener", "resume", onResume)
	update() // a page opened in the background starts away
	return func() {
		if unsay != nil { // what ends the game says so next: not to be cleared
			unsay.Stop()
		}
		doc.Call("removeEventListener", "visibilitychange", onVisibility)
		doc.Call("removeEventListener", "freeze", onFreeze)
		doc.Call("removeEventListener", "resume", onResume)
		onVisibility.Release()
		onFreeze.Release()
		onResume.Release()
	}
}
