package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"sort"
	"strconv"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// Imports: ImportTable creates a table, CREATING until every item of the
// import's files is in, and a job that reads the files through
// Options.Exchange and writes their items through the ordinary write path
// (indexes and counters with them), a chunk per batch with the import's
// counts and how many records it has consumed:
//
//	NSMeta 'I' import ARN -> JSON importMeta
//
// A line that cannot be read, or an item without the table's key or with
// a key or index key of the wrong type, is counted in ErrorCount and
// skipped, as AWS's import does. An import cut short by the process's
// death goes on at the next start after the records it had consumed. An
// import whose files cannot be read at all FAILS, and its table goes.

// importMeta is an import's entry.
type importMeta struct {
	Desc     dynamo.ImportTableDescription `json:"desc"`
	TableID  uint64                        `json:"tableID"`
	Consumed int64                         `json:"consumed"`
	raw      []byte
}

func metaImportKey(arn string) []byte {
	return append([]byte{keys.NSMeta, metaTagImport}, arn...)
}

func (db *DB) importTable(in *dynamo.ImportTableInput) (*dynamo.ImportTableOutput, error) {
	var c constraints
	if in.S3BucketSource == nil {
		c.notNull("s3BucketSource")
	} else if in.S3BucketSource.S3Bucket == "" {
		c.notNull("s3BucketSource.s3Bucket")
	}
	if in.InputFormat == "" {
		c.notNull("inputFormat")
	}
	c.enum("inputFormat", in.InputFormat, dynamo.InputFormatDynamoDBJSON, dynamo.InputFormatIon, dynamo.InputFormatCSV)
	c.enum("inputCompressionType", in.InputCompressionType, dynamo.InputCompressionGzip, dynamo.InputCompressionZstd, dynamo.InputCompressionNone)
	if in.TableCreationParameters == nil {
		c.notNull("tableCreationParameters")
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	p := in.TableCreationParameters
	cin := &dynamo.CreateTableInput{
		TableName:              p.TableName,
		AttributeDefinitions:   p.AttributeDefinitions,
		KeySchema:              p.KeySchema,
		BillingMode:            p.BillingMode,
		ProvisionedThroughput:  p.ProvisionedThroughput,
		OnDemandThroughput:     p.OnDemandThroughput,
		SSESpecification:       p.SSESpecification,
		GlobalSecondaryIndexes: p.GlobalSecondaryIndexes,
		// The new table's vector indexes, checked as CreateTable's
		// (AWS's agent toolkit, vector-search.md: "on import, define the
		// index in the import request as you would for CreateTable").
		VectorIndexes: p.VectorIndexes,
	}
	if err := validateCreateTable(cin); err != nil {
		return nil, err
	}
	if o := in.InputFormatOptions; o != nil && o.Csv != nil && in.InputFormat != dynamo.InputFormatCSV {
		return nil, dynamo.Validation("InputFormatOptions.Csv can only be given for the CSV input format")
	}
	db.ddl.Lock()
	defer db.ddl.Unlock()
	if t, err := db.lookupFresh(p.TableName); err != nil {
		return nil, err
	} else if t != nil {
		return nil, dynamo.InUse(msgTableAlreadyExists(p.TableName))
	}
	if err := db.checkJobLimit("imports"); err != nil {
		return nil, err
	}
	now := db.now()
	m := db.newTableMeta(cin, p.TableName, now)
	b := db.store.NewBatch()
	defer b.Close()
	id, err := db.nextTableIDLocked(b)
	if err != nil {
		return nil, err
	}
	m.ID = id
	// CREATING until the import ends it.
	m.Transition, m.TransitionEnds = dynamo.TableStatusCreating, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	t := newTable(m)
	next, err := db.putTableLocked(b, t)
	if err != nil {
		return nil, err
	}
	im := &importMeta{TableID: id}
	d := &im.Desc
	*d = dynamo.ImportTableDescription{
		ImportArn:               t.arn(db) + "/import/" + newExportID(now),
		ImportStatus:            dynamo.ImportStatusInProgress,
		TableArn:                t.arn(db),
		TableId:                 m.UUID,
		ClientToken:             in.ClientToken,
		S3BucketSource:          in.S3BucketSource,
		InputFormat:             in.InputFormat,
		InputFormatOptions:      in.InputFormatOptions,
		InputCompressionType:    in.InputCompressionType,
		TableCreationParameters: p,
		StartTime:               &now,
	}
	if d.InputCompressionType == "" {
		d.InputCompressionType = dynamo.InputCompressionNone
	}
	if err := db.putImport(b, im, false); err != nil {
		return nil, err
	}
	if err := b.Commit(); err != nil {
		return nil, err
	}
	db.tables.Store(&next)
	db.log.Info("import started", "table", p.TableName, "import", d.ImportArn)
	db.startImport(d.ImportArn)
	out := *d
	return &dynamo.ImportTableOutput{ImportTableDescription: &out}, nil
}

func (db *DB) putImport(b storage.Batch, im *importMeta, exists bool) error {
	return putEntry(b, metaImportKey(im.Desc.ImportArn), im, exists)
}

func (db *DB) readImport(arn string) (*importMeta, error) {
	return readEntry[importMeta](db, metaImportKey(arn), "import")
}

func (db *DB) allImports() ([]*importMeta, error) {
	return allEntries[importMeta](db, metaTagImport, "import")
}

func (db *DB) startImport(arn string) {
	db.startJob("import/"+arn, func(l *lease) {
		if err := db.runImport(arn, l); err != nil && err != errLeaseLost {
			db.log.Error("import", "import", arn, "err", err)
		}
	})
}

// importChunk is how many records an import writes per batch.
const importChunk = 256

// runImport runs an IN_PROGRESS import from the records it has consumed.
func (db *DB) runImport(arn string, l *lease) error {
	im, err := db.readImport(arn)
	if err != nil || im == nil || im.Desc.ImportStatus != dynamo.ImportStatusInProgress {
		return err
	}
	t := db.tableByID(im.TableID)
	if t == nil {
		return nil
	}
	src, err := db.openImport(im, t)
	if err != nil {
		return db.endImport(im, t, l, err)
	}
	defer src.Close()
	ctx := context.Background()
	// Skip what was consumed before a restart.
	for n := int64(0); n < im.Consumed; n++ {
		if _, _, _, err := src.Next(ctx); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return db.endImport(im, t, l, err)
		}
	}
	var held *importRec
	for {
		if db.stopping() {
			return nil
		}
		done, err := db.importChunk(im, t, src, l, &held)
		if err != nil {
			if errorsIsConflict(err) || db.stopping() {
				return err // the next start, or the lease's next holder, goes on
			}
			return db.endImport(im, t, l, err)
		}
		if done {
			return db.endImport(im, t, l, nil)
		}
	}
}

