package pgstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// SchemaVersion is the version of the tables this package reads and
// writes. Raise it with a new entry in migrations.
const SchemaVersion = 1

// migrations[i] brings a schema at version i to version i+1. Every
// statement must be idempotent (IF NOT EXISTS): YugabyteDB may commit DDL
// apart from its transaction, and a migration interrupted there runs
// again.
var migrations = [][]string{
	// 0 -> 1
	{
		`CREATE TABLE IF NOT EXISTS {kv} (
			k bytea PRIMARY KEY,
			v bytea NOT NULL
		)`,
		`CREATE TABLE IF NOT EXISTS {counters} (
			k bytea PRIMARY KEY,
			c0 bigint NOT NULL,
			c1 bigint NOT NULL,
			c2 bigint NOT NULL,
			c3 bigint NOT NULL
		)`,
		`CREATE TABLE IF NOT EXISTS {counter_deltas} (
			k bytea NOT NULL,
			id bytea NOT NULL,
			c0 bigint NOT NULL,
			c1 bigint NOT NULL,
			c2 bigint NOT NULL,
			c3 bigint NOT NULL,
			PRIMARY KEY (k, id)
		)`,
		`CREATE TABLE IF NOT EXISTS {counter_keys} (
			k bytea PRIMARY KEY
		)`,
		`CREATE TABLE IF NOT EXISTS {fold_lock} (
			id int PRIMARY KEY
		)`,
		`INSERT INTO {fold_lock} (id) VALUES (1) ON CONFLICT (id) DO NOTHING`,
	},
}

// SchemaVersionError is Open's error when the database was set up by a
// newer dynago.
type SchemaVersionError struct {
	// Database is the schema version found in the database.
	Database int
	// Binary is the newest version this package knows (SchemaVersion).
	Binary int
}

func (e *SchemaVersionError) Error() string {
	return fmt.Sprintf("database schema version %d is newer than this dynago (%d); upgrade dynago", e.Database, e.Binary)
}

// queries are the statements, with the schema's tables filled in.
type queries struct {
	version, createSchema, createVersion, setVersion string
	migrations                                       [][]string

	get, getMany, counters string
	// Iterator pages: forward from an inclusive start, below an upper
	// bound or not; backward below an exclusive end or from the top.
	fwdBounded, fwdOpen, revBounded, revOpen string

	beginWrite, beginRead, beginSnapshot string

	expectValue, expectDigest, expectAbsent, expectKeys string
	expectNone, expectNoneAfter                         string

	set, insert, setMany, insertMany                string
	del                                             string
	delCounterDeltas, delCounterBase, delCounterKey string
	delRange                                        []string
	addDelta, addCounterKey                         string

	foldLock, foldScan, foldBase, foldSet, foldDelete string
}

