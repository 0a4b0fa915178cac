package render

import (
	"bytes"
	"fmt"

	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
)

// Font sizes, in logical pixels.
const (
	hudSize   = 13 // fits PanelWidth with the longest HUD line
	labelSize = 13 // name tags: readable, smaller than a tank at default scale
	titleSize = 22 // failure and waiting messages
	smallSize = 11 // the timeline strip's row names
)

// fonts holds the faces the window draws with.
type fonts struct {
	mono  *text.GoTextFace // HUD and help, so columns line up
	label *text.GoTextFace
	title *text.GoTextFace
	small *text.GoTextFace
	// monoAdvance is one character's width in mono, in pixels: every character's.
	monoAdvance float64
}

func loadFonts() (*fonts, error) {
	mono, err := text.NewGoTextFaceSource(bytes.NewReader(gomono.TTF))
	if err != nil {
		return nil, fmt.Errorf("render: load Go Mono: %w", err)
	}
	regular, err := text.NewGoTextFaceSource(bytes.NewReader(goregular.TTF))
	if err != nil {
		return nil, fmt.Errorf("render: load Go Regular: %w", err)
	}
	f := &fonts{
		mono:  &text.GoTextFace{Source: mono, Size: hudSize},
		label: &text.GoTextFace{Source: regular, Size: labelSize},
		title: &text.GoTextFace{Source: regular, Size: titleSize},
		small: &text.GoTextFace{Source: regular, Size: smallSize},
	}
	f.monoAdvance = text.Advance("0", f.mono)
	return f, nil
}
