package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/internal/exchange"
)

func init() {
	register(verb{name: "load", summary: "write an export's items (dynago dump's, DynamoDB's) or ImportTable's input files into a table, through the API", run: runLoad})
}

const loadSynopsis = `Usage: dynago load TABLE --dir DIR [flags]

Writes into TABLE, which must exist, the items of an export in DynamoDB's
layout (what dynago dump and DynamoDB's export to S3 write), or, with
--format, of every file under DIR in one of ImportTable's input formats:

  dynago load Orders --dir ./backups                  # the newest export there
  dynago load Orders --dir ./backups --export-id 01733...-a1b2c3d4
  dynago load Orders --dir s3://bucket/in --format CSV --compression GZIP
  dynago load Orders --dir ./in --format ION

Items go in with BatchWriteItem, 25 at a time, --workers files at once;
unprocessed items are sent again, after a growing pause. An incremental
export's deletions are deletes. CSV values are strings but for the key
attributes of the table and its indexes, which take their declared types;
the first line of each file is its header unless --csv-header names the
columns.

A bad line (malformed, or an item DynamoDB refuses) is reported on stderr
with its file and line and skipped; the others are loaded, and the exit
status is 1. A file wholly loaded is recorded in dynago-load-TABLE.json,
beside the export's manifests (or under DIR): run the same command again
after an interruption and it resumes with the files not yet recorded
(--restart loads them all again). A progress line goes to stderr every
second, with the time left when the export's manifest gives the total.

` + exchangeSynopsis + `

` + awsSynopsis

type loadFlags struct {
	dir, prefix, exportID   string
	format, compression     string
	csvHeader, csvDelimiter string
	workers                 int
	restart                 bool
}

func runLoad(env *Env, args []string) error {
	fs := newFlagSet(env, "load", loadSynopsis)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\n\nFlags:\n", loadSynopsis)
		fs.PrintDefaults()
	}
	target := addAWSFlags(fs)
	s3f := addS3Flags(fs)
	var lf loadFlags
	fs.StringVar(&lf.dir, "dir", "", "folder or s3://bucket/prefix to read (required)")
	fs.StringVar(&lf.prefix, "prefix", "", "key prefix under a folder --dir (an S3 URL carries its own)")
	fs.StringVar(&lf.exportID, "export-id", "", "the export to load, when the prefix holds several (default: the newest)")
	fs.StringVar(&lf.format, "format", "", "read every file under the prefix as CSV, DYNAMODB_JSON or ION (ImportTable's inputs) instead of an export")
	fs.StringVar(&lf.compression, "compression", "NONE", "with --format: NONE, GZIP or ZSTD")
	fs.StringVar(&lf.csvHeader, "csv-header", "", "with --format CSV: the columns, comma-separated; the files' first lines are then data")
	fs.StringVar(&lf.csvDelimiter, "csv-delimiter", ",", `with --format CSV: the delimiter, one of , : ; | "\t" or " "`)
	fs.IntVar(&lf.workers, "workers", 4, "files loaded at once")
	fs.BoolVar(&lf.restart, "restart", false, "load every file, ignoring the record of files already loaded")
	table, err := parseTableArgs(fs, args)
	if err != nil {
		return err
	}
	if lf.dir == "" {
		fmt.Fprintln(env.Stderr, "--dir is required")
		return errUsage
	}
	if lf.workers < 1 {
		fmt.Fprintln(env.Stderr, "--workers must be at least 1")
		return errUsage
	}
	ctx := env.Ctx
	c, err := target.dynamo(ctx)
	if err != nil {
		return err
	}
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return err
	}
	bucket, loc, _, err := openLocation(ctx, lf.dir, target, s3f)
	if err != nil {
		return err
	}
	keyPrefix := loc.Prefix
	if !loc.S3 {
		keyPrefix = lf.prefix
	}
	src, err := loadSources(ctx, env, bucket, keyPrefix, table, desc.Table, lf)
	if err != nil {
		return err
	}
	l := &loader{env: env, c: c, table: table, keys: keySchema(desc.Table), bucket: bucket, progressKey: src.progressKey}
	if !lf.restart {
		if err := l.readProgress(ctx); err != nil {
			return err
		}
	}
	var todo []loadFile
	skipped := 0
	for _, f := range src.files {
		if l.done[f.key] {
			skipped++
			continue
		}
		todo = append(todo, f)
	}
	if skipped > 0 {
		fmt.Fprintf(env.Stderr, "load: %d of %d files already loaded (recorded in %s); --restart loads them again\n", skipped, len(src.files), src.progressKey)
	}
	l.prog = startProgress("load", env.Stderr, src.total)
	err = l.run(ctx, todo, lf.workers)
	l.prog.finish()
	fmt.Fprintf(env.Stderr, "load: %d items into %s from %d files, %d bad lines; %s\n", l.prog.count(), table, len(todo), l.bad.Load(), l.prog.line())
	if err != nil {
		return err
	}
	if n := l.bad.Load(); n > 0 {
		return fmt.Errorf("%d bad lines skipped (listed above)", n)
	}
	return nil
}

