package engine

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// Exports: ExportTableToPointInTime writes a table as it was at a moment
// of its recovery window (a full export), or what changed between two
// moments (an incremental one), to Options.Exchange, in DynamoDB's export
// layout. As on AWS the table must have point-in-time recovery on: the
// export reads the live rows and the undo log (engine/undo.go) a chunk at
// a time, so it never blocks writes and holds no long snapshot.
//
//	NSMeta 'E' export ARN -> JSON exportMeta
//
// An export cut short by the process's death starts again at the next
// start, and writes the same items.

// exportMeta is an export's entry.
type exportMeta struct {
	Desc    dynamo.ExportDescription `json:"desc"`
	TableID uint64                   `json:"tableID"`
	Log     uint64                   `json:"log"`
	At      int64                    `json:"at"`             // a full export's time (µs)
	From    int64                    `json:"from,omitempty"` // an incremental one's
	ID      string                   `json:"id"`
	raw     []byte
}

func metaExportKey(arn string) []byte {
	return append([]byte{keys.NSMeta, metaTagExport}, arn...)
}

// newExportID is an export's id as DynamoDB shapes it: the time in
// milliseconds, 14 digits, a dash and 8 hex digits.
func newExportID(now time.Time) string {
	var r [4]byte
	_, _ = rand.Read(r[:])
	return fmt.Sprintf("%014d-%s", now.UnixMilli(), hex.EncodeToString(r[:]))
}

