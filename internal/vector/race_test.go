//go:build race

package vector

// raceEnabled: the race detector is on, which slows the recall tests
// about tenfold, so they use fewer vectors.
const raceEnabled = true
