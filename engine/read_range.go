package engine

import (
	"fmt"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// maxPageBytes is the most data one Query or Scan page reads: a page stops
// once the items it read (before any filter) reach 1 MB, and returns
// LastEvaluatedKey so the caller can go on.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html
const maxPageBytes = 1 << 20

// rangeRead is one page of a Query or Scan over the row keys [lower, upper).
type rangeRead struct {
	lower, upper []byte
	reverse      bool
	// limit is the most items to evaluate (read, before the filter); 0
	// means no limit.
	limit int
	// filter keeps an item in the result; nil keeps every item.
	filter func(attr.Item) bool
	// filterEncoded is filter on the stored item, read lazily: it decodes
	// only the top-level attributes it reads, and builds no map, so that
	// the whole item is decoded only when kept.
	filterEncoded func(*attr.Encoded) bool
	// project shapes a kept item; nil keeps it whole.
	project func(attr.Item) attr.Item
	// countOnly keeps no items, only their count (Select COUNT).
	countOnly bool
	// encoded keeps the items in their stored encoding (rangeResult's
	// encoded) instead of decoding them; only without project and fetch.
	encoded bool
	// buffer is where encoded items are copied first (the input's
	// EncodedBuffer).
	buffer []byte
	// sink, if not nil, is given the encoded items in place of copies,
	// and checks them (the input's EncodedSink).
	sink func([]byte) error
	// lastNames, sorted, are the attributes of the page's last item that
	// its LastEvaluatedKey reads: unless the item is decoded whole
	// anyway, only those are. nil decodes it whole.
	lastNames []string
	// fetch, for a local secondary index, replaces each index entry by
	// its table item before the filter and the projection see it.
	fetch func(attr.Item) (attr.Item, error)
	// bill, for a Scan of a table, counts the bytes read in each of the
	// table's partitions, which are billed one by one
	// (engine/scan_capacity.go); nil bills the page's bytes at once.
	bill *partitionBill
	// lag, for an eventually consistent read while GSIs lag or reads
	// are stale, holds the rows in the range that show an earlier
	// version (engine/lag.go); nil reads the store as it is.
	lag *lagRead
}

// rangeResult is what a page read.
type rangeResult struct {
	items   []attr.Item
	encoded [][]byte // the items kept, for rangeRead.encoded
	count   int      // items kept by the filter
	scanned int      // items read
	bytes   int      // their total size, which the page is billed on
	// last is the last item read when the page stopped before the end of
	// the range (Limit or 1 MB); LastEvaluatedKey is its key.
	last attr.Item
}

// readRange reads one page. It takes no lock: the iterator sees the data
// as of its creation, so a page is a consistent snapshot.
func (db *DB) readRange(t *table, r rangeRead) (rangeResult, error) {
	var res rangeResult
	var it storage.Iter
	var err error
	if s, ok := db.store.(storage.AtMostIterStore); ok && r.limit > 0 && r.lag == nil {
		// The page stops at r.limit rows: a store that can read just
		// those does (PostgreSQL: one round trip, no transaction).
		it, err = s.NewIterAtMost(r.lower, r.upper, r.limit)
	} else {
		it, err = db.store.NewIter(r.lower, r.upper)
	}
	if err != nil {
		return res, err
	}
	if r.lag != nil {
		// Rows the overlay hides may leave fewer than r.limit in the
		// store's first r.limit: the iterator above reads on.
		it = newLagIter(it, r.lag)
	}
	defer it.Close()
	var lazy *attr.Encoded // the current item, for filterEncoded
	chunk := r.buffer[:0]  // where the encoded items kept are copied
	if r.encoded && r.limit > 0 {
		res.encoded = make([][]byte, 0, min(r.limit, 128))
	}
	// Only the end the page starts from is sought: on PostgreSQL each
	// seek is a read of its own, and a second one a transaction.
	var ok bool
	if r.reverse {
		ok = it.Last()
	} else {
		ok = it.First()
	}
	for ; ok; ok = step(it, r.reverse) {
		s, err := parseRow(it.Value())
		if err != nil {
			return res, fmt.Errorf("table %q: %w", t.meta.Name, err)
		}
		res.scanned++
		res.bytes += s.size
		if r.bill != nil {
			r.bill.add(it.Key(), s.size)
		}
		stop := (r.limit > 0 && res.scanned >= r.limit) || res.bytes >= maxPageBytes
		// An item is decoded whole only when it is returned, is the
		// page's last, or goes to fetch (whose result the filter sees);
		// a filter otherwise reads only the attributes it names from the
		// stored item (filterEncoded).
		keep := r.filter == nil
		if r.filter != nil && r.fetch == nil {
			if lazy == nil {
				lazy = new(attr.Encoded)
			}
			lazy.Reset(s.body)
			keep = r.filterEncoded(lazy)
			if err := lazy.Err(); err != nil {
				return res, fmt.Errorf("table %q: decode item: %w", t.meta.Name, err)
			}
		}
		returned := keep && !r.countOnly
		if returned && r.encoded {
			// Copied: the iterator's buffer is reused.
			if r.sink != nil {
				// The sink checks the item as it writes it out.
				if err := r.sink(s.body); err != nil {
					return res, fmt.Errorf("table %q: decode item: %w", t.meta.Name, err)
				}
			} else {
				if err := attr.CheckItem(s.body); err != nil {
					return res, fmt.Errorf("table %q: decode item: %w", t.meta.Name, err)
				}
				res.encoded = append(res.encoded, copyInto(&chunk, s.body))
			}
		}
		whole := r.fetch != nil || returned && !r.encoded || stop && r.lastNames == nil
		var item attr.Item
		if whole {
			if item, err = s.Item(); err != nil {
				return res, fmt.Errorf("table %q: %w", t.meta.Name, err)
			}
		} else if stop {
			item = attr.Item{}
			if err := attr.DecodeAttributes(item, s.body, r.lastNames); err != nil {
				return res, fmt.Errorf("table %q: decode item: %w", t.meta.Name, err)
			}
		}
		if r.fetch != nil {
			if item, err = r.fetch(item); err != nil {
				return res, fmt.Errorf("table %q: %w", t.meta.Name, err)
			}
			keep = r.filter == nil || r.filter(item)
		}
		if keep {
			res.count++
			if !r.countOnly && !r.encoded {
				kept := item
				if r.project != nil {
					kept = r.project(item)
				}
				res.items = append(res.items, kept)
			}
		}
		if stop {
			res.last = item
			break
		}
	}
	if r.encoded && res.encoded == nil {
		res.encoded = [][]byte{}
	}
	return res, it.Error()
}

// A page's encoded items are copied into blocks: a page of small items
// costs a few allocations, not one per item, and its bytes are not
// regrown. The first block is small, so that a page of a few items (a
// Query's) does not allocate for a large one; each next is twice the
// last, up to encodedChunk.
const (
	encodedFirstChunk = 4 << 10
	encodedChunk      = 64 << 10
)

// copyInto copies b to the end of *chunk, or of a new chunk when it does
// not fit, and returns the copy.
func copyInto(chunk *[]byte, b []byte) []byte {
	if cap(*chunk)-len(*chunk) < len(b) {
		size := min(max(2*cap(*chunk), encodedFirstChunk), encodedChunk)
		*chunk = make([]byte, 0, max(size, len(b)))
	}
	start := len(*chunk)
	*chunk = append(*chunk, b...)
	return (*chunk)[start:len(*chunk):len(*chunk)]
}

type stepper interface {
	Next() bool
	Prev() bool
}

func step(it stepper, reverse bool) bool {
	if reverse {
		return it.Prev()
	}
	return it.Next()
}

// resume narrows a page's range to the rows after (or, reading backwards,
// before) the row key start.
func (r *rangeRead) resume(start []byte) {
	if r.reverse {
		r.lower, r.upper = keys.ResumeBefore(r.lower, r.upper, start)
	} else {
		r.lower, r.upper = keys.ResumeAfter(r.lower, r.upper, start)
	}
}

// limit checks the Limit member of Query and Scan.
func (c *constraints) limit(v *int32) {
	if v != nil {
		c.minValue("limit", *v, 1)
	}
}

// queryLimit checks Query's Limit member, which DynamoDB's newer answers
// name without its value and with a capital L (msgQueryLimit), where
// Scan's keeps the older form (limit).
func (c *constraints) queryLimit(v *int32) {
	if v != nil && *v < 1 {
		c.add(msgQueryLimit)
	}
}

// selectValue checks the Select member, listing the values in DynamoDB's
// order (dynalite's test/query.js and test/scan.js, "incorrect
// attributes", against DynamoDB; paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/query.test.ts, "invalid Select value",
// 2026-04-25).
func (c *constraints) selectValue(v string) {
	c.enum("select", v, dynamo.SelectSpecificAttributes, dynamo.SelectCount, dynamo.SelectAllAttributes, dynamo.SelectAllProjectedAttributes)
}

// conditionalOperator checks the legacy ConditionalOperator member.
func (c *constraints) conditionalOperator(v string) {
	// DynamoDB lists the values in this order (see conditionalOperatorValues).
	c.enum("conditionalOperator", v, conditionalOperatorValues...)
}

// indexName checks an optional IndexName member.
func (c *constraints) indexName(name string) {
	if name == "" {
		return
	}
	c.length("indexName", name, 3, 255)
	if !validTableChars(name) {
		c.add(fmtConstraintPattern, name, "indexName", "[a-zA-Z0-9_.-]+")
	}
}

// checkSelect applies Select's rules, shared by Query and Scan (query
// says which). A projection a Select other than SPECIFIC_ATTRIBUTES
// forbids is reported first, then SPECIFIC_ATTRIBUTES without one, then
// ALL_PROJECTED_ATTRIBUTES without an index (ExtendDB's validation,
// 2026, measured against DynamoDB).
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html#DDB-Query-request-Select
func checkSelect(sel, index string, attributesToGet []string, projectionExpr string, query bool) error {
	switch sel {
	case dynamo.SelectSpecificAttributes:
		if attributesToGet == nil && projectionExpr == "" {
			return dynamo.Validation(msgSelectSpecificAlone)
		}
	case dynamo.SelectAllAttributes, dynamo.SelectAllProjectedAttributes, dynamo.SelectCount:
		if attributesToGet != nil {
			return dynamo.Validation(msgSelectWithAttributesToGet(sel))
		}
		if projectionExpr != "" {
			return dynamo.Validation(msgSelectWithProjection(sel, query))
		}
		if sel == dynamo.SelectAllProjectedAttributes && index == "" {
			return dynamo.Validation(msgAllProjectedNoIndex)
		}
	}
	return nil
}

// readPage reads one Query or Scan page and shapes the response: items
// (none for Select COUNT, an empty list otherwise), counts, the
// LastEvaluatedKey of the table or index, and the bill, including reads
// of the table made to complete LSI items (fetchUnits, added to by
// r.fetch while the page is read).
func (db *DB) readPage(ks keyspace, r rangeRead, capacityMode string, consistent bool, fetchUnits *float64) (*dynamo.ScanOutput, error) {
	r.lastNames = ks.ix.rowKeyNames
	a := admission{eventual: !consistent}
	if ks.ix.meta.Global {
		a.ix = ks.ix
	}
	if e := db.admit(ks.t, a); e != nil {
		return nil, e
	}
	if o := db.lag.Load(); o != nil {
		r.lag = db.lagForRange(o, ks, consistent, r.lower, r.upper)
	}
	res, err := db.readRange(ks.t, r)
	if err != nil {
		return nil, err
	}
	if r.lag != nil && r.lag.used {
		db.noteStaleRead(ks)
	}
	units := readUnits(res.bytes, consistent)
	if r.bill != nil {
		units = r.bill.units(r.lower, r.upper, res.last != nil, consistent)
	}
	out := &dynamo.ScanOutput{
		Items:            res.items,
		Count:            res.count,
		ScannedCount:     res.scanned,
		LastEvaluatedKey: ks.ix.lastEvaluatedKey(res.last),
		ConsumedCapacity: db.consumedRead(ks, capacityMode, units, *fetchUnits),
	}
	if r.encoded {
		out.Items, out.EncodedItems = nil, res.encoded
	} else if !r.countOnly && out.Items == nil {
		out.Items = []attr.Item{}
	}
	return out, nil
}
