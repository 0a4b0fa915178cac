package main

import "strings"

// The document is a header, then "## title" sections, then the other checks. With -only, the
// sections not measured again are copied from the document as it stands; these find them.

// header returns doc's text before its first section.
func header(doc string) (string, bool) {
	i := strings.Index(doc, "\n## ")
	if i < 0 {
		return "", false
	}
	return doc[:i], true
}

// sectionText returns the section of doc headed "## title", from the blank line before its
// heading to the blank line before the next one.
func sectionText(doc, title string) (string, bool) {
	i := strings.Index(doc, "\n## "+title+"\n")
	if i < 0 {
		return "", false
	}
	end := strings.Index(doc[i+1:], "\n## ")
	if end < 0 {
		return doc[i:], true
	}
	return doc[i : i+1+end], true
}
