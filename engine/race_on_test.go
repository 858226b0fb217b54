//go:build race

package engine

// raceOn: the race detector is on, which slows the vector recall test
// about tenfold, so it uses fewer vectors.
const raceOn = true