// loadFile is a data file to load.
type loadFile struct {
	key  string
	open func(ctx context.Context) (*exchange.Reader, error)
}

type loadSource struct {
	files       []loadFile
	total       int64 // 0: unknown
	progressKey string
}

const progressPrefix = "dynago-load-"

func loadSources(ctx context.Context, env *Env, b exchange.Bucket, prefix, table string, desc *types.TableDescription, lf loadFlags) (*loadSource, error) {
	src := &loadSource{}
	if lf.format == "" {
		id := lf.exportID
		if id == "" {
			ids, err := exchange.FindExports(ctx, b, prefix)
			if err != nil {
				return nil, err
			}
			if len(ids) == 0 {
				return nil, fmt.Errorf("no export under %q (no AWSDynamoDB/<exportId>/manifest-summary.json); --format reads ImportTable's input files", lf.dir)
			}
			id = ids[len(ids)-1]
			if len(ids) > 1 {
				fmt.Fprintf(env.Stderr, "load: %d exports there, loading the newest, %s (--export-id chooses)\n", len(ids), id)
			}
		}
		e, err := exchange.ReadExport(ctx, b, prefix, id)
		if err != nil {
			return nil, err
		}
		src.total = e.Summary.ItemCount
		src.progressKey = e.Dir + "/" + progressPrefix + table + ".json"
		for _, f := range e.Files {
			src.files = append(src.files, loadFile{key: f.DataFileS3Key, open: func(ctx context.Context) (*exchange.Reader, error) {
				return e.Open(ctx, b, f)
			}})
		}
		return src, nil
	}
	opts := exchange.ReadOptions{
		Format:      exchange.Format(strings.ToUpper(lf.format)),
		Compression: exchange.Compression(strings.ToUpper(lf.compression)),
	}
	if opts.Format == exchange.FormatCSV {
		d := lf.csvDelimiter
		if d == `\t` {
			d = "\t"
		}
		if len(d) != 1 {
			return nil, fmt.Errorf("--csv-delimiter %q: want one character", lf.csvDelimiter)
		}
		opts.CSV.Delimiter = rune(d[0])
		if lf.csvHeader != "" {
			opts.CSV.Header = strings.Split(lf.csvHeader, ",")
		}
		opts.CSV.KeyTypes = map[string]attr.Type{}
		for _, d := range desc.AttributeDefinitions {
			opts.CSV.KeyTypes[aws.ToString(d.AttributeName)] = attr.ParseType(string(d.AttributeType))
		}
	}
	// Check the options once, on an empty input.
	if r, err := exchange.NewReader(bytes.NewReader(nil), "", opts); err != nil {
		return nil, err
	} else {
		r.Close()
	}
	listPrefix := strings.Trim(prefix, "/")
	if listPrefix != "" {
		listPrefix += "/"
	}
	keys, err := b.List(ctx, listPrefix)
	if err != nil {
		return nil, err
	}
	src.progressKey = listPrefix + progressPrefix + table + ".json"
	for _, k := range keys {
		if strings.HasPrefix(path.Base(k), progressPrefix) {
			continue
		}
		src.files = append(src.files, loadFile{key: k, open: func(ctx context.Context) (*exchange.Reader, error) {
			body, err := b.Get(ctx, k)
			if err != nil {
				return nil, err
			}
			r, err := exchange.NewReader(body, k, opts)
			if err != nil {
				body.Close()
				return nil, err
			}
			return readerClosing(r, body), nil
		}})
	}
	if len(src.files) == 0 {
		return nil, fmt.Errorf("no files under %q", lf.dir)
	}
	return src, nil
}

// readerClosing closes body when the reader is closed.
func readerClosing(r *exchange.Reader, body io.Closer) *exchange.Reader {
	exchange.OnClose(r, body.Close)
	return r
}

// loader writes records into a table.
type loader struct {
	env         *Env
	c           *dynamodb.Client
	table       string
	keys        []string
	bucket      exchange.Bucket
	progressKey string
	prog        *progress
	bad         atomic.Int64
	printed     atomic.Int64

	mu   sync.Mutex
	done map[string]bool
}

type progressRecord struct {
	Table     string   `json:"table"`
	Completed []string `json:"completed"`
}

