//go:build js

package main

import (
	"syscall/js"

	"tanknet/render/view"
)

// startTouch hands the page's touch controls (web/touch.js, window.tanknetTouch) a function
// they call on every change of a touch, set(x, y, fire): the stick's offset in its radii
// (view.Stick) and whether the fire button is held; and one they call when the HUD button
// is tapped (H on a keyboard). It returns the pad the window reads each
// frame (render.Options.Touch), and a stop that hides the controls and releases the
// function. A page without touch.js gets a pad nothing sets.
func startTouch() (*view.TouchPad, func()) {
	pad := new(view.TouchPad)
	controls := js.Global().Get("tanknetTouch")
	if controls.Type() != js.TypeObject {
		return pad, func() {}
	}
	set := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 3 && args[0].Type() == js.TypeNumber && args[1].Type() == js.TypeNumber {
			pad.Set(view.Stick{X: args[0].Float(), Y: args[1].Float()}, args[2].Truthy())
		}
		return nil
	})
	hud := js.FuncOf(func(js.Value, []js.Value) any {
		pad.ToggleHUD()
		return nil
	})
	controls.Call("start", set, hud)
	return pad, func() {
		controls.Call("stop")
		set.Release()
		hud.Release()
	}
}