func (db *DB) exportTable(in *dynamo.ExportTableToPointInTimeInput) (*dynamo.ExportTableToPointInTimeOutput, error) {
	var c constraints
	if in.TableArn == "" {
		c.notNull("tableArn")
	} else {
		c.length("tableArn", in.TableArn, 1, 1024)
	}
	if in.S3Bucket == "" {
		c.notNull("s3Bucket")
	} else {
		c.length("s3Bucket", in.S3Bucket, 0, 255)
	}
	c.length("s3Prefix", in.S3Prefix, 0, 1024)
	c.enum("exportFormat", in.ExportFormat, dynamo.ExportFormatDynamoDBJSON, dynamo.ExportFormatIon)
	c.enum("exportType", in.ExportType, dynamo.ExportTypeFull, dynamo.ExportTypeIncremental)
	c.enum("s3SseAlgorithm", in.S3SseAlgorithm, "AES256", "KMS")
	if s := in.IncrementalExportSpecification; s != nil {
		c.enum("incrementalExportSpecification.exportViewType", s.ExportViewType, dynamo.ExportViewNewImage, dynamo.ExportViewNewAndOldImages)
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	if !isARN(in.TableArn) {
		return nil, dynamo.Validation("Invalid TableArn: Invalid Table ARN")
	}
	db.ddl.Lock()
	defer db.ddl.Unlock()
	t, err := db.lookupFresh(in.TableArn)
	if err != nil {
		return nil, err
	}
	if t == nil || db.backupHidden(t) {
		// moto's aws_verified test_export_from_missing_table: the text
		// names what the request named, the ARN.
		return nil, dynamo.Backup(dynamo.CodeTableNotFound, msgBackupTableNotFound(in.TableArn))
	}
	now := db.now()
	earliest, latest, ok := db.window(t, now)
	if !ok {
		return nil, dynamo.Backup(dynamo.CodePointInTimeRecoveryUnavailable, msgPITRNotEnabled(t.meta.Name))
	}
	em := &exportMeta{TableID: t.meta.ID, Log: t.meta.UndoLog, ID: newExportID(now)}
	d := &em.Desc
	*d = dynamo.ExportDescription{
		ExportArn:      t.arn(db) + "/export/" + em.ID,
		ExportStatus:   dynamo.ExportStatusInProgress,
		StartTime:      &now,
		TableArn:       t.arn(db),
		TableId:        t.meta.UUID,
		ClientToken:    in.ClientToken,
		S3Bucket:       in.S3Bucket,
		S3BucketOwner:  in.S3BucketOwner,
		S3Prefix:       in.S3Prefix,
		S3SseAlgorithm: in.S3SseAlgorithm,
		S3SseKmsKeyId:  in.S3SseKmsKeyId,
		ExportFormat:   in.ExportFormat,
		ExportType:     in.ExportType,
	}
	if d.ExportFormat == "" {
		d.ExportFormat = dynamo.ExportFormatDynamoDBJSON
	}
	if d.ExportType == "" {
		d.ExportType = dynamo.ExportTypeFull
	}
	if d.S3SseAlgorithm == "" {
		d.S3SseAlgorithm = "AES256"
	}
	inWindow := func(at time.Time) bool { return !at.Before(earliest) && !at.After(latest) }
	if d.ExportType == dynamo.ExportTypeIncremental {
		s := in.IncrementalExportSpecification
		if s == nil || s.ExportFromTime == nil || s.ExportToTime == nil {
			return nil, dynamo.Validation(msgIncrementalBounds)
		}
		from, to := *s.ExportFromTime, *s.ExportToTime
		if !to.After(from) || !inWindow(from) || !inWindow(to) {
			return nil, dynamo.Backup(dynamo.CodeInvalidExportTime, msgInvalidExportTime(earliest, latest))
		}
		view := s.ExportViewType
		if view == "" {
			view = dynamo.ExportViewNewAndOldImages
		}
		d.IncrementalExportSpecification = &dynamo.IncrementalExportSpecification{ExportFromTime: &from, ExportToTime: &to, ExportViewType: view}
		em.From, em.At = from.UnixMicro(), to.UnixMicro()
	} else {
		at := now
		if in.ExportTime != nil {
			at = *in.ExportTime
			if !inWindow(at) {
				return nil, dynamo.Backup(dynamo.CodeInvalidExportTime, msgInvalidExportTime(earliest, latest))
			}
		}
		d.ExportTime = &at
		em.At = at.UnixMicro()
	}
	if err := db.checkJobLimit("exports"); err != nil {
		return nil, err
	}
	b := db.store.NewBatch()
	defer b.Close()
	if err := db.putExport(b, em, false); err != nil {
		return nil, err
	}
	// The table's log must still be the one read.
	db.expectTable(b, t)
	if err := b.Commit(); err != nil {
		return nil, err
	}
	db.log.Info("export started", "table", t.meta.Name, "export", d.ExportArn)
	db.startExport(d.ExportArn)
	out := em.Desc
	return &dynamo.ExportTableToPointInTimeOutput{ExportDescription: &out}, nil
}

func isARN(s string) bool { return len(s) > 4 && s[:4] == "arn:" }

// The texts of exports. msgInvalidExportTime and msgIncrementalBounds
// are dynago's: no recording of DynamoDB's was found.
const msgIncrementalBounds = "IncrementalExportSpecification with ExportFromTime and ExportToTime is required for an incremental export"

func msgInvalidExportTime(earliest, latest time.Time) string {
	const f = "2006-01-02T15:04:05Z"
	return fmt.Sprintf("Export time must be within EarliestRestorableDateTime '%s' and LatestRestorableDateTime '%s'",
		earliest.UTC().Format(f), latest.UTC().Format(f))
}

func (db *DB) putExport(b storage.Batch, em *exportMeta, exists bool) error {
	return putEntry(b, metaExportKey(em.Desc.ExportArn), em, exists)
}

func (db *DB) readExport(arn string) (*exportMeta, error) {
	return readEntry[exportMeta](db, metaExportKey(arn), "export")
}

func (db *DB) allExports() ([]*exportMeta, error) {
	return allEntries[exportMeta](db, metaTagExport, "export")
}

func (db *DB) startExport(arn string) {
	db.startJob("export/"+arn, func(l *lease) {
		if err := db.runExport(arn, l); err != nil && err != errLeaseLost {
			db.log.Error("export", "export", arn, "err", err)
		}
	})
}

// runExport writes an IN_PROGRESS export from the start, and records how
// it ended.
func (db *DB) runExport(arn string, l *lease) error {
	em, err := db.readExport(arn)
	if err != nil || em == nil || em.Desc.ExportStatus != dynamo.ExportStatusInProgress {
		return err
	}
	manifest, items, billed, werr := db.writeExport(em)
	if db.stopping() && werr != nil {
		return nil // the next start writes it again
	}
	for {
		end := db.now()
		d := &em.Desc
		d.EndTime = &end
		if werr != nil {
			d.ExportStatus, d.FailureCode, d.FailureMessage = dynamo.ExportStatusFailed, "UNKNOWN", werr.Error()
		} else {
			d.ExportStatus, d.ExportManifest = dynamo.ExportStatusCompleted, manifest
			d.ItemCount, d.BilledSizeBytes = &items, &billed
		}
		b := db.store.NewBatch()
		if l != nil {
			l.expect(b)
		}
		err := db.putExport(b, em, true)
		if err == nil {
			err = b.Commit()
		}
		b.Close()
		if !errorsIsConflict(err) {
			if err == nil {
				db.log.Info("export ended", "export", arn, "status", d.ExportStatus, "items", items)
				db.kickPrune()
			}
			return err
		}
		if em, err = db.readExport(arn); err != nil || em == nil {
			return err
		}
	}
}

// writeExport writes an export's files through the exchange.
func (db *DB) writeExport(em *exportMeta) (manifest string, items, billed int64, err error) {
	x := db.opts.Exchange
	if x == nil {
		return "", 0, 0, fmt.Errorf("this server writes no exports: start it with --s3-dir or --s3-endpoint-url")
	}
	d := &em.Desc
	job := ExportJob{
		Bucket: d.S3Bucket, Prefix: d.S3Prefix, ExportID: em.ID, ExportArn: d.ExportArn,
		TableArn: d.TableArn, TableID: d.TableId, Format: d.ExportFormat, Type: d.ExportType,
		Start: *d.StartTime,
	}
	if s := d.IncrementalExportSpecification; s != nil {
		job.From, job.To, job.View = *s.ExportFromTime, *s.ExportToTime, s.ExportViewType
	} else {
		job.ExportTime = *d.ExportTime
	}
	ctx := context.Background()
	sink, err := x.BeginExport(ctx, job)
	if err != nil {
		return "", 0, 0, err
	}
	if d.ExportType == dynamo.ExportTypeIncremental {
		err = db.exportChanges(em, sink, job.View == dynamo.ExportViewNewAndOldImages)
	} else {
		err = db.exportItems(em, sink)
	}
	if err != nil {
		return "", 0, 0, err
	}
	return sink.Finish(ctx)
}

// exportItems writes the table as it was at em.At.
func (db *DB) exportItems(em *exportMeta, sink ExportSink) error {
	var cursor []byte
	for {
		if db.stopping() {
			return errStopping
		}
		snap, err := db.store.NewSnapshot()
		if err != nil {
			return err
		}
		items, done, err := itemsAt(snap, em.TableID, em.Log, em.At, cursor, copyChunk)
		snap.Close()
		if err != nil {
			return err
		}
		for _, pi := range items {
			st, err := parseRow(pi.row)
			if err != nil {
				return err
			}
			it, err := st.Item()
			if err != nil {
				return err
			}
			if err := sink.WriteItem(it); err != nil {
				return err
			}
			cursor = pi.suffix
		}
		if done {
			return nil
		}
	}
}

var errStopping = fmt.Errorf("the database is closing")

// exportChanges writes what changed between em.From and em.At: for each
// item changed in between, its keys, its image at em.At (nil if it was
// gone) and, with old images, at em.From, and the time of its last
// change.
func (db *DB) exportChanges(em *exportMeta, sink ExportSink, withOld bool) error {
	t := db.tableByID(em.TableID)
	if t == nil {
		return fmt.Errorf("the table is gone")
	}
	snap, err := db.store.NewSnapshot()
	if err != nil {
		return err
	}
	defer snap.Close()
	log, err := newSuffixIter(snap, em.Log, nil, true)
	if err != nil {
		return err
	}
	defer log.close()
	for log.valid() {
		suffix := bytes.Clone(log.suffix())
		var oldRow, newRow []byte
		var oldSet, newSet bool
		var last int64
		for ; log.valid() && bytes.Equal(log.suffix(), suffix); log.next() {
			k := log.it.Key()
			at := int64(binary.BigEndian.Uint64(k[len(k)-8:]))
			v := log.it.Value()
			var row []byte
			if len(v) > 0 && v[0] == 1 {
				row = bytes.Clone(v[1:])
			}
			if at > em.From && !oldSet {
				oldRow, oldSet = row, true
			}
			if at > em.At && !newSet {
				newRow, newSet = row, true
			}
			if at > em.From && at <= em.At {
				last = at
			}
		}
		if last == 0 {
			continue // no change in between
		}
		if !newSet {
			live := append(keys.IndexPrefix(em.TableID, 0), suffix...)
			raw, found, err := snap.Get(live, nil)
			if err != nil {
				return err
			}
			if found {
				newRow = raw
			}
		}
		oldItem, err := rowItem(oldRow)
		if err != nil {
			return err
		}
		newItem, err := rowItem(newRow)
		if err != nil {
			return err
		}
		if oldItem == nil && newItem == nil {
			continue // made and gone in between
		}
		keyOf := newItem
		if keyOf == nil {
			keyOf = oldItem
		}
		k := t.keyItemOf(keyOf)
		if !withOld {
			oldItem = nil
		}
		if err := sink.WriteChange(k, newItem, oldItem, last); err != nil {
			return err
		}
	}
	return log.err()
}

func rowItem(row []byte) (attr.Item, error) {
	if row == nil {
		return nil, nil
	}
	st, err := parseRow(row)
	if err != nil {
		return nil, err
	}
	return st.Item()
}

// keyItemOf is it's primary key attributes.
func (t *table) keyItemOf(it attr.Item) attr.Item {
	k := attr.Item{t.hashName: it[t.hashName]}
	if t.rangeName != "" {
		k[t.rangeName] = it[t.rangeName]
	}
	return k
}

// tableByID returns the table of this catalog with id, nil if none.
func (db *DB) tableByID(id uint64) *table {
	for _, t := range *db.tables.Load() {
		if t.meta.ID == id {
			return t
		}
	}
	return nil
}

func (db *DB) describeExport(in *dynamo.DescribeExportInput) (*dynamo.DescribeExportOutput, error) {
	var c constraints
	if in.ExportArn == "" {
		c.notNull("exportArn")
	} else {
		c.length("exportArn", in.ExportArn, 37, 1024)
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	em, err := db.readExport(in.ExportArn)
	if err != nil {
		return nil, err
	}
	if em == nil {
		return nil, dynamo.Backup(dynamo.CodeExportNotFound, "Export not found: "+in.ExportArn)
	}
	d := em.Desc
	return &dynamo.DescribeExportOutput{ExportDescription: &d}, nil
}

func (db *DB) listExports(in *dynamo.ListExportsInput) (*dynamo.ListExportsOutput, error) {
	var c constraints
	if in.MaxResults != nil {
		c.minValue("maxResults", *in.MaxResults, 1)
		c.maxValue("maxResults", *in.MaxResults, 25)
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	all, err := db.allExports()
	if err != nil {
		return nil, err
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	limit := 25
	if in.MaxResults != nil {
		limit = int(*in.MaxResults)
	}
	start := 0
	if in.NextToken != "" {
		n, err := strconv.Atoi(in.NextToken)
		if err != nil || n < 0 {
			return nil, dynamo.Validation(dynamo.MsgInvalidNextToken)
		}
		start = n
	}
	out := &dynamo.ListExportsOutput{ExportSummaries: []dynamo.ExportSummary{}}
	for i := start; i < len(all); i++ {
		d := &all[i].Desc
		if in.TableArn != "" && d.TableArn != in.TableArn {
			continue
		}
		if len(out.ExportSummaries) == limit {
			out.NextToken = strconv.Itoa(i)
			break
		}
		out.ExportSummaries = append(out.ExportSummaries, dynamo.ExportSummary{ExportArn: d.ExportArn, ExportStatus: d.ExportStatus, ExportType: d.ExportType})
	}
	return out, nil
}

// exportUses are the undo log times the exports in progress read.
func (db *DB) exportUses() ([]undoUse, error) {
	all, err := db.allExports()
	if err != nil {
		return nil, err
	}
	var out []undoUse
	for _, em := range all {
		if em.Desc.ExportStatus == dynamo.ExportStatusInProgress {
			at := em.At
			if em.From != 0 {
				at = em.From
			}
			out = append(out, undoUse{em.Log, at})
		}
	}
	return out, nil
}

// resumeExports starts the exports in progress again.
func (db *DB) resumeExports() error {
	all, err := db.allExports()
	if err != nil {
		return err
	}
	for _, em := range all {
		if em.Desc.ExportStatus == dynamo.ExportStatusInProgress {
			db.startExport(em.Desc.ExportArn)
		}
	}
	return nil
}
