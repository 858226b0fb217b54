//go:build !unix

package cli

// connectionsWithinFileLimit returns 0: the open-file limit is not known
// on this system.
func connectionsWithinFileLimit() int { return 0 }