func makeQueries(schema string) queries {
	tables := map[string]string{}
	for _, t := range []string{"schema_version", "kv", "counters", "counter_deltas", "counter_keys", "fold_lock"} {
		tables["{"+t+"}"] = pgx.Identifier{schema, t}.Sanitize()
	}
	pairs := make([]string, 0, 2*len(tables))
	for k, v := range tables {
		pairs = append(pairs, k, v)
	}
	r := strings.NewReplacer(pairs...).Replace

	q := queries{
		version:       r(`SELECT version FROM {schema_version} WHERE id = 1`),
		createSchema:  "CREATE SCHEMA IF NOT EXISTS " + pgx.Identifier{schema}.Sanitize(),
		createVersion: r(`CREATE TABLE IF NOT EXISTS {schema_version} (id int PRIMARY KEY, version int NOT NULL)`),
		setVersion:    r(`INSERT INTO {schema_version} (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version`),

		get:     r(`SELECT v FROM {kv} WHERE k = $1`),
		getMany: r(`SELECT k, v FROM {kv} WHERE k = ANY($1)`),
		// Sums come back as numeric, so overflow wraps in Go as Pebble's
		// counters do rather than failing in SQL.
		counters: r(`SELECT sum(c0), sum(c1), sum(c2), sum(c3) FROM (
			SELECT c0, c1, c2, c3 FROM {counters} WHERE k = $1
			UNION ALL
			SELECT c0, c1, c2, c3 FROM {counter_deltas} WHERE k = $1) t`),

		fwdBounded: r(`SELECT k, v FROM {kv} WHERE k >= $1 AND k < $2 ORDER BY k LIMIT $3`),
		fwdOpen:    r(`SELECT k, v FROM {kv} WHERE k >= $1 ORDER BY k LIMIT $2`),
		revBounded: r(`SELECT k, v FROM {kv} WHERE k >= $1 AND k < $2 ORDER BY k DESC LIMIT $3`),
		revOpen:    r(`SELECT k, v FROM {kv} WHERE k >= $1 ORDER BY k DESC LIMIT $2`),

		beginWrite:    "BEGIN ISOLATION LEVEL SERIALIZABLE",
		beginRead:     "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
		beginSnapshot: "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY DEFERRABLE",

		// An expectation that does not hold divides by zero (SQLSTATE
		// 22012), which aborts the transaction before its writes. count(*)
		// is not a constant, so no planner folds the division early.
		expectValue:  r(`SELECT 1 / count(*) FROM {kv} WHERE k = $1 AND v = $2`),
		expectDigest: r(`SELECT 1 / count(*) FROM {kv} WHERE k = $1 AND length(v) = $2 AND md5(v) = $3`),
		expectAbsent: r(`SELECT 1 / (1 - count(*)) FROM {kv} WHERE k = $1`),
		// expectKeys checks many expectations on keys in one statement:
		// element i of its arrays is key $1[i], absent when $3[i] is
		// negative, else holding $2[i] or, when $4[i] is not null, a value
		// of length $3[i] whose MD5 digest is $4[i]. Each key is read by
		// a subquery of its own, so each is one index lookup whatever
		// the planner thinks of the table's size.
		expectKeys: r(`SELECT 1 / (CASE WHEN count(*) = 0 THEN 1 ELSE 0 END)
			FROM unnest($1::bytea[], $2::bytea[], $3::int[], $4::text[]) AS e(k, v, n, d)
			WHERE NOT COALESCE((SELECT CASE
					WHEN e.n < 0 THEN false
					WHEN e.d IS NULL THEN kv.v = e.v
					ELSE length(kv.v) = e.n AND md5(kv.v) = e.d END
				FROM {kv} kv WHERE kv.k = e.k), e.n < 0)`),
		// The range's first key, if any, is enough to fail it.
		expectNone:      r(`SELECT 1 / (1 - count(*)) FROM (SELECT 1 FROM {kv} WHERE k >= $1 AND k < $2 LIMIT 1) x`),
		expectNoneAfter: r(`SELECT 1 / (1 - count(*)) FROM (SELECT 1 FROM {kv} WHERE k >= $1 LIMIT 1) x`),

		set:    r(`INSERT INTO {kv} (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = excluded.v`),
		insert: r(`INSERT INTO {kv} (k, v) VALUES ($1, $2)`),
		// setMany and insertMany write many keys in one statement: $1
		// the keys, distinct and in order, $2 their values.
		setMany:    r(`INSERT INTO {kv} (k, v) SELECT * FROM unnest($1::bytea[], $2::bytea[]) ON CONFLICT (k) DO UPDATE SET v = excluded.v`),
		insertMany: r(`INSERT INTO {kv} (k, v) SELECT * FROM unnest($1::bytea[], $2::bytea[])`),
		del:        r(`DELETE FROM {kv} WHERE k = $1`),
		// The EXISTS does not depend on the deleted rows, so it is
		// evaluated once, first, and the counter tables are not read at
		// all for a key without counters.
		delCounterDeltas: r(`DELETE FROM {counter_deltas} WHERE k = $1 AND EXISTS (SELECT 1 FROM {counter_keys} WHERE k = $1)`),
		delCounterBase:   r(`DELETE FROM {counters} WHERE k = $1 AND EXISTS (SELECT 1 FROM {counter_keys} WHERE k = $1)`),
		delCounterKey:    r(`DELETE FROM {counter_keys} WHERE k = $1`),
		delRange: []string{
			r(`DELETE FROM {kv} WHERE k >= $1 AND k < $2`),
			r(`DELETE FROM {counter_deltas} WHERE k >= $1 AND k < $2`),
			r(`DELETE FROM {counters} WHERE k >= $1 AND k < $2`),
			r(`DELETE FROM {counter_keys} WHERE k >= $1 AND k < $2`),
		},
		addCounterKey: r(`INSERT INTO {counter_keys} (k) VALUES ($1) ON CONFLICT (k) DO NOTHING`),
		addDelta:      r(`INSERT INTO {counter_deltas} (k, id, c0, c1, c2, c3) VALUES ($1, $2, $3, $4, $5, $6)`),

		// Folds take turns: two at once would each read the deltas the
		// other deletes, and PostgreSQL would then abort a batch adding to
		// a counter meanwhile, as the middle of that cycle.
		foldLock:   r(`SELECT id FROM {fold_lock} WHERE id = 1 FOR UPDATE SKIP LOCKED`),
		foldScan:   r(`SELECT k, id, c0, c1, c2, c3 FROM {counter_deltas} ORDER BY k, id LIMIT $1`),
		foldBase:   r(`SELECT c0, c1, c2, c3 FROM {counters} WHERE k = $1`),
		foldSet:    r(`INSERT INTO {counters} (k, c0, c1, c2, c3) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (k) DO UPDATE SET c0 = excluded.c0, c1 = excluded.c1, c2 = excluded.c2, c3 = excluded.c3`),
		foldDelete: r(`DELETE FROM {counter_deltas} WHERE k = $1 AND id = ANY($2::bytea[])`),
	}
	for _, m := range migrations {
		var stmts []string
		for _, st := range m {
			stmts = append(stmts, r(st))
		}
		q.migrations = append(q.migrations, stmts)
	}
	return q
}

