// Package view decides what the tanknet window shows: which pose stands for each tank under
// the technique switches, where the arena, HUD, panes and timeline strip sit in a window of
// any size (Layout, SingleLayout, DemoLayout), where name tags go (PlaceLabels), the marks
// of the timeline strip (TimelineMarks), the player palette, the HUD's and the help's text,
// the samples behind the live graph, and the frame-rate figures a -screenshot run prints
// (FrameStats).
//
// Package view never imports Ebitengine, so all of it runs and is tested without a display;
// package render only turns its decisions into pixels.
package view
