package engine

import (
	"strings"
	"sync"
	"time"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
)

// Capacity that is enforced, when asked (Options.EnforceCapacity, or the
// table's tag dynago:enforce-capacity): the units the engine bills
// (engine/capacity.go) are drawn from token buckets, and a request that
// finds one empty is throttled, as DynamoDB throttles it. Off, nothing
// here runs: enforcing is one comparison per request.
//
// The buckets:
//
//   - A provisioned table's reads and writes, and each provisioned GSI's,
//     refill at the provisioned units per second and keep up to 300
//     seconds of unused capacity, DynamoDB's burst capacity ("DynamoDB
//     currently retains up to 5 minutes (300 seconds) of unused read and
//     write capacity", developer guide, burst capacity:
//     https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html).
//     A bucket starts with one second's units; the burst is what the
//     table leaves unused after that. An UpdateTable of the throughput
//     takes effect at the next request: a bucket refills at the rate the
//     table has then, and never holds more than 300 seconds of it.
//   - An on-demand table or GSI is held to its OnDemandThroughput maximum
//     (MaxReadRequestUnits, MaxWriteRequestUnits) when it has one, else to
//     the default per-table quota of 40,000 read and 40,000 write request
//     units a second (developer guide, service quotas, "Throughput
//     default quotas";
//     https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode-max-throughput.html),
//     with one second of burst. On-demand's own scaling (instantly up to
//     double the previous peak) is not modelled: below those limits an
//     on-demand table is never throttled but by a hot key.
//   - A partition serves at most 3,000 read units and 1,000 write units a
//     second (developer guide, partitions and data distribution, and
//     "Burst capacity can't alleviate partition-level throttling"). With
//     adaptive capacity a hot partition may use the table's unused
//     throughput up to that limit, and DynamoDB isolates frequently
//     accessed items on partitions of their own (developer guide,
//     adaptive capacity). dynago models where that ends: each partition
//     key value has its own 3,000/1,000 a second, charged by GetItem,
//     PutItem, UpdateItem, DeleteItem and the batch operations, and shared
//     by no other key. So the number of partitions a table has (by size,
//     10 GB each, and by throughput) changes nothing here, two hot keys
//     never throttle each other as they might on DynamoDB before a split,
//     and Query and Scan draw on the table's and indexes' buckets only.
//
// A request's cost is known once it has run, so a request is let through
// while each bucket it draws on holds its least cost (half a unit for an
// eventually consistent read, one otherwise), and charged its exact units
// afterwards: a large item can leave a bucket in debt, which the refill
// pays off before the next request passes. A throttled request applies
// nothing.
//
// A write draws on the table's bucket and on every GSI's write bucket: a
// GSI without write capacity throttles the table's writes (developer
// guide, GSI write capacity: "If you don't provision enough write
// capacity for a GSI, write throttling for the base table may occur").
// dynago throttles every write of the table then, whether or not it would
// have touched the index; a local secondary index's units are the
// table's.

// The limits.
const (
	burstSeconds = 300
	// partitionReadUnits and partitionWriteUnits are a partition's
	// limits a second.
	partitionReadUnits  = 3000
	partitionWriteUnits = 1000
	// onDemandTableQuota is the default per-table quota of request
	// units a second, reads and writes each.
	onDemandTableQuota = 40000
	// capacityTag is the tag that turns enforcement on ("true") or off
	// ("false") for one table, whatever the server's setting. It is
	// dynago's own; DynamoDB keeps it as any other tag.
	capacityTag = "dynago:enforce-capacity"
)

// The limit types of a ThrottlingReason, after its resource and
// operation types (Table|Index, Read|Write).
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html
const (
	limitProvisioned = "ProvisionedThroughputExceeded"
	limitAccount     = "AccountLimitExceeded"
	limitKeyRange    = "KeyRangeThroughputExceeded"
	limitMaxOnDemand = "MaxOnDemandThroughputExceeded"
)

