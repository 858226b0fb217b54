package engine

import "time"

// startBackground starts the engine's periodic work: trimming stream
// records older than 24 hours and, through the Time to Live sweeper,
// deleting expired items. Close stops both and waits for them.
func (db *DB) startBackground() {
	db.bg.Add(1)
	go func() {
		defer db.bg.Done()
		tick := time.NewTicker(streamTrimInterval)
		defer tick.Stop()
		for {
			select {
			case <-db.bgStop:
				return
			case <-tick.C:
				if !db.leaseHeld("streams") {
					continue // another node trims
				}
				if err := db.trimStreams(db.now()); err != nil {
					db.log.Error("trim streams", "err", err)
				}
			}
		}
	}()
	db.startTTLSweeper()
}
