package pgstore

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"sort"

	"github.com/jackc/pgx/v5"
)

// Iterator pages: the first holds up to firstPageRows rows, each next one
// twice as many up to maxPageRows, and a page stops early past
// maxPageBytes, so an iterator keeps about a megabyte at most whatever
// its range, and a short read does not fetch rows it will not use.
// They are variables for the tests, which shrink them to cross pages.
var (
	firstPageRows = 64
	maxPageRows   = 256
	maxPageBytes  = 1 << 20
)

type kvRow struct{ k, v []byte }

type iterState uint8

const (
	stUnpositioned iterState = iota
	stValid
	stAtEnd   // moved past the last key
	stAtStart // moved before the first key
)

// iter walks [lower, upper) a page at a time. It caches one page, rows,
// and knows that every key in [coverLo, coverHi) is in it, so a move or a
// seek within that interval needs no query.
type iter struct {
	s *Store
	// snap is the connection of the snapshot this iterator reads, or nil.
	snap *holder
	// own is the read transaction of a store iterator, once it needs one.
	own *holder

	lower, upper []byte // lower is never nil; upper nil is unbounded

	rows             []kvRow
	have             bool
	coverLo, coverHi []byte // coverHi nil: unbounded (only if upper is nil)

	pos     int
	state   iterState
	err     error
	closed  bool
	limit   int
	fetched bool // a page was read: later pages must read the same view
	// atMost is the most keys the caller said it will visit (0: no
	// bound); a first page that holds them needs no transaction.
	atMost int
}

func newIter(s *Store, snap *holder, lower, upper []byte) *iter {
	it := &iter{s: s, snap: snap, lower: bytes.Clone(nonNil(lower)), limit: firstPageRows}
	if upper != nil {
		it.upper = bytes.Clone(upper)
	}
	return it
}

func (it *iter) usable() bool { return !it.closed && it.err == nil }

func (it *iter) setEnd() bool   { it.state = stAtEnd; return false }
func (it *iter) setStart() bool { it.state = stAtStart; return false }
func (it *iter) setErr(err error) bool {
	it.err = err
	it.state = stUnpositioned
	return false
}

func (it *iter) at(i int) bool {
	it.pos = i
	it.state = stValid
	return true
}

// isUpper reports whether b is the upper bound (nil for unbounded).
func (it *iter) isUpper(b []byte) bool {
	if it.upper == nil || b == nil {
		return it.upper == nil && b == nil
	}
	return bytes.Equal(b, it.upper)
}

func (it *iter) First() bool { return it.SeekGE(it.lower) }

func (it *iter) Last() bool { return it.seekLT(nil, true) }

func (it *iter) SeekGE(key []byte) bool {
	if !it.usable() {
		return false
	}
	if key == nil || bytes.Compare(key, it.lower) < 0 {
		key = it.lower
	}
	if it.upper != nil && bytes.Compare(key, it.upper) >= 0 {
		return it.setEnd()
	}
	if it.have && bytes.Compare(key, it.coverLo) >= 0 && (it.coverHi == nil || bytes.Compare(key, it.coverHi) < 0) {
		i := sort.Search(len(it.rows), func(i int) bool { return bytes.Compare(it.rows[i].k, key) >= 0 })
		if i < len(it.rows) {
			return it.at(i)
		}
		if it.isUpper(it.coverHi) {
			return it.setEnd()
		}
		return it.fetchFrom(it.coverHi)
	}
	return it.fetchFrom(key)
}

func (it *iter) SeekLT(key []byte) bool { return it.seekLT(nonNil(key), false) }