// The texts of the throttling errors.
const (
	// msgIndexThroughputExceeded is dynamo.MsgTableThroughputExceeded for a table's GSIs
	// (audienceproject/spark-dynamodb issue 61, 2020;
	// wellcomecollection/platform issue 2177).
	msgIndexThroughputExceeded = "The level of configured provisioned throughput for one or more global secondary indexes of the table was exceeded. Consider increasing your provisioning level for the under-provisioned global secondary indexes with the UpdateTable API"
	// msgOnDemandThrottled is an on-demand table's ThrottlingException
	// (cowinapi/developer.cowin issue 151, 2021;
	// praetorian-inc/chariot-ui issue 684, 2024).
	msgOnDemandThrottled = "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html"
	// msgOnDemandIndexThrottled is the same for an on-demand table's GSIs:
	// the API reference gives it as the cancellation reason of a
	// transaction throttled so (TransactionCanceledException, "Throttling
	// Error"); no recording of the exception's own was found.
	msgOnDemandIndexThrottled = "Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB is automatically scaling your index so please try again shortly."
)

// bucket is one token bucket: its units and when they were counted.
type bucket struct {
	tokens float64
	at     time.Time
	set    bool
}

// level refills b to now at rate units a second, holding at most burst
// seconds of them, and returns its units. A new bucket holds one
// second's.
func (b *bucket) level(now time.Time, rate, burst float64) float64 {
	if !b.set {
		b.tokens, b.at, b.set = rate, now, true
	} else if d := now.Sub(b.at).Seconds(); d > 0 {
		b.tokens += d * rate
		b.at = now
	}
	if top := rate * burst; b.tokens > top {
		b.tokens = top
	}
	return b.tokens
}

// rw is a read bucket and a write bucket.
type rw [2]bucket

func rwIndex(write bool) int {
	if write {
		return 1
	}
	return 0
}

// capTable is a table's buckets.
type capTable struct {
	id      uint64 // the table's: one created again under its name starts afresh
	table   rw
	indexes map[string]*rw
	keys    map[uint64]*rw // partition key hash → its buckets
}

// capGate holds every enforced table's buckets and counts the throttles.
type capGate struct {
	mu        sync.Mutex
	tables    map[string]*capTable
	throttled map[ThrottleKey]uint64
}

// ThrottleKey names what throttled requests are counted by: the table,
// the index ("" for the table itself) and the reason
// (TableWriteProvisionedThroughputExceeded, ...).
type ThrottleKey struct {
	Table, Index, Reason string
}

// limit is a bucket's rate a second, its burst in seconds and the limit
// type a throttle by it reports.
type limit struct {
	rate, burst float64
	kind        string
}

// throughputLimit is the limit of a table or GSI of billing mode mode
// with provisioned throughput tp and on-demand maximum od.
func throughputLimit(mode string, tp *catThroughput, od *catOnDemand, write bool) limit {
	if mode != dynamo.BillingModePayPerRequest {
		var u int64
		if tp != nil {
			u = tp.ReadCapacityUnits
			if write {
				u = tp.WriteCapacityUnits
			}
		}
		return limit{rate: float64(u), burst: burstSeconds, kind: limitProvisioned}
	}
	var max *int64
	if od != nil {
		max = od.MaxReadRequestUnits
		if write {
			max = od.MaxWriteRequestUnits
		}
	}
	// -1 is no maximum.
	if max != nil && *max > 0 && *max <= onDemandTableQuota {
		return limit{rate: float64(*max), burst: 1, kind: limitMaxOnDemand}
	}
	return limit{rate: onDemandTableQuota, burst: 1, kind: limitAccount}
}

func partitionLimit(write bool) limit {
	if write {
		return limit{rate: partitionWriteUnits, burst: 1, kind: limitKeyRange}
	}
	return limit{rate: partitionReadUnits, burst: 1, kind: limitKeyRange}
}

