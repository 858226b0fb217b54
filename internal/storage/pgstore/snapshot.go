package pgstore

import (
	"context"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/dynago/dynago/internal/storage"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
)

// holder is a pooled connection held by a snapshot or an iterator, with an
// open transaction. Its mutex serialises the statements sent on it (a
// snapshot's iterators share it). The store keeps a list of holders so
// that Close can release what their owners did not.
type holder struct {
	s    *Store
	mu   sync.Mutex
	conn *pgxpool.Conn
}

// takeSlot waits for one of the hold slots (Store.holdSlots); the holder
// made with it gives it back on release.
func (s *Store) takeSlot(ctx context.Context) error {
	select {
	case s.holdSlots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Store) giveSlot() { <-s.holdSlots }

// hold registers conn, taken with a hold slot, or releases both and
// returns nil after Close.
func (s *Store) hold(conn *pgxpool.Conn, inTx bool) *holder {
	h := &holder{s: s, conn: conn}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		conn.Release()
		s.giveSlot()
		return nil
	}
	s.held[h] = struct{}{}
	return h
}

// release ends the transaction (when rollback is set) and returns the
// connection to the pool. A connection whose transaction is still open,
// because the rollback failed or was skipped, is closed by the pool
// rather than reused. Safe to call twice.
func (h *holder) release(rollback bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.conn == nil {
		return nil
	}
	var err error
	if rollback && !h.conn.Conn().IsClosed() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err = h.conn.Exec(ctx, "ROLLBACK")
		cancel()
	}
	h.conn.Release()
	h.conn = nil
	h.s.giveSlot()
	h.s.mu.Lock()
	delete(h.s.held, h)
	h.s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("pgstore: end read transaction: %w", err)
	}
	return nil
}

// abandoned releases the connection of an iterator that was dropped
// without Close.
func (h *holder) abandoned() {
	h.mu.Lock()
	open := h.conn != nil
	h.mu.Unlock()
	if open {
		h.s.log.Warn("pgstore: an iterator was not closed; closing it")
		h.release(true)
	}
}

// snapshot is a SERIALIZABLE READ ONLY DEFERRABLE transaction.
type snapshot struct {
	s *Store
	h *holder
}

func (sn *snapshot) Get(key, dst []byte) ([]byte, bool, error) {
	ctx, cancel := sn.s.callCtx()
	defer cancel()
	sn.h.mu.Lock()
	defer sn.h.mu.Unlock()
	if sn.h.conn == nil {
		return dst, false, errClosed
	}
	return getRow(ctx, sn.h.conn, sn.s.q.get, key, dst)
}

func (sn *snapshot) Counters(key []byte, n int) ([]int64, error) {
	ctx, cancel := sn.s.callCtx()
	defer cancel()
	sn.h.mu.Lock()
	defer sn.h.mu.Unlock()
	if sn.h.conn == nil {
		return nil, errClosed
	}
	return readCounters(ctx, sn.h.conn, sn.s.q.counters, key, n)
}

// NewIter returns an iterator reading the snapshot through its
// connection; close it before the snapshot.
func (sn *snapshot) NewIter(lower, upper []byte) (storage.Iter, error) {
	sn.h.mu.Lock()
	closed := sn.h.conn == nil
	sn.h.mu.Unlock()
	if closed {
		return nil, errClosed
	}
	return newIter(sn.s, sn.h, lower, upper), nil
}

// Close ends the transaction and releases the connection, even when the
// rollback fails.
func (sn *snapshot) Close() error { return sn.h.release(true) }

// readCounters sums the folded counters and the deltas at key.
func readCounters(ctx context.Context, q querier, sql string, key []byte, n int) ([]int64, error) {
	var sums [maxCounters]pgtype.Numeric
	rows, err := q.Query(ctx, sql, key)
	if err != nil {
		return nil, fmt.Errorf("pgstore: counters: %w", err)
	}
	if rows.Next() {
		if err := rows.Scan(&sums[0], &sums[1], &sums[2], &sums[3]); err != nil {
			rows.Close()
			return nil, fmt.Errorf("pgstore: counters: %w", err)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("pgstore: counters: %w", err)
	}
	out := make([]int64, max(n, 0))
	for i := range out {
		if i < maxCounters {
			v, err := wrapInt64(sums[i])
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
	}
	return out, nil
}

var mask64 = new(big.Int).SetUint64(^uint64(0))

// wrapInt64 converts an integral sum to int64 the way adding int64s in Go
// would: modulo 2^64, two's complement. NULL (no rows) is zero.
func wrapInt64(n pgtype.Numeric) (int64, error) {
	if !n.Valid {
		return 0, nil
	}
	if n.NaN || n.InfinityModifier != pgtype.Finite {
		return 0, fmt.Errorf("pgstore: counters: sum is not a number")
	}
	x := new(big.Int).Set(n.Int)
	if n.Exp > 0 {
		x.Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n.Exp)), nil))
	} else if n.Exp < 0 {
		// A sum of integers may come back with a scale (CockroachDB's
		// DECIMAL); drop the zero fraction.
		x.Quo(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-n.Exp)), nil))
	}
	// big.Int's And works on two's complement, so this is x mod 2^64.
	x.And(x, mask64)
	return int64(x.Uint64()), nil
}
