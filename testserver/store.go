package testserver

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/internal/storage/pgstore"
)

// StoreEnv names the environment variable that picks the store of the
// servers tests start: unset (or "pebble") for Pebble in memory,
// "postgres" for a fresh schema, per server, in the PostgreSQL server
// internal/pgtest finds. .ci/run runs the end-to-end suite both ways.
const StoreEnv = "DYNAGO_TEST_STORE"

// OnPostgres reports whether test servers keep their data in PostgreSQL.
func OnPostgres() bool { return os.Getenv(StoreEnv) == "postgres" }

// openTestStore opens the store a test server uses: nil (Pebble in
// memory) unless the suite runs on PostgreSQL.
func openTestStore(t testing.TB) storage.Store {
	if !OnPostgres() {
		return nil
	}
	url, schema := pgtest.Schema(t)
	return OpenPostgres(t, url, schema)
}

// OpenPostgres opens the PostgreSQL store at url in schema, for a test.
// The engine that takes it closes it.
func OpenPostgres(t testing.TB, url, schema string) storage.Store {
	t.Helper()
	st, err := pgstore.Open(context.Background(), pgstore.Options{URL: url, Schema: schema, Logger: nil})
	if err != nil {
		t.Fatalf("open PostgreSQL store: %v", err)
	}
	return st
}

// SharedStoreArgs returns the serve flags that put a server on a fresh
// PostgreSQL schema, and the schema's URL and name, so that several
// servers can be started on the same one with StoreArgs.
func SharedStoreArgs(t testing.TB) []string {
	url, schema := pgtest.Schema(t)
	return StoreArgs(url, schema)
}

// StoreArgs are the serve flags for the PostgreSQL store at url, schema.
func StoreArgs(url, schema string) []string {
	return []string{"--store", url, "--store-schema", schema}
}

// processStoreArgs replaces --in-memory with a fresh PostgreSQL schema
// when the suite runs on PostgreSQL, so that process-based tests run on
// the same store as the others. Servers given --data-dir (or -dbPath,
// DynamoDB Local's name for it) or --store keep them.
func processStoreArgs(t testing.TB, args []string) []string {
	if !OnPostgres() || slices.Contains(args, "--data-dir") || slices.Contains(args, "-dbPath") || slices.Contains(args, "--store") {
		return args
	}
	out := slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--in-memory" })
	return append(out, SharedStoreArgs(t)...)
}
