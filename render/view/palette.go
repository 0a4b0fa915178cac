package view

import "image/color"

// Colours of the scene. They are opaque, so a test can look for them in a screenshot.
var (
	Background   = color.RGBA{0x12, 0x14, 0x1a, 0xff} // window behind everything
	ArenaFloor   = color.RGBA{0x2b, 0x33, 0x2a, 0xff} // the field
	ArenaGrid    = color.RGBA{0x33, 0x3d, 0x32, 0xff} // one-unit grid lines on the field
	ArenaWall    = color.RGBA{0x9a, 0x8f, 0x7a, 0xff} // the outer walls
	Obstacle     = color.RGBA{0x6e, 0x64, 0x55, 0xff} // static boxes
	ObstacleEdge = color.RGBA{0x9a, 0x8f, 0x7a, 0xff}
	PanelFill    = color.RGBA{0x1c, 0x20, 0x28, 0xe6} // the HUD, over the arena in a narrow window
	PanelSolid   = color.RGBA{0x1c, 0x20, 0x28, 0xff} // the HUD beside or under the arena
	BoxFill      = color.RGBA{0x1c, 0x20, 0x28, 0xff} // help and messages: nothing shows through
	TextColor    = color.RGBA{0xe8, 0xe8, 0xe8, 0xff}
	DimText      = color.RGBA{0x9a, 0xa0, 0xaa, 0xff}
	WarnText     = color.RGBA{0xff, 0xb0, 0x40, 0xff}
	ErrorText    = color.RGBA{0xff, 0x60, 0x60, 0xff}
	RTTLine      = color.RGBA{0x50, 0xc8, 0xff, 0xff}
	ErrorLine    = color.RGBA{0xff, 0x70, 0x90, 0xff}
)

// players are the tank colours, far apart in hue and all bright against ArenaFloor.
var players = [...]color.RGBA{
	{0xe6, 0x4b, 0x3c, 0xff}, // red
	{0x3c, 0x9c, 0xe6, 0xff}, // blue
	{0xf1, 0xc4, 0x0f, 0xff}, // yellow
	{0x9b, 0x59, 0xd6, 0xff}, // purple
	{0x2e, 0xcc, 0x71, 0xff}, // green
	{0xe6, 0x7e, 0x22, 0xff}, // orange
	{0x1a, 0xd6, 0xc6, 0xff}, // teal
	{0xf0, 0x6e, 0xc8, 0xff}, // pink
}

// PlayerColor returns player id's tank colour. Ids run from 1; consecutive ids get different
// colours, and the palette repeats after eight.
func PlayerColor(id uint32) color.RGBA {
	return players[(id+uint32(len(players))-1)%uint32(len(players))]
}

// Timeline strip colours, one per MarkKind (see MarkColor).
var (
	StripFill   = color.RGBA{0x10, 0x12, 0x18, 0xff} // behind the marks
	StripDivide = color.RGBA{0x2a, 0x2e, 0x38, 0xff} // between rows
	markColors  = [...]color.RGBA{
		MarkReceived:   {0x4c, 0xc0, 0x6a, 0xff}, // green: came
		MarkPartial:    {0xc8, 0xc0, 0x40, 0xff}, // yellow: part of it came
		MarkMissing:    {0xe0, 0x50, 0x50, 0xff}, // red: did not come
		MarkBuffered:   {0x6a, 0x78, 0x90, 0xff}, // slate: waiting in the buffer
		MarkBracket:    {0x50, 0xc8, 0xff, 0xff}, // the RTT blue: the pair being drawn between
		MarkCursor:     {0xf0, 0xf0, 0xf0, 0xff}, // white: the render cursor
		MarkHeldCursor: {0xff, 0xb0, 0x40, 0xff}, // orange: held
		MarkHold:       {0xff, 0xb0, 0x40, 0xff},
		MarkAcked:      {0x5a, 0x60, 0x6a, 0xff}, // grey: done with
		MarkPending:    {0x50, 0xc8, 0xff, 0xff}, // blue: in flight
		MarkCorrection: {0xff, 0x70, 0x90, 0xff}, // the graph's correction pink
		MarkSnap:       {0xff, 0x40, 0x40, 0xff}, // red: a jump
		MarkPush:       {0xf0, 0xe0, 0x40, 0xff}, // yellow: a push, not a correction
	}
)

// MarkColor returns the colour a timeline mark of kind k is drawn in.
func MarkColor(k MarkKind) color.RGBA {
	if int(k) < 0 || int(k) >= len(markColors) {
		return TextColor
	}
	return markColors[k]
}

// The tour's tick trail: a dot per server tick of the followed tank.
var (
	TrailEven   = color.RGBA{0xf0, 0xf0, 0xf0, 0xff} // white: moved as the tick before
	TrailUneven = color.RGBA{0xff, 0x90, 0x30, 0xff} // orange: stood, or lurched
)