// tagEnforcement reads a table's capacity tag: 1 on, -1 off, 0 none.
func tagEnforcement(tags []catTag) int8 {
	for _, tg := range tags {
		if tg.Key == capacityTag {
			switch strings.ToLower(tg.Value) {
			case "true":
				return 1
			case "false":
				return -1
			}
		}
	}
	return 0
}

// enforcing reports whether t's capacity is enforced.
func (db *DB) enforcing(t *table) bool {
	switch t.enforce {
	case 1:
		return true
	case -1:
		return false
	}
	return db.opts.EnforceCapacity
}

// capTable returns t's buckets; g.mu is held.
func (g *capGate) capTable(t *table) *capTable {
	ct := g.tables[t.meta.Name]
	if ct == nil || ct.id != t.meta.ID {
		if g.tables == nil {
			g.tables = map[string]*capTable{}
		}
		ct = &capTable{id: t.meta.ID}
		g.tables[t.meta.Name] = ct
	}
	return ct
}

func (ct *capTable) index(name string) *rw {
	b := ct.indexes[name]
	if b == nil {
		if ct.indexes == nil {
			ct.indexes = map[string]*rw{}
		}
		b = new(rw)
		ct.indexes[name] = b
	}
	return b
}

// maxKeyBuckets bounds a table's partition key buckets: past it, the
// ones refilled full (idle for a second or more) are dropped, as a new
// bucket would be the same.
const maxKeyBuckets = 4096

func (ct *capTable) key(hash uint64, now time.Time) *rw {
	b := ct.keys[hash]
	if b == nil {
		if ct.keys == nil {
			ct.keys = map[uint64]*rw{}
		}
		if len(ct.keys) >= maxKeyBuckets {
			for h, kb := range ct.keys {
				if now.Sub(kb[0].at) >= time.Second && now.Sub(kb[1].at) >= time.Second {
					delete(ct.keys, h)
				}
			}
		}
		b = new(rw)
		ct.keys[hash] = b
	}
	return b
}

// keyHash is the partition key hash of the item at row key row.
func keyHash(row []byte) (uint64, bool) {
	_, _, h, _, err := keys.SplitRowKey(row)
	return h, err == nil
}

// admission is what a request asks of the buckets before it runs.
type admission struct {
	// ix is the GSI a read reads (nil for the table or an LSI).
	ix *index
	// write is set for a write.
	write bool
	// row is the row key of the one item the request reads or writes,
	// nil for a request on no single item (Query, Scan).
	row []byte
	// pending is what the same request has already let through on the
	// table (the earlier items of a batch), not yet charged.
	pending float64
	// eventual is set for an eventually consistent read, whose least
	// cost is half a unit.
	eventual bool
}

// least is the least a request a costs: half a unit for an eventually
// consistent read, one for any other. A bucket lets a request through
// when it holds that much, so that a client calling in a loop gets the
// bucket's rate exactly, whatever the clock's resolution.
func (a admission) least() float64 {
	if !a.write && a.eventual {
		return 0.5
	}
	return 1
}

