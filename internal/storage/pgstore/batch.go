package pgstore

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"time"

	"github.com/dynago/dynago/internal/storage"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Commit's retries of serialization failures and deadlocks.
const (
	maxCommitAttempts = 50
	retryBaseDelay    = time.Millisecond
	retryMaxDelay     = 100 * time.Millisecond
	// expectInline is the largest expected value compared as is; a longer
	// one is compared by length and MD5 digest, computed by the server, so
	// the value does not travel back.
	expectInline = 64
)

var (
	errBatchDone  = errors.New("pgstore: batch already committed or closed")
	errRolledBack = errors.New("the transaction was rolled back")
)

type opKind uint8

const (
	opSet opKind = iota
	opInsert
	opDelete
	opDeleteRange
	opAdd
)

type op struct {
	kind   opKind
	key    []byte
	val    []byte // set: value; delete range: end
	deltas [maxCounters]int64
}

type expectation struct {
	key, val []byte
	found    bool
	// upper, for ExpectNone, ends the range starting at key that must
	// hold no key (nil: no end).
	upper []byte
	none  bool
}

// batch buffers writes in memory, in order, until Commit.
type batch struct {
	s      *Store
	ops    []op
	exps   []expectation
	writes bool
	done   bool
}

// NewBatch implements storage.Store.
func (s *Store) NewBatch() storage.Batch { return &batch{s: s} }

func (b *batch) Set(key, value []byte) error {
	if b.done {
		return errBatchDone
	}
	b.ops = append(b.ops, op{kind: opSet, key: bytes.Clone(nonNil(key)), val: bytes.Clone(nonNil(value))})
	b.writes = true
	return nil
}

// Insert queues a plain INSERT: a row another transaction committed at
// key fails it with a unique violation, reported as storage.ErrConflict.
func (b *batch) Insert(key, value []byte) error {
	if b.done {
		return errBatchDone
	}
	b.ops = append(b.ops, op{kind: opInsert, key: bytes.Clone(nonNil(key)), val: bytes.Clone(nonNil(value))})
	b.writes = true
	return nil
}

func (b *batch) Delete(key []byte) error {
	if b.done {
		return errBatchDone
	}
	b.ops = append(b.ops, op{kind: opDelete, key: bytes.Clone(nonNil(key))})
	b.writes = true
	return nil
}

func (b *batch) DeleteRange(start, end []byte) error {
	if b.done {
		return errBatchDone
	}
	b.ops = append(b.ops, op{kind: opDeleteRange, key: bytes.Clone(nonNil(start)), val: bytes.Clone(nonNil(end))})
	b.writes = true
	return nil
}

// AddCounters adds up to four deltas to the counters at key.
func (b *batch) AddCounters(key []byte, deltas ...int64) error {
	if b.done {
		return errBatchDone
	}
	if len(deltas) > maxCounters {
		return fmt.Errorf("pgstore: %d counters at one key; at most %d", len(deltas), maxCounters)
	}
	o := op{kind: opAdd, key: bytes.Clone(nonNil(key))}
	copy(o.deltas[:], deltas)
	b.ops = append(b.ops, o)
	b.writes = true
	return nil
}

// Expect keeps value (not a copy) until Commit, as the interface allows.
func (b *batch) Expect(key, value []byte, found bool) {
	if b.done {
		return
	}
	b.exps = append(b.exps, expectation{key: bytes.Clone(nonNil(key)), val: value, found: found})
}

// ExpectNone expects no key in [lower, upper).
func (b *batch) ExpectNone(lower, upper []byte) {
	if b.done {
		return
	}
	b.exps = append(b.exps, expectation{key: bytes.Clone(nonNil(lower)), upper: bytes.Clone(upper), none: true})
}

func (b *batch) Empty() bool { return !b.writes }

func (b *batch) Close() {
	b.done = true
	b.ops, b.exps = nil, nil
}

// Commit applies the batch in one serializable transaction, checking its
// expectations first; see the package comment.
func (b *batch) Commit() error {
	if b.done {
		return errBatchDone
	}
	b.done = true
	defer func() { b.ops, b.exps = nil, nil }()
	if !b.writes && len(b.exps) == 0 {
		return nil
	}
	return b.s.commit(b.plan(), dedupe(b.exps))
}

// pending is what a batch leaves at one key.
type pending struct {
	del    bool // delete the value and counters first
	set    bool
	insert bool // set by an Insert: the key must not exist before
	val    []byte
	add    bool
	deltas [maxCounters]int64
}

// plan is a batch reduced to its effect: range deletions, which run
// first, then each key's final operations in key order. A range deletion
// drops the point operations before it in its range (it would undo them);
// those after it survive and run after it.
type plan struct {
	ranges [][2][]byte
	keys   []string
	at     map[string]*pending
}

