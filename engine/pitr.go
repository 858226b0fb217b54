package engine

import (
	"encoding/binary"
	"time"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
)

// Point-in-time recovery: while it is on, the table keeps an undo log
// (engine/undo.go) from which RestoreTableToPointInTime rebuilds the
// table as it was at any moment of the recovery window, the last
// RecoveryPeriodInDays days (35 by default) since it was turned on.

// pitrMeta is a table's point-in-time recovery.
type pitrMeta struct {
	Days int32 `json:"days"`
	// Since is when the undo log started to hold every write: the
	// earliest restorable time. Zero while it is starting (startUndo).
	Since time.Time `json:"since,omitzero"`
}

// defaultRecoveryDays is RecoveryPeriodInDays when a request gives none.
const defaultRecoveryDays = 35

// window returns the recovery window of t as of now: the earliest and
// latest times a restore may ask for. ok is false while PITR is off.
func (db *DB) window(t *table, now time.Time) (earliest, latest time.Time, ok bool) {
	p := t.meta.PITR
	if p == nil || p.Since.IsZero() {
		return time.Time{}, time.Time{}, false
	}
	earliest = p.Since
	if start := now.AddDate(0, 0, -int(p.Days)); start.After(earliest) {
		earliest = start
	}
	return earliest, now, true
}

func (db *DB) describeContinuousBackups(in *dynamo.DescribeContinuousBackupsInput) (*dynamo.DescribeContinuousBackupsOutput, error) {
	if in.NoTableName {
		return nil, dynamo.Validation(dynamo.MsgTableNameRequired)
	}
	var c constraints
	c.tableOpName(in.TableName)
	if err := c.err(); err != nil {
		return nil, err
	}
	t, err := db.lookupFresh(tableNameFromARN(in.TableName))
	if err != nil {
		return nil, err
	}
	if t == nil || db.backupHidden(t) {
		return nil, backupTableNotFound(in.TableName)
	}
	return &dynamo.DescribeContinuousBackupsOutput{ContinuousBackupsDescription: db.continuousBackups(t)}, nil
}

// continuousBackups describes t's continuous backups: always ENABLED, as
// on DynamoDB, with point-in-time recovery as it is.
func (db *DB) continuousBackups(t *table) *dynamo.ContinuousBackupsDescription {
	d := &dynamo.ContinuousBackupsDescription{
		ContinuousBackupsStatus:        dynamo.ContinuousBackupsEnabled,
		PointInTimeRecoveryDescription: &dynamo.PointInTimeRecoveryDescription{PointInTimeRecoveryStatus: dynamo.PointInTimeRecoveryDisabled},
	}
	if p := t.meta.PITR; p != nil {
		pd := d.PointInTimeRecoveryDescription
		pd.PointInTimeRecoveryStatus = dynamo.PointInTimeRecoveryEnabled
		days := p.Days
		pd.RecoveryPeriodInDays = &days
		if earliest, latest, ok := db.window(t, db.now()); ok {
			earliest, latest = earliest.Truncate(time.Second), latest.Truncate(time.Second)
			pd.EarliestRestorableDateTime, pd.LatestRestorableDateTime = &earliest, &latest
		}
	}
	return d
}

