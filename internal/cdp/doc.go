// Package cdp drives a Chromium browser for tests over the Chrome DevTools Protocol on a
// pipe (--remote-debugging-pipe: commands in on file descriptor 3, replies and events out
// on 4, each a JSON object ended by a NUL byte). It knows just what tanknet's browser test
// needs: open a page, follow its console, take a screenshot. Standard library only.
//
// It never listens on a port: the browser's debugging endpoint is the pipe alone.
package cdp