func (b *batch) plan() plan {
	p := plan{at: map[string]*pending{}}
	for _, o := range b.ops {
		switch o.kind {
		case opDeleteRange:
			if bytes.Compare(o.key, o.val) >= 0 {
				continue
			}
			for k := range p.at {
				if k >= string(o.key) && k < string(o.val) {
					delete(p.at, k)
				}
			}
			p.ranges = append(p.ranges, [2][]byte{o.key, o.val})
			continue
		}
		pd := p.at[string(o.key)]
		if pd == nil {
			pd = &pending{}
			p.at[string(o.key)] = pd
		}
		switch o.kind {
		case opSet:
			pd.set, pd.val, pd.insert = true, o.val, false
		case opInsert:
			// An Insert after a delete or set of the same key in this
			// batch is a set: the key's earlier state is the batch's own.
			pd.insert = !pd.set && !pd.del
			pd.set, pd.val = true, o.val
		case opDelete:
			*pd = pending{del: true}
		case opAdd:
			pd.add = true
			for i, d := range o.deltas {
				pd.deltas[i] += d // wraps, as Pebble's counters do
			}
		}
	}
	for k := range p.at {
		p.keys = append(p.keys, k)
	}
	// Key order makes concurrent transactions take row locks in one order.
	slices.Sort(p.keys)
	return p
}

// Batches of many keys, a BatchWriteItem's or a transaction's, check
// their expectations in one statement and write their rows in one, where
// a statement per key costs the database more CPU than the rows
// themselves; a single write's few keys keep a statement each, which
// PostgreSQL runs with less CPU than the one statement over arrays
// (BenchmarkCommitWrite, BenchmarkCommitBatch25).
const (
	// manyExpectations is the least number of expectations on keys
	// checked in one statement.
	manyExpectations = 4
	// manyRows is the least number of rows set (or inserted) in one
	// statement.
	manyRows = 4
)

// statements builds the pipeline of one attempt and reports how many of
// its statements after BEGIN are expectations.
func (s *Store) statements(p plan, exps []expectation) (*pgx.Batch, int, error) {
	q := &s.q
	pb := &pgx.Batch{}
	pb.Queue(q.beginWrite)
	nexp := 0
	points := 0
	for _, e := range exps {
		if !e.none {
			points++
		}
	}
	var (
		keys, vals [][]byte
		lens       []int32
		digests    []*string
	)
	for _, e := range exps {
		if e.none {
			if e.upper == nil {
				pb.Queue(q.expectNoneAfter, e.key)
			} else {
				pb.Queue(q.expectNone, e.key, e.upper)
			}
			nexp++
			continue
		}
		var d *string
		n := int32(len(e.val))
		switch {
		case !e.found:
			n = -1
		case len(e.val) > expectInline:
			sum := md5.Sum(e.val)
			h := hex.EncodeToString(sum[:])
			d = &h
		}
		if points >= manyExpectations {
			var v []byte
			if n >= 0 && d == nil {
				v = nonNil(e.val)
			}
			keys, vals, lens, digests = append(keys, e.key), append(vals, v), append(lens, n), append(digests, d)
			continue
		}
		switch {
		case n < 0:
			pb.Queue(q.expectAbsent, e.key)
		case d == nil:
			pb.Queue(q.expectValue, e.key, nonNil(e.val))
		default:
			pb.Queue(q.expectDigest, e.key, n, *d)
		}
		nexp++
	}
	if len(keys) > 0 {
		pb.Queue(q.expectKeys, keys, vals, lens, digests)
		nexp++
	}
	for _, r := range p.ranges {
		for _, st := range q.delRange {
			pb.Queue(st, r[0], r[1])
		}
	}
	// Deletions first (a key deleted then set loses only its counters
	// here), then the rows set and inserted, each in key order, then
	// the counters.
	var setKeys, setVals, insKeys, insVals [][]byte
	for _, ks := range p.keys {
		k := []byte(ks)
		pd := p.at[ks]
		if pd.del {
			if !pd.set {
				pb.Queue(q.del, k)
			}
			pb.Queue(q.delCounterDeltas, k)
			pb.Queue(q.delCounterBase, k)
			pb.Queue(q.delCounterKey, k)
		}
		if pd.set && pd.insert {
			insKeys, insVals = append(insKeys, k), append(insVals, pd.val)
		} else if pd.set {
			setKeys, setVals = append(setKeys, k), append(setVals, pd.val)
		}
	}
	queueRows(pb, q.set, q.setMany, setKeys, setVals)
	queueRows(pb, q.insert, q.insertMany, insKeys, insVals)
	for _, ks := range p.keys {
		pd := p.at[ks]
		if pd.add && pd.deltas != [maxCounters]int64{} {
			var id [16]byte
			if _, err := rand.Read(id[:]); err != nil {
				return nil, 0, err
			}
			k := []byte(ks)
			pb.Queue(q.addCounterKey, k)
			pb.Queue(q.addDelta, k, id[:], pd.deltas[0], pd.deltas[1], pd.deltas[2], pd.deltas[3])
		}
	}
	pb.Queue("COMMIT")
	return pb, nexp, nil
}