func (db *DB) updateContinuousBackups(in *dynamo.UpdateContinuousBackupsInput) (*dynamo.UpdateContinuousBackupsOutput, error) {
	if in.NoTableName {
		return nil, dynamo.Validation(dynamo.MsgTableNameRequired)
	}
	var c constraints
	c.tableOpName(in.TableName)
	spec := in.PointInTimeRecoverySpecification
	switch {
	case spec == nil:
		c.notNull("pointInTimeRecoverySpecification")
	case spec.NoPointInTimeRecoveryEnabled:
		c.notNull("pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled")
	}
	if spec != nil && spec.RecoveryPeriodInDays != nil {
		c.minValue("pointInTimeRecoverySpecification.recoveryPeriodInDays", *spec.RecoveryPeriodInDays, 1)
		c.maxValue("pointInTimeRecoverySpecification.recoveryPeriodInDays", *spec.RecoveryPeriodInDays, 35)
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	if !spec.PointInTimeRecoveryEnabled && spec.RecoveryPeriodInDays != nil {
		return nil, dynamo.Validation(msgRecoveryPeriodWhileDisabled)
	}
	name := tableNameFromARN(in.TableName)
	db.ddl.Lock()
	defer db.ddl.Unlock()
	t, err := db.lookupFresh(name)
	if err != nil {
		return nil, err
	}
	if t == nil || db.backupHidden(t) {
		return nil, backupTableNotFound(in.TableName)
	}
	m := t.meta
	if spec.PointInTimeRecoveryEnabled {
		days := int32(defaultRecoveryDays)
		if spec.RecoveryPeriodInDays != nil {
			days = *spec.RecoveryPeriodInDays
		}
		if m.PITR != nil {
			// Already on: only the period changes.
			p := *m.PITR
			p.Days = days
			m.PITR = &p
			if t, err = db.putMetaLocked(t, m); err != nil {
				return nil, err
			}
		} else {
			m.PITR = &pitrMeta{Days: days}
			if t, err = db.startUndo(t, m); err != nil {
				return nil, err
			}
			if t == nil {
				return nil, backupTableNotFound(in.TableName)
			}
			// The entry as it is now (another change may have come
			// while the writes in flight were waited out), with this
			// request's window, starting now.
			m = t.meta
			m.PITR = &pitrMeta{Days: days, Since: db.now()}
			if t, err = db.putMetaLocked(t, m); err != nil {
				return nil, err
			}
			// A log kept from before (a backup's, or PITR's before it was
			// turned off) holds versions the new window never asks for.
			db.kickPrune()
		}
	} else if m.PITR != nil {
		m.PITR = nil
		if t, err = db.putMetaLocked(t, m); err != nil {
			return nil, err
		}
		// The log goes with the next prune unless a backup or restore
		// still reads it.
		db.kickPrune()
	}
	return &dynamo.UpdateContinuousBackupsOutput{ContinuousBackupsDescription: db.continuousBackups(t)}, nil
}

// putMetaLocked writes t's catalog entry as m and installs it. The
// caller holds db.ddl.
func (db *DB) putMetaLocked(t *table, m tableMeta) (*table, error) {
	b := db.store.NewBatch()
	defer b.Close()
	nt := newTable(m)
	next, err := db.putTableLocked(b, nt)
	if err != nil {
		return nil, err
	}
	if err := b.Commit(); err != nil {
		return nil, err
	}
	db.tables.Store(&next)
	return nt, nil
}

// startUndo writes m, t's entry with whatever else changes, with an undo
// log on (a new one if t has none), and returns once every later
// acknowledged write of t is in the log: the table's entry as it is then,
// its log still the one started, or nil if the table is gone. The caller
// holds db.ddl; on a store only this process writes, startUndo lets it go
// while it waits out the writes in flight, which hold item locks: a
// backfill's chunk holds its rows' locks while it waits for ddl
// (commitChunk), so nothing may wait for an item lock holding ddl.
func (db *DB) startUndo(t *table, m tableMeta) (*table, error) {
	for {
		b := db.store.NewBatch()
		if m.UndoLog == 0 {
			// The log's id comes from the tables' sequence, so no table
			// ever shares it.
			id, err := db.nextTableIDLocked(b)
			if err != nil {
				b.Close()
				return nil, err
			}
			m.UndoLog = id
		}
		nt := newTable(m)
		next, err := db.putTableLocked(b, nt)
		if err == nil {
			err = b.Commit()
		}
		b.Close()
		if err != nil {
			return nil, err
		}
		db.tables.Store(&next)
		if db.shared {
			// Every write expects the catalog entry, so none commits on
			// the entry before this one.
			return nt, nil
		}
		// Wait out the writes that may have missed the log: a write
		// decides under its item's lock (undoLogOf).
		db.ddl.Unlock()
		for i := range itemLockStripes {
			db.locks.stripes[i].Lock()
			db.locks.stripes[i].Unlock()
		}
		db.ddl.Lock()
		cur := db.lookupCached(nt.meta.Name)
		if cur == nil || cur.meta.ID != nt.meta.ID {
			return nil, nil
		}
		if cur.meta.UndoLog == nt.meta.UndoLog {
			return cur, nil
		}
		// The pruner dropped the log meanwhile: start it again, keeping
		// the change the caller asked for.
		t = cur
		pitr := m.PITR
		m = cur.meta
		m.PITR = pitr
	}
}

// restoreTime turns a restore's time into the undo log's µs.
func restoreTime(at time.Time) int64 { return at.UnixMicro() }

// undoFloor returns the oldest time (µs) t's undo log must still answer
// for, and whether the log is needed at all: the start of the recovery
// window, the instants of backups of t being copied and the times of
// restores from t in progress.
func (db *DB) undoFloor(t *table, jobs []undoUse, now time.Time) (floor int64, needed bool) {
	floor = now.UnixMicro()
	if earliest, _, ok := db.window(t, now); ok {
		floor, needed = min(floor, earliest.UnixMicro()), true
	} else if t.meta.PITR != nil {
		floor, needed = 0, true // starting: keep everything
	}
	for _, j := range jobs {
		if j.log == t.meta.UndoLog {
			floor, needed = min(floor, j.at), true
		}
	}
	return floor, needed
}

// undoUse is a job that reads an undo log: a backup being copied or a
// restore in progress.
type undoUse struct {
	log uint64
	at  int64
}

// pruneUndo drops the versions no one can ask for any more from every
// undo log, and the logs no one needs.
func (db *DB) pruneUndo() error {
	jobs, err := db.undoUses()
	if err != nil {
		return err
	}
	now := db.now()
	for _, t := range *db.tables.Load() {
		if t.meta.UndoLog == 0 {
			continue
		}
		floor, needed := db.undoFloor(t, jobs, now)
		if !needed {
			if err := db.dropUndo(t.meta.Name, t.meta.UndoLog); err != nil {
				return err
			}
			continue
		}
		if err := db.pruneLog(t.meta.UndoLog, floor); err != nil {
			return err
		}
	}
	return nil
}

// dropUndo turns off the undo log of table name if it is still log and
// no job needs it, and deletes it.
func (db *DB) dropUndo(name string, log uint64) error {
	db.ddl.Lock()
	defer db.ddl.Unlock()
	t, err := db.lookupFresh(name)
	if err != nil || t == nil || t.meta.UndoLog != log || t.meta.PITR != nil {
		return err
	}
	jobs, err := db.undoUses()
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if j.log == log {
			return nil
		}
	}
	m := t.meta
	m.UndoLog = 0
	b := db.store.NewBatch()
	defer b.Close()
	next, err := db.putTableLocked(b, newTable(m))
	if err != nil {
		return err
	}
	prefix := keys.TablePrefix(log)
	if err := b.DeleteRange(prefix, keys.PrefixEnd(prefix)); err != nil {
		return err
	}
	if err := b.Commit(); err != nil {
		return err
	}
	db.tables.Store(&next)
	db.log.Info("undo log dropped", "table", name, "log", log)
	return nil
}