// seekLT positions at the last key below key, or at the last key when top
// is set (key nil).
func (it *iter) seekLT(key []byte, top bool) bool {
	if !it.usable() {
		return false
	}
	if top {
		key = nil
	}
	if it.upper != nil && (key == nil || bytes.Compare(key, it.upper) > 0) {
		key = it.upper
	}
	if key != nil && bytes.Compare(key, it.lower) <= 0 {
		return it.setStart()
	}
	inCover := false
	if it.have {
		if key == nil {
			inCover = it.coverHi == nil
		} else {
			inCover = bytes.Compare(key, it.coverLo) >= 0 && (it.coverHi == nil || bytes.Compare(key, it.coverHi) <= 0)
		}
	}
	if inCover {
		i := len(it.rows) - 1
		if key != nil {
			i = sort.Search(len(it.rows), func(i int) bool { return bytes.Compare(it.rows[i].k, key) >= 0 }) - 1
		}
		if i >= 0 {
			return it.at(i)
		}
		if bytes.Equal(it.coverLo, it.lower) {
			return it.setStart()
		}
		return it.fetchBelow(it.coverLo)
	}
	return it.fetchBelow(key)
}

func (it *iter) Next() bool {
	if !it.usable() {
		return false
	}
	switch it.state {
	case stAtStart:
		return it.First()
	case stUnpositioned, stAtEnd:
		return false
	}
	if it.pos+1 < len(it.rows) {
		return it.at(it.pos + 1)
	}
	if it.isUpper(it.coverHi) {
		return it.setEnd()
	}
	return it.fetchFrom(it.coverHi)
}

func (it *iter) Prev() bool {
	if !it.usable() {
		return false
	}
	switch it.state {
	case stUnpositioned, stAtEnd:
		return it.Last()
	case stAtStart:
		return false
	}
	if it.pos > 0 {
		return it.at(it.pos - 1)
	}
	if bytes.Equal(it.coverLo, it.lower) {
		return it.setStart()
	}
	return it.fetchBelow(it.coverLo)
}

func (it *iter) Valid() bool { return it.state == stValid && it.usable() }

func (it *iter) Key() []byte {
	if !it.Valid() {
		return nil
	}
	return it.rows[it.pos].k
}

func (it *iter) Value() []byte {
	if !it.Valid() {
		return nil
	}
	return it.rows[it.pos].v
}

func (it *iter) Error() error { return it.err }

// Close ends the iterator's read transaction and releases its connection.
// It reports the error that stopped the iterator, if one did, as Pebble's
// iterators do: a caller that checks only Close never takes a failed read
// for the end of the range.
func (it *iter) Close() error {
	if it.closed {
		return it.err
	}
	it.closed = true
	it.state = stUnpositioned
	it.rows = nil
	var err error
	if it.own != nil {
		err = it.own.release(true)
		runtime.KeepAlive(it) // no cleanup while releasing
	}
	if it.err != nil {
		return it.err
	}
	return err
}

// fetchFrom reads the page of keys >= start and positions on its first.
func (it *iter) fetchFrom(start []byte) bool {
	rows, full, err := it.page(true, start)
	if err != nil {
		return it.setErr(err)
	}
	it.rows, it.have, it.coverLo = rows, true, start
	if full {
		it.coverHi = append(bytes.Clone(rows[len(rows)-1].k), 0)
	} else {
		it.coverHi = it.upper
	}
	if len(rows) == 0 {
		return it.setEnd()
	}
	return it.at(0)
}

// fetchBelow reads the page of keys < end (nil: the top), and positions on
// its last.
func (it *iter) fetchBelow(end []byte) bool {
	rows, full, err := it.page(false, end)
	if err != nil {
		return it.setErr(err)
	}
	reverseRows(rows)
	it.rows, it.have, it.coverHi = rows, true, end
	if full {
		it.coverLo = rows[0].k
	} else {
		it.coverLo = it.lower
	}
	if len(rows) == 0 {
		return it.setStart()
	}
	return it.at(len(rows) - 1)
}

func reverseRows(r []kvRow) {
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
}

// query is the statement of a page: forward from start (inclusive), or
// backward below end (exclusive, nil for the top).
func (it *iter) query(fwd bool, from []byte, limit int) (string, []any) {
	q := &it.s.q
	switch {
	case fwd && it.upper != nil:
		return q.fwdBounded, []any{from, it.upper, limit}
	case fwd:
		return q.fwdOpen, []any{from, limit}
	case from != nil:
		return q.revBounded, []any{it.lower, from, limit}
	default:
		return q.revOpen, []any{it.lower, limit}
	}
}

