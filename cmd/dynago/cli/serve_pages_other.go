//go:build !linux

package cli

// releaseImagePages does nothing here: see serve_pages_linux.go.
func releaseImagePages() {}
