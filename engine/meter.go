package engine

import (
	"sort"
	"sync"
	"sync/atomic"

	"github.com/dynago/dynago/internal/storage"
)

// The engine's meters: what it has billed and done since it opened, for
// the server's metrics (server/metrics.go). Each request adds to a few
// atomic counters; nothing is built per request for them. Reading them is
// Meters, which copies them out.
//
// Units are kept as whole half units: reads cost multiples of 0.5, every
// other charge whole units, so the sums are exact.

// unitMeter counts the read and write units billed to a table or index.
type unitMeter struct {
	readHalves  atomic.Uint64
	writeHalves atomic.Uint64
	// staleReads counts the eventually consistent reads that showed an
	// earlier version of a row (engine/lag.go).
	staleReads atomic.Uint64
}

func (m *unitMeter) add(units float64, write bool) {
	h := uint64(units*2 + 0.5)
	if write {
		m.writeHalves.Add(h)
	} else {
		m.readHalves.Add(h)
	}
}

// tableMeter is a table's meter and its indexes'. It outlives the table
// struct (catalog changes build new ones), so it is kept by table name.
type tableMeter struct {
	unitMeter
	indexes sync.Map // index name → *unitMeter
}

func (m *tableMeter) index(name string) *unitMeter {
	if v, ok := m.indexes.Load(name); ok {
		return v.(*unitMeter)
	}
	v, _ := m.indexes.LoadOrStore(name, new(unitMeter))
	return v.(*unitMeter)
}

// meters are the DB's counters.
type meters struct {
	tables sync.Map // table name → *tableMeter

	streamRecordsWritten atomic.Uint64
	streamRecordsRead    atomic.Uint64
	ttlDeleted           atomic.Uint64
	txCanceled           atomic.Uint64
	conflictRetries      atomic.Uint64
	backfillItems        atomic.Uint64
	// vectorGraphInserts counts the nodes inserted into vector
	// graphs (engine/vector_graph.go); loading a graph inserts none.
	vectorGraphInserts atomic.Uint64
}

func (m *meters) table(name string) *tableMeter {
	if v, ok := m.tables.Load(name); ok {
		return v.(*tableMeter)
	}
	v, _ := m.tables.LoadOrStore(name, new(tableMeter))
	return v.(*tableMeter)
}

// bill records the units a request was charged on table t: tableUnits
// for the table itself and perIndex for each index it touched.
func (db *DB) bill(t *table, tableUnits float64, perIndex map[string]float64, write bool) {
	m := db.meters.table(t.meta.Name)
	m.add(tableUnits, write)
	for name, u := range perIndex {
		m.index(name).add(u, write)
	}
	db.charge(t, tableUnits, perIndex, write)
}

// UnitCounts are the units billed to a table or one of its indexes.
type UnitCounts struct {
	ReadUnits  float64
	WriteUnits float64
	// StaleReads are the reads (GetItem, a BatchGetItem key, a Query or
	// Scan page) that showed an earlier version of an item or GSI entry
	// while GSIs lag or reads are stale (Options.GSILag, StaleReads).
	StaleReads uint64
}

// TableMeters are the units billed to a table since the DB opened: the
// table's own, and each index's by name.
type TableMeters struct {
	Table   string
	Units   UnitCounts
	Indexes map[string]UnitCounts
}

// Meters is what the DB has billed and done since it opened.
type Meters struct {
	Tables []TableMeters // sorted by table name

	StreamRecordsWritten uint64 // records appended to streams
	StreamRecordsRead    uint64 // records returned by GetRecords
	TTLDeleted           uint64 // items deleted by TTL
	TransactionsCanceled uint64 // TransactionCanceledException answers
	ConflictRetries      uint64 // writes run again after a conflict on a shared store
	BackfillItems        uint64 // items written into indexes by backfills
	// GSILagHiddenEntries are the GSI entries whose latest change reads
	// do not see yet (Options.GSILag).
	GSILagHiddenEntries int
	// Throttled counts the requests enforced capacity throttled, by
	// table, index and reason; nil when none was.
	Throttled map[ThrottleKey]uint64
}

func (m *unitMeter) counts() UnitCounts {
	return UnitCounts{
		ReadUnits:  float64(m.readHalves.Load()) / 2,
		WriteUnits: float64(m.writeHalves.Load()) / 2,
		StaleReads: m.staleReads.Load(),
	}
}

// Meters copies out the DB's counters.
func (db *DB) Meters() Meters {
	out := Meters{
		StreamRecordsWritten: db.meters.streamRecordsWritten.Load(),
		StreamRecordsRead:    db.meters.streamRecordsRead.Load(),
		TTLDeleted:           db.meters.ttlDeleted.Load(),
		TransactionsCanceled: db.meters.txCanceled.Load(),
		ConflictRetries:      db.meters.conflictRetries.Load(),
		BackfillItems:        db.meters.backfillItems.Load(),
		Throttled:            db.throttleCounts(),
	}
	if o := db.lag.Load(); o != nil {
		out.GSILagHiddenEntries = o.hiddenGSIEntries()
	}
	db.meters.tables.Range(func(k, v any) bool {
		tm := v.(*tableMeter)
		t := TableMeters{Table: k.(string), Units: tm.counts()}
		tm.indexes.Range(func(k, v any) bool {
			if t.Indexes == nil {
				t.Indexes = map[string]UnitCounts{}
			}
			t.Indexes[k.(string)] = v.(*unitMeter).counts()
			return true
		})
		out.Tables = append(out.Tables, t)
		return true
	})
	sort.Slice(out.Tables, func(i, j int) bool { return out.Tables[i].Table < out.Tables[j].Table })
	return out
}

// StoreStats returns the figures the store reports about itself, or nil
// for a store that reports none (storage.Statter).
func (db *DB) StoreStats() []storage.Stat {
	if s, ok := db.store.(storage.Statter); ok {
		return s.Stats()
	}
	return nil
}