// page reads one page in the iterator's view. A store iterator reads its
// first page, when that page starts at a bound, without a transaction: if
// the page holds the whole range, the iterator never needs another and
// holds no connection. Otherwise it begins its READ ONLY REPEATABLE READ
// transaction (in the same round trip as the page's query) and reads the
// page again there, so that every page comes from one view.
func (it *iter) page(fwd bool, from []byte) ([]kvRow, bool, error) {
	ctx, cancel := it.s.callCtx()
	defer cancel()
	limit := it.limit
	sql, args := it.query(fwd, from, limit)
	rows, full, err := it.pageIn(ctx, fwd, from, sql, args, limit)
	if err != nil {
		return nil, false, fmt.Errorf("pgstore: iterate: %w", err)
	}
	if full && len(rows) < limit {
		// Stopped by bytes: large values, so smaller pages.
		it.limit = max(1, len(rows))
	} else {
		it.limit = min(2*it.limit, maxPageRows)
	}
	return rows, full, nil
}

func (it *iter) pageIn(ctx context.Context, fwd bool, from []byte, sql string, args []any, limit int) ([]kvRow, bool, error) {
	if h := it.snap; h != nil {
		return h.query(ctx, sql, args, limit)
	}
	if it.own != nil {
		return it.own.query(ctx, sql, args, limit)
	}
	if it.s.ctx.Err() != nil {
		return nil, false, errClosed
	}
	whole := (fwd && bytes.Equal(from, it.lower)) || (!fwd && it.isUpper(from))
	if !it.fetched && whole {
		it.fetched = true
		r, err := it.s.pool.Query(ctx, sql, args...)
		if err != nil {
			return nil, false, err
		}
		rows, full, err := readPage(r, limit)
		if err != nil || !full {
			return rows, full, err
		}
		if it.atMost > 0 && len(rows) >= it.atMost {
			// All the caller will visit: no transaction, unless it
			// goes past them after all.
			return rows, full, nil
		}
	}
	it.fetched = true
	if err := it.s.takeSlot(ctx); err != nil {
		return nil, false, err
	}
	conn, err := it.s.pool.Acquire(ctx)
	if err != nil {
		it.s.giveSlot()
		return nil, false, err
	}
	h := it.s.hold(conn, true)
	if h == nil {
		return nil, false, errClosed
	}
	it.own = h
	// Should the caller drop the iterator without closing it, the
	// connection still goes back to the pool.
	runtime.AddCleanup(it, (*holder).abandoned, h)
	defer runtime.KeepAlive(it)
	h.mu.Lock()
	defer h.mu.Unlock()
	pb := &pgx.Batch{}
	pb.Queue(it.s.q.beginRead)
	pb.Queue(sql, args...)
	br := h.conn.SendBatch(ctx, pb)
	var rows []kvRow
	var full bool
	_, err = br.Exec()
	if err == nil {
		var r pgx.Rows
		r, err = br.Query()
		if err == nil {
			rows, full, err = readPage(r, limit)
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return rows, full, err
}

// query reads one page on a held connection.
func (h *holder) query(ctx context.Context, sql string, args []any, limit int) ([]kvRow, bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.conn == nil {
		return nil, false, errClosed
	}
	r, err := h.conn.Query(ctx, sql, args...)
	if err != nil {
		return nil, false, err
	}
	return readPage(r, limit)
}

// readPage copies up to limit rows of (k, v), stopping early once past
// maxPageBytes; full reports that more rows may follow.
func readPage(r pgx.Rows, limit int) ([]kvRow, bool, error) {
	defer r.Close()
	var out []kvRow
	size := 0
	full := false
	for r.Next() {
		k, err := rawBytes(r, 0)
		if err != nil {
			return nil, false, err
		}
		v, err := rawBytes(r, 1)
		if err != nil {
			return nil, false, err
		}
		buf := make([]byte, len(k)+len(v))
		copy(buf, k)
		copy(buf[len(k):], v)
		out = append(out, kvRow{k: buf[:len(k):len(k)], v: buf[len(k):]})
		size += len(buf)
		if len(out) >= limit || size >= maxPageBytes {
			full = true
			break
		}
	}
	r.Close()
	if err := r.Err(); err != nil {
		return nil, false, err
	}
	return out, full, nil
}