// openImport opens an import's files.
func (db *DB) openImport(im *importMeta, t *table) (ImportSource, error) {
	x := db.opts.Exchange
	if x == nil {
		return nil, fmt.Errorf("this server reads no imports: start it with --s3-dir or --s3-endpoint-url")
	}
	d := &im.Desc
	job := ImportJob{Bucket: d.S3BucketSource.S3Bucket, Prefix: d.S3BucketSource.S3KeyPrefix, Format: d.InputFormat, Compression: d.InputCompressionType, KeyTypes: map[string]string{}}
	if o := d.InputFormatOptions; o != nil && o.Csv != nil {
		job.CSVDelimiter, job.CSVHeader = o.Csv.Delimiter, o.Csv.HeaderList
	}
	for _, a := range t.meta.AttributeDefinitions {
		job.KeyTypes[a.AttributeName] = a.AttributeType
	}
	return x.OpenImport(context.Background(), job)
}

// importRec is a record an import read and has not written yet.
type importRec struct {
	it   attr.Item
	size int64
	bad  error
}

// importChunk writes the next records; done reports the end of the files.
// held is a record read but left for the next chunk (its key was already
// in this one); it is not counted as consumed until written.
func (db *DB) importChunk(im *importMeta, t *table, src ImportSource, l *lease, held **importRec) (done bool, err error) {
	d := &im.Desc
	var size int64
	inBatch := map[string]bool{}
	var keys []itemKey
	var items []attr.Item
	for n := 0; n < importChunk; n++ {
		var r importRec
		if *held != nil {
			r, *held = **held, nil
		} else {
			it, sz, bad, err := src.Next(context.Background())
			if errors.Is(err, io.EOF) {
				done = true
				break
			}
			if err != nil {
				return false, err
			}
			r = importRec{it, sz, bad}
		}
		if r.bad == nil {
			if k, ok := importable(t, r.it); ok && inBatch[string(k.row)] {
				// The same key twice in one batch: the second must see
				// the first as its old item, so the batch goes first.
				*held = &r
				break
			}
		}
		im.Consumed++
		size += r.size
		if r.bad != nil {
			d.ErrorCount++
			continue
		}
		d.ProcessedItemCount++
		k, ok := importable(t, r.it)
		if !ok {
			d.ErrorCount++
			continue
		}
		inBatch[string(k.row)] = true
		keys, items = append(keys, k), append(items, r.it)
	}
	olds, err := db.loadKeysForWrite(t, keys)
	if err != nil {
		return false, err
	}
	b := db.newWriteBatch()
	defer b.release()
	if l != nil {
		l.expect(b)
	}
	db.soloTable(b, t)
	for i, k := range keys {
		if _, err := db.stageWrite(b, t, k, &olds[i], items[i], byUser); err != nil {
			return false, err
		}
		d.ImportedItemCount++
	}
	total := size
	if d.ProcessedSizeBytes != nil {
		total += *d.ProcessedSizeBytes
	}
	d.ProcessedSizeBytes = &total
	if err := db.putImport(b, im, true); err != nil {
		return false, err
	}
	if err := b.Commit(); err != nil {
		return false, err
	}
	return done, nil
}

