package cli

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/internal/storage/pgstore"
)

// openStore opens the PostgreSQL store --store names, failing fast when
// the database cannot be reached.
func openStore(ctx context.Context, c serveConfig, log *slog.Logger) (storage.Store, error) {
	if c.storeMaxConns < 0 || c.storeMaxConns == 1 {
		return nil, fmt.Errorf("--store-max-conns: %d: use 0 (four per CPU) or at least 2", c.storeMaxConns)
	}
	if c.storeCallTimeout <= 0 {
		return nil, fmt.Errorf("--store-call-timeout: %v is not positive", c.storeCallTimeout)
	}
	if c.storeStatementTimeout < 0 {
		return nil, fmt.Errorf("--store-statement-timeout: %v is negative", c.storeStatementTimeout)
	}
	st, err := pgstore.Open(ctx, pgstore.Options{
		URL:              c.store,
		Schema:           c.storeSchema,
		MaxConns:         int32(c.storeMaxConns),
		StatementTimeout: c.storeStatementTimeout,
		CallTimeout:      c.storeCallTimeout,
		Logger:           log,
	})
	if err != nil {
		return nil, fmt.Errorf("--store: %w", err)
	}
	log.Info("store", "kind", "postgres", "url", redactArg(c.store), "schema", c.storeSchema)
	return st, nil
}
