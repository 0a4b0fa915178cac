// Package view decides what the tanknet window shows: which pose stands for each tank under
// the technique switches, where the arena and HUD sit in a window of any size, the player
// palette, the HUD's text and the samples behind its live graph.
//
// Package view never imports Ebitengine, so all of it runs and is tested without a display;
// package render only turns its decisions into pixels.
package view
