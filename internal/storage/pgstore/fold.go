package pgstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
)

// foldRows is how many deltas one fold transaction moves.
const foldRows = 1024

// foldLoop folds deltas every interval until Close.
func (s *Store) foldLoop(interval time.Duration) {
	defer s.folder.Done()
	t := time.NewTicker(interval)
	defer t.Stop()
	failures := 0
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		if err := s.fold(s.ctx, false); err != nil && s.ctx.Err() == nil {
			// Another process folding the same deltas is expected;
			// anything else repeating is worth a warning, once in a while.
			failures++
			if retryable(err) {
				s.log.Debug("pgstore: fold conflicted with another", "err", err)
			} else if failures == 1 || failures%60 == 0 {
				s.log.Warn("pgstore: fold failed", "err", err, "failures", failures)
			}
			continue
		}
		failures = 0
	}
}

// Fold moves every counter delta present now into the folded counters,
// so that reading counters sums fewer rows, waiting for a fold running in
// another process to finish. The folder runs it; it is exported for tests
// and tools.
func (s *Store) Fold(ctx context.Context) error { return s.fold(ctx, true) }

// fold folds until no deltas are left. Unless wait is set, it gives up at
// once when another process is folding.
func (s *Store) fold(ctx context.Context, wait bool) error {
	delay := retryBaseDelay
	for attempt := 1; ; attempt++ {
		n, busy, err := s.foldOnce(ctx)
		switch {
		case err == nil && !busy && n < foldRows:
			return nil
		case err == nil && !busy:
			attempt = 0
			continue
		case !wait || (err != nil && !retryable(err)):
			return err
		case attempt >= maxCommitAttempts:
			if err == nil {
				err = errors.New("pgstore: fold: another process keeps folding")
			}
			return err
		}
		t := time.NewTimer(delay/2 + time.Duration(mrand.Int64N(int64(delay))))
		delay = min(2*delay, retryMaxDelay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

type foldDelta struct {
	k, id []byte
	c     [maxCounters]int64
}

// foldOnce folds up to foldRows deltas in one serializable transaction
// and returns how many it read, or busy when another process is folding.
func (s *Store) foldOnce(ctx context.Context) (n int, busy bool, err error) {
	if s.callTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.callTimeout)
		defer cancel()
	}

	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return 0, false, err
	}
	defer conn.Release()
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.Serializable})
	if err != nil {
		return 0, false, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))

	var one int
	if err := tx.QueryRow(ctx, s.q.foldLock).Scan(&one); errors.Is(err, pgx.ErrNoRows) {
		return 0, true, nil
	} else if err != nil {
		return 0, false, err
	}
	rows, err := tx.Query(ctx, s.q.foldScan, foldRows)
	if err != nil {
		return 0, false, err
	}
	var deltas []foldDelta
	for rows.Next() {
		var d foldDelta
		if err := rows.Scan(&d.k, &d.id, &d.c[0], &d.c[1], &d.c[2], &d.c[3]); err != nil {
			rows.Close()
			return 0, false, err
		}
		deltas = append(deltas, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, false, err
	}
	if len(deltas) == 0 {
		return 0, false, nil
	}

	// Group by key (the scan is in key order).
	type group struct {
		k   []byte
		ids [][]byte
		sum [maxCounters]int64
	}
	var groups []*group
	for _, d := range deltas {
		if len(groups) == 0 || !bytes.Equal(groups[len(groups)-1].k, d.k) {
			groups = append(groups, &group{k: d.k})
		}
		g := groups[len(groups)-1]
		g.ids = append(g.ids, d.id)
		for i, c := range d.c {
			g.sum[i] += c // wraps, as Pebble's counters do
		}
	}

	// Read the folded values, then write the new ones and drop the
	// deltas, each step one round trip.
	pb := &pgx.Batch{}
	for _, g := range groups {
		pb.Queue(s.q.foldBase, g.k)
	}
	br := tx.SendBatch(ctx, pb)
	for _, g := range groups {
		var base [maxCounters]int64
		err := br.QueryRow().Scan(&base[0], &base[1], &base[2], &base[3])
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			br.Close()
			return 0, false, err
		}
		for i := range g.sum {
			g.sum[i] += base[i]
		}
	}
	if err := br.Close(); err != nil {
		return 0, false, err
	}
	pb = &pgx.Batch{}
	for _, g := range groups {
		pb.Queue(s.q.foldSet, g.k, g.sum[0], g.sum[1], g.sum[2], g.sum[3])
		pb.Queue(s.q.foldDelete, g.k, g.ids)
	}
	if err := tx.SendBatch(ctx, pb).Close(); err != nil {
		return 0, false, err
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, false, fmt.Errorf("commit: %w", err)
	}
	return len(deltas), false, nil
}