// loadKeysForWrite reads the current rows of keys of t: in one call on a
// store that reads many keys at once (PostgreSQL: one round trip), one by
// one otherwise.
func (db *DB) loadKeysForWrite(t *table, keys []itemKey) ([]storedItem, error) {
	olds := make([]storedItem, len(keys))
	mg, ok := db.store.(storage.MultiGetter)
	if !ok || len(keys) < 2 {
		for i, k := range keys {
			old, err := db.loadForWrite(t, k)
			if err != nil {
				return nil, err
			}
			olds[i] = old
		}
		return olds, nil
	}
	rows := make([][]byte, len(keys))
	for i, k := range keys {
		rows[i] = k.row
	}
	vals, found, err := mg.GetMany(rows)
	if err != nil {
		return nil, err
	}
	for i := range keys {
		if !found[i] {
			continue
		}
		if olds[i], err = parseRow(vals[i]); err != nil {
			return nil, fmt.Errorf("table %q: %w", t.meta.Name, err)
		}
	}
	return olds, nil
}

// importable returns the key of an item an import may write: it has the
// table's key, of its types, and every index key it has is of its type.
func importable(t *table, it attr.Item) (itemKey, bool) {
	if err := attr.CanonicalizeItem(it); err != nil || attr.ItemSize(it) > attr.MaxItemSize {
		return itemKey{}, false
	}
	k, err := t.primaryKey(it, keyOfItem)
	if err != nil {
		return itemKey{}, false
	}
	for _, ix := range t.indexes {
		if _, _, err := ix.keyOf(it, keyOfEntry, nil, nil); err != nil {
			return itemKey{}, false
		}
	}
	return k, true
}