// migrate brings the schema to SchemaVersion, or refuses a newer one.
// Several processes may run it at once on an empty database: each
// attempt is one serializable transaction of idempotent statements, and
// one that collides with another's (a serialization failure, or a
// duplicate catalog entry from a concurrent CREATE ... IF NOT EXISTS)
// runs again.
func (s *Store) migrate(ctx context.Context) error {
	v, err := s.readVersion(ctx)
	if err == nil && v == SchemaVersion {
		return nil
	}
	if err == nil && v > SchemaVersion {
		return &SchemaVersionError{Database: v, Binary: SchemaVersion}
	}
	if err != nil {
		switch sqlState(err) {
		case "42P01", "3F000": // undefined table, undefined schema
		default:
			return fmt.Errorf("pgstore: read schema version: %w", err)
		}
	}
	for attempt := 1; ; attempt++ {
		from, err := s.migrateOnce(ctx)
		if err == nil {
			if from < SchemaVersion {
				s.log.Info("pgstore: schema migrated", "schema", s.schema, "from", from, "to", SchemaVersion)
			}
			return nil
		}
		var sv *SchemaVersionError
		if errors.As(err, &sv) {
			return err
		}
		switch sqlState(err) {
		case "40001", "40P01", "23505", "42P06", "42P07", "42710":
			if attempt < 30 && ctx.Err() == nil {
				time.Sleep(time.Duration(5+rand.IntN(20*attempt)) * time.Millisecond)
				continue
			}
		}
		return fmt.Errorf("pgstore: migrate schema %q to version %d: %w", s.schema, SchemaVersion, err)
	}
}

func (s *Store) readVersion(ctx context.Context) (int, error) {
	var v int
	err := s.pool.QueryRow(ctx, s.q.version).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	return v, err
}

// migrateOnce runs one attempt and returns the version it started from.
func (s *Store) migrateOnce(ctx context.Context) (int, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	if s.flavor == flavorYugabyte {
		// YugabyteDB shards a primary key by hash unless told otherwise,
		// which would make every range read a full scan. PostgreSQL
		// rejects ASC in a PRIMARY KEY clause, so the portable DDL says
		// nothing and this session setting (YugabyteDB 2024.1 and later)
		// asks for range sharding.
		if _, err := conn.Exec(ctx, "SET yb_use_hash_splitting_by_default = off"); err != nil {
			s.log.Warn("pgstore: could not ask YugabyteDB for range sharding; range reads will be slow", "err", err)
		}
	}
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.Serializable})
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	for _, st := range []string{s.q.createSchema, s.q.createVersion} {
		if _, err := tx.Exec(ctx, st); err != nil {
			return 0, err
		}
	}
	var from int
	if err := tx.QueryRow(ctx, s.q.version).Scan(&from); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return 0, err
	}
	if from > SchemaVersion {
		return from, &SchemaVersionError{Database: from, Binary: SchemaVersion}
	}
	if from == SchemaVersion {
		return from, nil
	}
	for v := from; v < SchemaVersion; v++ {
		for _, st := range s.q.migrations[v] {
			if _, err := tx.Exec(ctx, st); err != nil {
				return from, err
			}
		}
	}
	if _, err := tx.Exec(ctx, s.q.setVersion, SchemaVersion); err != nil {
		return from, err
	}
	return from, tx.Commit(ctx)
}
