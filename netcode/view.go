package netcode

// What a window shows, and so what the server sends. On an arena larger than this, a window
// shows ViewWidth x ViewHeight world units centred on its own tank (a camera following it),
// and the server sends each client only the tanks within ViewRadius of its tank.
const (
	// ViewWidth and ViewHeight are the world extent a window shows around its tank: the
	// default arena's size, so every arena is drawn at the scale of the default one.
	ViewWidth, ViewHeight = 40.0, 25.0
	// ViewRadius is how near another tank must come to be sent: the view's half-diagonal
	// (23.6 units) plus a tank length, so a tank is on its way before any of it shows.
	ViewRadius = 25.0
	// ViewHysteresis is how much farther than ViewRadius a tank already sent may go before
	// it stops being sent, so one driving along the edge does not flicker in and out. Two
	// tanks closing at full speed (10 units/s) cross it in 0.4 s.
	ViewHysteresis = 4.0
)

// Fits reports whether the whole arena fits the view: then every client is sent every
// tank and the window shows the whole field.
func (a *Arena) Fits() bool { return a.Width <= ViewWidth && a.Height <= ViewHeight }