// pruneChunk is how many versions a prune deletes per batch.
const pruneChunk = 1024

// pruneLog deletes the versions of log at or before floor (µs): a restore
// to a time T >= floor reads only versions after T.
func (db *DB) pruneLog(log uint64, floor int64) error {
	prefix := keys.IndexPrefix(log, 0)
	lower := prefix
	for {
		it, err := db.store.NewIter(lower, keys.PrefixEnd(prefix))
		if err != nil {
			return err
		}
		b := db.store.NewBatch()
		n, seen := 0, 0
		var last []byte
		for ok := it.First(); ok && seen < 8*pruneChunk; ok = it.Next() {
			k := it.Key()
			seen++
			last = append(last[:0], k...)
			if int64(binary.BigEndian.Uint64(k[len(k)-8:])) <= floor {
				if err := b.Delete(k); err != nil {
					it.Close()
					b.Close()
					return err
				}
				n++
			}
		}
		more := seen == 8*pruneChunk
		err = it.Close()
		if err == nil && n > 0 {
			if err = b.Commit(); err == nil {
				db.log.Info("undo log pruned", "log", log, "versions", n)
			}
		}
		b.Close()
		if err != nil || !more {
			return err
		}
		lower = keys.Successor(last)
	}
}

// kickPrune asks the background pruner to run soon.
func (db *DB) kickPrune() {
	select {
	case db.pruneNow <- struct{}{}:
	default:
	}
}

// startPruner runs pruneUndo and expireBackups every pruneInterval and
// when kicked.
func (db *DB) startPruner() {
	db.bg.Add(1)
	go func() {
		defer db.bg.Done()
		tick := time.NewTicker(pruneInterval)
		defer tick.Stop()
		for {
			select {
			case <-db.bgStop:
				return
			case <-tick.C:
			case <-db.pruneNow:
			}
			if !db.leaseHeld("undo-prune") {
				continue
			}
			if err := db.pruneUndo(); err != nil {
				db.log.Error("prune undo logs", "err", err)
			}
			if err := db.expireBackups(db.now()); err != nil {
				db.log.Error("expire system backups", "err", err)
			}
		}
	}()
}

// pruneInterval is how often undo logs are pruned.
const pruneInterval = time.Minute

// startBackups, at Open, finishes what a stop cut short: a point-in-time
// recovery being turned on gets its start time (every write since its
// entry was written is in the log), and backups being copied and restores
// in progress go on. It starts the pruner.
func (db *DB) startBackups() error {
	db.ddl.Lock()
	for _, t := range *db.tables.Load() {
		if p := t.meta.PITR; p != nil && p.Since.IsZero() {
			m := t.meta
			m.PITR = &pitrMeta{Days: p.Days, Since: db.now()}
			if _, err := db.putMetaLocked(t, m); err != nil {
				db.ddl.Unlock()
				return err
			}
		}
	}
	db.ddl.Unlock()
	if err := db.resumeJobs(); err != nil {
		return err
	}
	db.startPruner()
	return nil
}

// resumeJobs starts the backup copies and restores no one runs; on a
// shared store each runs under its lease, on the node that takes it.
func (db *DB) resumeJobs() error {
	if err := db.resumeBackupCopies(); err != nil {
		return err
	}
	if err := db.resumeExports(); err != nil {
		return err
	}
	if err := db.resumeImports(); err != nil {
		return err
	}
	return db.resumeRestores()
}
