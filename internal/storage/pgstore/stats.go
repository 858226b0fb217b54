package pgstore

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dynago/dynago/internal/storage"
)

// tracer counts the statements sent to the database and the time they
// took, for Stats. A pipelined batch (a commit) counts as one statement:
// one round trip. pipelines and pipelined count the batches and the
// statements inside them, so that statements per request can be told
// from round trips per request.
type tracer struct {
	statements atomic.Int64
	failed     atomic.Int64
	nanos      atomic.Int64
	pipelines  atomic.Int64
	pipelined  atomic.Int64
}

type traceStart struct{}

func (tr *tracer) start(ctx context.Context) context.Context {
	return context.WithValue(ctx, traceStart{}, time.Now())
}

func (tr *tracer) end(ctx context.Context, err error) {
	tr.statements.Add(1)
	if err != nil {
		tr.failed.Add(1)
	}
	if t, ok := ctx.Value(traceStart{}).(time.Time); ok {
		tr.nanos.Add(int64(time.Since(t)))
	}
}

func (tr *tracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return tr.start(ctx)
}

func (tr *tracer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryEndData) {
	tr.end(ctx, d.Err)
}

func (tr *tracer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchStartData) context.Context {
	tr.pipelines.Add(1)
	if d.Batch != nil {
		tr.pipelined.Add(int64(d.Batch.Len()))
	}
	return tr.start(ctx)
}

func (tr *tracer) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (tr *tracer) TraceBatchEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchEndData) {
	tr.end(ctx, d.Err)
}

// Stats reports the pool's use, the statements sent and their time, and
// the commits retried.
func (s *Store) Stats() []storage.Stat {
	p := s.pool.Stat()
	return []storage.Stat{
		{Name: "pg_pool_max_conns", Help: "Connections the pool may open.", Value: float64(p.MaxConns())},
		{Name: "pg_pool_conns", Help: "Connections open.", Value: float64(p.TotalConns())},
		{Name: "pg_pool_acquired_conns", Help: "Connections in use.", Value: float64(p.AcquiredConns())},
		{Name: "pg_pool_idle_conns", Help: "Connections open and idle.", Value: float64(p.IdleConns())},
		{Name: "pg_pool_acquires_total", Help: "Connections taken from the pool.", Counter: true, Value: float64(p.AcquireCount())},
		{Name: "pg_pool_empty_acquires_total", Help: "Connections taken that had to wait for one to be free or opened.", Counter: true, Value: float64(p.EmptyAcquireCount())},
		{Name: "pg_pool_acquire_seconds_total", Help: "Time spent taking connections from the pool.", Counter: true, Value: p.AcquireDuration().Seconds()},
		{Name: "pg_statements_total", Help: "Statements sent to the database (a pipelined commit counts once).", Counter: true, Value: float64(s.tracer.statements.Load())},
		{Name: "pg_statement_errors_total", Help: "Statements that failed.", Counter: true, Value: float64(s.tracer.failed.Load())},
		{Name: "pg_pipelines_total", Help: "Pipelines sent to the database (each counted once in pg_statements_total).", Counter: true, Value: float64(s.tracer.pipelines.Load())},
		{Name: "pg_pipelined_statements_total", Help: "Statements sent inside pipelines.", Counter: true, Value: float64(s.tracer.pipelined.Load())},
		{Name: "pg_statement_seconds_total", Help: "Time the statements took, round trip included.", Counter: true, Value: time.Duration(s.tracer.nanos.Load()).Seconds()},
		{Name: "pg_commit_retries_total", Help: "Commits run again after a serialization failure or deadlock.", Counter: true, Value: float64(s.retries.Load())},
	}
}