// queueRows queues the writes of keys with their values: a statement
// each (one), or all in one (many) from manyRows on.
func queueRows(pb *pgx.Batch, one, many string, keys, vals [][]byte) {
	if len(keys) >= manyRows {
		pb.Queue(many, keys, vals)
		return
	}
	for i, k := range keys {
		pb.Queue(one, k, vals[i])
	}
}

// dedupe drops the expectations that repeat an earlier one (same key,
// same expected state): the engine expects a table's catalog row once per
// item it writes, and one check of it is enough. Two different
// expectations of one key both stay: they cannot both hold, and the
// commit fails as it should.
func dedupe(exps []expectation) []expectation {
	if len(exps) < 2 {
		return exps
	}
	seen := make(map[string][]int, len(exps))
	out := exps[:0:0]
	for _, e := range exps {
		dup := false
		for _, j := range seen[string(e.key)] {
			if x := out[j]; x.found == e.found && x.none == e.none && bytes.Equal(x.val, e.val) && bytes.Equal(x.upper, e.upper) {
				dup = true
				break
			}
		}
		if !dup {
			seen[string(e.key)] = append(seen[string(e.key)], len(out))
			out = append(out, e)
		}
	}
	return out
}

// commit runs the plan, retrying serialization failures and deadlocks.
func (s *Store) commit(p plan, exps []expectation) error {
	ctx, cancel := s.callCtx()
	defer cancel()
	var conn *pgxpool.Conn
	defer func() {
		if conn != nil {
			conn.Release()
		}
	}()
	delay := retryBaseDelay
	for attempt := 1; ; attempt++ {
		if conn == nil {
			c, err := s.pool.Acquire(ctx)
			if err != nil {
				return fmt.Errorf("pgstore: commit: %w", err)
			}
			conn = c
		}
		pb, nexp, err := s.statements(p, exps)
		if err != nil {
			return fmt.Errorf("pgstore: commit: %w", err)
		}
		err = s.commitOnce(ctx, conn, pb, nexp)
		if err == nil || errors.Is(err, storage.ErrConflict) {
			return err
		}
		if conn.Conn().IsClosed() {
			conn.Release()
			conn = nil
		}
		switch {
		case retryable(err):
		case errors.Is(err, errRolledBack) || sqlState(err) != "":
			// The server refused the transaction: nothing was applied.
			return fmt.Errorf("pgstore: commit: %w", err)
		case pgconn.SafeToRetry(err):
			// Nothing reached the server.
		default:
			// The pipeline, COMMIT included, may have run.
			return fmt.Errorf("%w: %w", ErrCommitUnknown, err)
		}
		if attempt >= maxCommitAttempts {
			return fmt.Errorf("pgstore: commit: gave up after %d attempts: %w", attempt, err)
		}
		s.retries.Add(1)
		s.log.Debug("pgstore: commit retried", "attempt", attempt, "sqlstate", sqlState(err), "reason", pgReason(err))
		// Full jitter around an exponential delay.
		d := delay/2 + time.Duration(mrand.Int64N(int64(delay)))
		delay = min(2*delay, retryMaxDelay)
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("pgstore: commit: %w (last error: %w)", ctx.Err(), err)
		case <-t.C:
		}
	}
}

// commitOnce sends one attempt as one pipeline and reads its results.
func (s *Store) commitOnce(ctx context.Context, conn *pgxpool.Conn, pb *pgx.Batch, nexp int) error {
	n := pb.Len()
	br := conn.SendBatch(ctx, pb)
	var err error
	var tag pgconn.CommandTag
	failed := -1
	for i := 0; i < n; i++ {
		tag, err = br.Exec()
		if err != nil {
			failed = i
			break
		}
	}
	if cerr := br.Close(); err == nil && cerr != nil {
		err = cerr
		failed = n - 1
	}
	if err == nil {
		// COMMIT of a transaction that failed answers ROLLBACK.
		if tag.String() != "COMMIT" {
			return fmt.Errorf("%w (%s)", errRolledBack, tag.String())
		}
		return nil
	}
	// The server skipped what followed the error; the transaction is
	// still open (aborted) unless the error came from COMMIT itself.
	if sqlState(err) != "" && !conn.Conn().IsClosed() && conn.Conn().PgConn().TxStatus() != 'I' {
		if _, rerr := conn.Exec(ctx, "ROLLBACK"); rerr != nil {
			conn.Conn().Close(context.Background())
		}
	}
	if failed >= 1 && failed <= nexp && sqlState(err) == "22012" {
		return fmt.Errorf("pgstore: commit: %w", storage.ErrConflict)
	}
	if failed > nexp && sqlState(err) == "23505" {
		// An Insert met a key another transaction committed.
		return fmt.Errorf("pgstore: commit: %w", storage.ErrConflict)
	}
	return err
}

// pgReason is a server error's message and detail for the log: PostgreSQL
// puts no values in those of the errors retried.
func pgReason(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Message + "; " + pe.Detail
	}
	return ""
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