func (l *loader) readProgress(ctx context.Context) error {
	l.done = map[string]bool{}
	r, err := l.bucket.Get(ctx, l.progressKey)
	if errors.Is(err, exchange.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	defer r.Close()
	var p progressRecord
	if err := json.NewDecoder(r).Decode(&p); err != nil {
		return fmt.Errorf("%s: %w (--restart ignores it)", l.progressKey, err)
	}
	for _, k := range p.Completed {
		l.done[k] = true
	}
	return nil
}

// markDone records a file as loaded.
func (l *loader) markDone(ctx context.Context, key string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done == nil {
		l.done = map[string]bool{}
	}
	l.done[key] = true
	p := progressRecord{Table: l.table}
	for k := range l.done {
		p.Completed = append(p.Completed, k)
	}
	slices.Sort(p.Completed)
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return l.bucket.Put(ctx, l.progressKey, bytes.NewReader(append(b, '\n')))
}

func (l *loader) run(ctx context.Context, files []loadFile, workers int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan loadFile)
	var wg sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	for range min(workers, max(len(files), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range next {
				if err := l.loadFile(ctx, f); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					return
				}
			}
		}()
	}
	for _, f := range files {
		select {
		case next <- f:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

func (l *loader) reportBad(msg string) {
	l.bad.Add(1)
	if l.printed.Add(1) <= 100 {
		fmt.Fprintf(l.env.Stderr, "load: %s\n", msg)
	} else if l.printed.Load() == 101 {
		fmt.Fprintln(l.env.Stderr, "load: more bad lines; only the first 100 are listed")
	}
}

func (l *loader) loadFile(ctx context.Context, f loadFile) error {
	r, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer r.Close()
	b := &batch{l: l}
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var le *exchange.LineError
		if errors.As(err, &le) {
			l.reportBad(le.Error())
			continue
		}
		if err != nil {
			return err
		}
		var req pendingWrite
		req.where = fmt.Sprintf("%s:%d", rec.File, rec.Line)
		switch {
		case rec.Item != nil:
			req.put = rec.Item
			req.key = project(rec.Item, l.keys)
		case rec.Change != nil && rec.Change.NewImage != nil:
			req.put = rec.Change.NewImage
			req.key = project(rec.Change.NewImage, l.keys)
		case rec.Change != nil:
			req.key = project(rec.Change.Keys, l.keys)
		default:
			continue
		}
		if err := b.add(ctx, req); err != nil {
			return err
		}
	}
	if err := b.flush(ctx); err != nil {
		return err
	}
	return l.markDone(ctx, f.key)
}

func project(it attr.Item, names []string) attr.Item {
	k := make(attr.Item, len(names))
	for _, n := range names {
		if v, ok := it[n]; ok {
			k[n] = v
		}
	}
	return k
}

// pendingWrite is a put (put set) or a delete of key.
type pendingWrite struct {
	put   attr.Item
	key   attr.Item
	where string
}

func (w pendingWrite) request() types.WriteRequest {
	if w.put != nil {
		return types.WriteRequest{PutRequest: &types.PutRequest{Item: itemToSDK(w.put)}}
	}
	return types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: itemToSDK(w.key)}}
}

// batch gathers up to 25 writes of distinct keys for one BatchWriteItem:
// DynamoDB refuses a batch naming one item twice.
type batch struct {
	l      *loader
	writes []pendingWrite
	keys   map[string]bool
}

const maxBatch = 25

func (b *batch) add(ctx context.Context, w pendingWrite) error {
	k := string(exchange.AppendItemJSON(nil, w.key))
	if len(b.writes) == maxBatch || b.keys[k] {
		if err := b.flush(ctx); err != nil {
			return err
		}
	}
	if b.keys == nil {
		b.keys = map[string]bool{}
	}
	b.keys[k] = true
	b.writes = append(b.writes, w)
	return nil
}

// flush writes the batch, sending unprocessed items again after a pause
// that doubles (with jitter) up to 5 s. A batch DynamoDB refuses as a
// whole (a ValidationException: an item too large, a key of the wrong
// type) is written item by item, so that only the bad items are skipped.
func (b *batch) flush(ctx context.Context) error {
	if len(b.writes) == 0 {
		return nil
	}
	writes := b.writes
	b.writes, b.keys = nil, nil
	reqs := make([]types.WriteRequest, len(writes))
	for i, w := range writes {
		reqs[i] = w.request()
	}
	pause := 50 * time.Millisecond
	for attempt := 0; len(reqs) > 0; attempt++ {
		out, err := b.l.c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{b.l.table: reqs}})
		if isValidation(err) && attempt == 0 {
			return b.oneByOne(ctx, writes)
		}
		if err != nil {
			return err
		}
		left := out.UnprocessedItems[b.l.table]
		b.l.prog.add(int64(len(reqs) - len(left)))
		reqs = left
		if len(reqs) > 0 {
			d := pause/2 + rand.N(pause/2+1)
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return ctx.Err()
			}
			pause = min(2*pause, 5*time.Second)
		}
	}
	return nil
}

func (b *batch) oneByOne(ctx context.Context, writes []pendingWrite) error {
	for _, w := range writes {
		var err error
		if w.put != nil {
			_, err = b.l.c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(b.l.table), Item: itemToSDK(w.put)})
		} else {
			_, err = b.l.c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(b.l.table), Key: itemToSDK(w.key)})
		}
		if isValidation(err) {
			b.l.reportBad(fmt.Sprintf("%s: %v", w.where, err))
			continue
		}
		if err != nil {
			return err
		}
		b.l.prog.add(1)
	}
	return nil
}

func isValidation(err error) bool {
	var ae smithy.APIError
	return errors.As(err, &ae) && ae.ErrorCode() == "ValidationException"
}