// endImport records how an import ended: COMPLETED, its table ACTIVE; or
// FAILED (failure not nil), its table deleted.
func (db *DB) endImport(im *importMeta, t *table, l *lease, failure error) error {
	db.ddl.Lock()
	defer db.ddl.Unlock()
	cur, err := db.lookupFresh(t.meta.Name)
	if err != nil {
		return err
	}
	b := db.store.NewBatch()
	defer b.Close()
	if l != nil {
		l.expect(b)
	}
	now := db.now()
	d := &im.Desc
	d.EndTime = &now
	next := *db.tables.Load()
	if cur != nil && cur.meta.ID == im.TableID {
		if failure == nil {
			m := cur.meta
			m.Transition, m.TransitionEnds = "", time.Time{}
			if next, err = db.putTableLocked(b, newTable(m)); err != nil {
				return err
			}
		} else {
			prefix := keys.TablePrefix(cur.meta.ID)
			if err := b.DeleteRange(prefix, keys.PrefixEnd(prefix)); err != nil {
				return err
			}
			if err := b.Delete(metaStatsKey(cur.meta.ID)); err != nil {
				return err
			}
			b.Expect(metaTableKey(cur.meta.Name), cur.raw, true)
			if err := b.Delete(metaTableKey(cur.meta.Name)); err != nil {
				return err
			}
			next = maps.Clone(next)
			delete(next, cur.meta.Name)
		}
	}
	if failure == nil {
		d.ImportStatus = dynamo.ImportStatusCompleted
	} else {
		d.ImportStatus, d.FailureCode, d.FailureMessage = dynamo.ImportStatusFailed, "UNKNOWN", failure.Error()
	}
	if err := db.putImport(b, im, true); err != nil {
		return err
	}
	if err := b.Commit(); err != nil {
		return err
	}
	db.tables.Store(&next)
	db.log.Info("import ended", "import", d.ImportArn, "status", d.ImportStatus, "imported", d.ImportedItemCount, "errors", d.ErrorCount)
	return nil
}

func (db *DB) describeImport(in *dynamo.DescribeImportInput) (*dynamo.DescribeImportOutput, error) {
	var c constraints
	if in.ImportArn == "" {
		c.notNull("importArn")
	} else {
		c.length("importArn", in.ImportArn, 37, 1024)
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	im, err := db.readImport(in.ImportArn)
	if err != nil {
		return nil, err
	}
	if im == nil {
		return nil, dynamo.Backup(dynamo.CodeImportNotFound, "Import not found: "+in.ImportArn)
	}
	d := im.Desc
	return &dynamo.DescribeImportOutput{ImportTableDescription: &d}, nil
}

func (db *DB) listImports(in *dynamo.ListImportsInput) (*dynamo.ListImportsOutput, error) {
	var c constraints
	if in.PageSize != nil {
		c.minValue("pageSize", *in.PageSize, 1)
		c.maxValue("pageSize", *in.PageSize, 25)
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	all, err := db.allImports()
	if err != nil {
		return nil, err
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Desc.ImportArn < all[j].Desc.ImportArn })
	limit := 25
	if in.PageSize != nil {
		limit = int(*in.PageSize)
	}
	start := 0
	if in.NextToken != "" {
		n, err := strconv.Atoi(in.NextToken)
		if err != nil || n < 0 {
			return nil, dynamo.Validation(dynamo.MsgInvalidNextToken)
		}
		start = n
	}
	out := &dynamo.ListImportsOutput{ImportSummaryList: []dynamo.ImportSummary{}}
	for i := start; i < len(all); i++ {
		d := &all[i].Desc
		if in.TableArn != "" && d.TableArn != in.TableArn {
			continue
		}
		if len(out.ImportSummaryList) == limit {
			out.NextToken = strconv.Itoa(i)
			break
		}
		out.ImportSummaryList = append(out.ImportSummaryList, dynamo.ImportSummary{
			ImportArn: d.ImportArn, ImportStatus: d.ImportStatus, TableArn: d.TableArn, S3BucketSource: d.S3BucketSource,
			InputFormat: d.InputFormat, StartTime: d.StartTime, EndTime: d.EndTime,
		})
	}
	return out, nil
}

// resumeImports starts the imports in progress again.
func (db *DB) resumeImports() error {
	all, err := db.allImports()
	if err != nil {
		return err
	}
	for _, im := range all {
		if im.Desc.ImportStatus == dynamo.ImportStatusInProgress {
			db.startImport(im.Desc.ImportArn)
		}
	}
	return nil
}