// admit returns the throttling error of a request a on t when a bucket it
// draws on is empty, or nil to let it through.
func (db *DB) admit(t *table, a admission) *dynamo.Error {
	if !db.enforcing(t) {
		return nil
	}
	now := db.capacityNow()
	g := &db.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	ct := g.capTable(t)
	w := rwIndex(a.write)
	op := "Read"
	if a.write {
		op = "Write"
	}
	var reasons []dynamo.ThrottlingReason
	var indexes []string
	least := a.least()
	if a.ix == nil {
		l := throughputLimit(t.meta.BillingMode, &t.meta.Throughput, t.meta.OnDemand, a.write)
		if ct.table[w].level(now, l.rate, l.burst)-a.pending < least {
			reasons = append(reasons, dynamo.ThrottlingReason{Reason: "Table" + op + l.kind, Resource: t.arn(db)})
			indexes = append(indexes, "")
		}
	} else {
		l := throughputLimit(t.meta.BillingMode, a.ix.meta.Throughput, a.ix.meta.OnDemand, false)
		if ct.index(a.ix.meta.Name)[0].level(now, l.rate, l.burst) < least {
			reasons = append(reasons, dynamo.ThrottlingReason{Reason: "Index" + op + l.kind, Resource: t.indexArn(db, a.ix)})
			indexes = append(indexes, a.ix.meta.Name)
		}
	}
	if a.write {
		for _, ix := range t.indexes {
			if !ix.meta.Global {
				continue
			}
			l := throughputLimit(t.meta.BillingMode, ix.meta.Throughput, ix.meta.OnDemand, true)
			if ct.index(ix.meta.Name)[1].level(now, l.rate, l.burst)-a.pending < least {
				reasons = append(reasons, dynamo.ThrottlingReason{Reason: "IndexWrite" + l.kind, Resource: t.indexArn(db, ix)})
				indexes = append(indexes, ix.meta.Name)
			}
		}
	}
	if a.row != nil {
		if h, ok := keyHash(a.row); ok {
			l := partitionLimit(a.write)
			if ct.key(h, now)[w].level(now, l.rate, l.burst) < least {
				reasons = append(reasons, dynamo.ThrottlingReason{Reason: "Table" + op + l.kind, Resource: t.arn(db)})
				indexes = append(indexes, "")
			}
		}
	}
	if reasons == nil {
		return nil
	}
	if g.throttled == nil {
		g.throttled = map[ThrottleKey]uint64{}
	}
	for i, r := range reasons {
		g.throttled[ThrottleKey{Table: t.meta.Name, Index: indexes[i], Reason: r.Reason}]++
	}
	e := throttleError(t.meta.BillingMode, reasons)
	db.log.Debug("throttled a request: capacity enforced (--enforce-capacity)", "table", t.meta.Name, "error", e.Code, "reasons", reasonList(reasons))
	return e
}

func reasonList(rs []dynamo.ThrottlingReason) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = r.Reason + " " + r.Resource
	}
	return strings.Join(s, ", ")
}

// onlyIndexes reports whether every reason is an index's.
func onlyIndexes(reasons []dynamo.ThrottlingReason) bool {
	for _, r := range reasons {
		if strings.HasPrefix(r.Reason, "Table") {
			return false
		}
	}
	return true
}

// throttleError is DynamoDB's error for reasons on a table of billing
// mode mode. A provisioned table's throttles are
// ProvisionedThroughputExceededException, worded for the GSIs when only
// GSIs ran out; an on-demand table's are ThrottlingException, and
// RequestLimitExceeded when only the account's per-table quota ran out
// (developer guide, error handling, Programming.Errors: the exceptions
// and the throttling reasons each carries).
func throttleError(mode string, reasons []dynamo.ThrottlingReason) *dynamo.Error {
	if mode != dynamo.BillingModePayPerRequest {
		msg := dynamo.MsgTableThroughputExceeded
		if onlyIndexes(reasons) {
			msg = msgIndexThroughputExceeded
		}
		e := dynamo.ProvisionedThroughputExceeded(msg)
		e.ThrottlingReasons = reasons
		return e
	}
	account := true
	for _, r := range reasons {
		if !strings.HasSuffix(r.Reason, limitAccount) {
			account = false
		}
	}
	var e *dynamo.Error
	switch {
	case account:
		e = dynamo.RequestLimitExceeded(dynamo.MsgRequestLimitExceeded)
	case onlyIndexes(reasons):
		e = dynamo.Throttling(msgOnDemandIndexThrottled)
	default:
		e = dynamo.Throttling(msgOnDemandThrottled)
	}
	e.ThrottlingReasons = reasons
	return e
}

// txAdmission is one action of a transaction to admit: its table, its
// item's row key and the least it costs.
type txAdmission struct {
	t     *table
	row   []byte
	units float64
}

// The texts of a transaction's cancellation reasons for throttling on an
// on-demand table: its ThrottlingError reasons (API reference,
// TransactionCanceledException, "Throttling Error"). A provisioned
// table's ProvisionedThroughputExceeded reasons carry the texts of
// ProvisionedThroughputExceededException.
const (
	msgTxOnDemandThrottled = msgOnDemandThrottled + "."
)

