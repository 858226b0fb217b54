package pgstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
		if err := s.Fold(s.ctx); err != nil && s.ctx.Err() == nil {
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
// so that reading counters sums fewer rows. The folder calls it; it is
// exported for tests and tools. Safe to run in several processes at once.
func (s *Store) Fold(ctx context.Context) error {
	for {
		n, err := s.foldOnce(ctx)
		if err != nil {
			return err
		}
		if n < foldRows {
			return nil
		}
	}
}

type foldDelta struct {
	k, id []byte
	c     [maxCounters]int64
}

// foldOnce folds up to foldRows deltas in one serializable transaction
// and returns how many it read.
func (s *Store) foldOnce(ctx context.Context) (int, error) {
	if s.callTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.callTimeout)
		defer cancel()
	}

	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.Serializable})
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))

	rows, err := tx.Query(ctx, s.q.foldScan, foldRows)
	if err != nil {
		return 0, err
	}
	var deltas []foldDelta
	for rows.Next() {
		var d foldDelta
		if err := rows.Scan(&d.k, &d.id, &d.c[0], &d.c[1], &d.c[2], &d.c[3]); err != nil {
			rows.Close()
			return 0, err
		}
		deltas = append(deltas, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(deltas) == 0 {
		return 0, nil
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
			return 0, err
		}
		for i := range g.sum {
			g.sum[i] += base[i]
		}
	}
	if err := br.Close(); err != nil {
		return 0, err
	}
	pb = &pgx.Batch{}
	for _, g := range groups {
		pb.Queue(s.q.foldSet, g.k, g.sum[0], g.sum[1], g.sum[2], g.sum[3])
		pb.Queue(s.q.foldDelete, g.k, g.ids)
	}
	if err := tx.SendBatch(ctx, pb).Close(); err != nil {
		return 0, err
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("commit: %w", err)
	}
	return len(deltas), nil
}
