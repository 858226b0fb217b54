package engine

import (
	"context"
	"time"

	"github.com/dynago/dynago/attr"
)

// Exchange is where exports write and imports read. The engine knows
// items only; an implementation (package exports) knows buckets, files
// and formats.
type Exchange interface {
	// BeginExport starts writing an export.
	BeginExport(ctx context.Context, job ExportJob) (ExportSink, error)
	// OpenImport reads an import's files, in a stable order.
	OpenImport(ctx context.Context, job ImportJob) (ImportSource, error)
}

// ExportJob describes an export to write.
type ExportJob struct {
	Bucket, Prefix       string
	ExportID, ExportArn  string
	TableArn, TableID    string
	Format               string // DYNAMODB_JSON or ION
	Type                 string // FULL_EXPORT or INCREMENTAL_EXPORT
	View                 string // an incremental export's view type
	Start                time.Time
	ExportTime, From, To time.Time
}

// ExportSink takes an export's items (a full export) or changes (an
// incremental one), then writes its manifests.
type ExportSink interface {
	WriteItem(it attr.Item) error
	WriteChange(keys, newImage, oldImage attr.Item, micros int64) error
	// Finish writes the manifests and returns the summary's key, the
	// item count and the billed size.
	Finish(ctx context.Context) (manifest string, items, billed int64, err error)
}

// ImportJob describes an import's files.
type ImportJob struct {
	Bucket, Prefix string
	Format         string // DYNAMODB_JSON, ION or CSV
	Compression    string // NONE, GZIP or ZSTD
	CSVDelimiter   string
	CSVHeader      []string
	// KeyTypes gives the key attributes' types (S, N or B), which a CSV
	// column takes.
	KeyTypes map[string]string
}

// ImportSource yields an import's items one at a time.
type ImportSource interface {
	// Next returns the next item and the bytes it was read from; bad is
	// a line that could not be read (the import counts it and goes on);
	// err is io.EOF at the end, or a failure of the whole import.
	Next(ctx context.Context) (it attr.Item, size int64, bad error, err error)
	Close() error
}