// admitTransaction admits a transaction's actions, writes or reads, each
// counting against the next on its table at its least cost. When any is
// throttled the transaction is cancelled, with a ProvisionedThroughputExceeded
// reason (provisioned table) or a ThrottlingError reason (on-demand) at
// each throttled action and None at the others: "There is insufficient
// provisioned capacity for the transaction to be completed" is among the
// causes of TransactionCanceledException, with those codes and texts (API
// reference, TransactionCanceledException).
func (db *DB) admitTransaction(acts []txAdmission, write bool) error {
	var reasons []dynamo.CancellationReason
	var pending map[string]float64
	for i, a := range acts {
		if !db.enforcing(a.t) {
			continue
		}
		if pending == nil {
			pending = map[string]float64{}
		}
		e := db.admit(a.t, admission{write: write, row: a.row, pending: pending[a.t.meta.Name]})
		if e == nil {
			pending[a.t.meta.Name] += a.units
			continue
		}
		if reasons == nil {
			reasons = make([]dynamo.CancellationReason, len(acts))
			for j := range reasons {
				reasons[j].Code = ReasonNone
			}
		}
		reasons[i] = txThrottleReason(e)
	}
	if reasons == nil {
		return nil
	}
	return dynamo.TransactionCanceled(reasons)
}

// txThrottleReason is the cancellation reason of an action throttled
// with e.
func txThrottleReason(e *dynamo.Error) dynamo.CancellationReason {
	if e.Code == dynamo.CodeProvisionedThroughput {
		return dynamo.CancellationReason{Code: "ProvisionedThroughputExceeded", Message: e.Message}
	}
	msg := msgTxOnDemandThrottled
	if onlyIndexes(e.ThrottlingReasons) {
		msg = msgOnDemandIndexThrottled
	}
	return dynamo.CancellationReason{Code: "ThrottlingError", Message: msg}
}

// charge draws the units a request was billed from t's buckets:
// tableUnits from the table's, each GSI's from its own, an LSI's from the
// table's.
func (db *DB) charge(t *table, tableUnits float64, perIndex map[string]float64, write bool) {
	if !db.enforcing(t) {
		return
	}
	now := db.capacityNow()
	w := rwIndex(write)
	g := &db.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	ct := g.capTable(t)
	l := throughputLimit(t.meta.BillingMode, &t.meta.Throughput, t.meta.OnDemand, write)
	ct.table[w].level(now, l.rate, l.burst)
	ct.table[w].tokens -= tableUnits
	for name, u := range perIndex {
		ix := t.index(name)
		if ix == nil || !ix.meta.Global {
			ct.table[w].tokens -= u
			continue
		}
		l := throughputLimit(t.meta.BillingMode, ix.meta.Throughput, ix.meta.OnDemand, write)
		b := &ct.index(name)[w]
		b.level(now, l.rate, l.burst)
		b.tokens -= u
	}
}

// chargeKey draws units from the partition of the item at row key row.
func (db *DB) chargeKey(t *table, row []byte, units float64, write bool) {
	if !db.enforcing(t) {
		return
	}
	h, ok := keyHash(row)
	if !ok {
		return
	}
	now := db.capacityNow()
	w := rwIndex(write)
	g := &db.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	l := partitionLimit(write)
	b := &g.capTable(t).key(h, now)[w]
	b.level(now, l.rate, l.burst)
	b.tokens -= units
}

func (db *DB) capacityNow() time.Time { return db.opts.CapacityNow() }

// throttleCounts copies out the throttle counts.
func (db *DB) throttleCounts() map[ThrottleKey]uint64 {
	g := &db.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.throttled) == 0 {
		return nil
	}
	out := make(map[ThrottleKey]uint64, len(g.throttled))
	for k, v := range g.throttled {
		out[k] = v
	}
	return out
}
