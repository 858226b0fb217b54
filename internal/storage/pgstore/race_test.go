//go:build race

package pgstore

// raceEnabled: the race detector is on, and with it Pebble's invariant
// checks.
const raceEnabled = true
