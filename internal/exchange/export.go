package exchange

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/md5"
	"crypto/rand"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dynago/dynago/attr"
)

// The export's layout (developer guide, "DynamoDB table export output
// format"): under <prefix>/AWSDynamoDB/<exportId>/ the summary and files
// manifests, each with a .checksum beside it, an empty _started object,
// and the data files under data/.
const (
	exportRoot          = "AWSDynamoDB"
	ManifestSummaryName = "manifest-summary.json"
	ManifestFilesName   = "manifest-files.json"
	StartedName         = "_started"
	manifestVersion     = "2020-06-30"
)

// ExportType is a manifest's exportType.
type ExportType string

const (
	ExportFull        ExportType = "FULL_EXPORT"
	ExportIncremental ExportType = "INCREMENTAL_EXPORT"
)

// Export view types of an incremental export (API reference,
// IncrementalExportSpecification's ExportViewType).
const (
	ViewNewAndOldImages = "NEW_AND_OLD_IMAGES"
	ViewNewImage        = "NEW_IMAGE"
)

// ManifestSummary is manifest-summary.json. Its fields are the developer
// guide's, in its order; the incremental ones are left out of a full
// export's summary.
type ManifestSummary struct {
	Version            string     `json:"version"`
	ExportArn          string     `json:"exportArn"`
	StartTime          string     `json:"startTime"`
	EndTime            string     `json:"endTime"`
	TableArn           string     `json:"tableArn"`
	TableID            string     `json:"tableId"`
	ExportTime         string     `json:"exportTime,omitempty"`
	ExportFromTime     string     `json:"exportFromTime,omitempty"`
	ExportToTime       string     `json:"exportToTime,omitempty"`
	S3Bucket           string     `json:"s3Bucket"`
	S3Prefix           *string    `json:"s3Prefix"`
	S3SseAlgorithm     string     `json:"s3SseAlgorithm"`
	S3SseKmsKeyID      *string    `json:"s3SseKmsKeyId"`
	ManifestFilesS3Key string     `json:"manifestFilesS3Key"`
	BilledSizeBytes    int64      `json:"billedSizeBytes"`
	ItemCount          int64      `json:"itemCount"`
	OutputFormat       Format     `json:"outputFormat"`
	OutputView         string     `json:"outputView,omitempty"`
	ExportType         ExportType `json:"exportType"`
}

// ManifestFile is one line of manifest-files.json: a data file.
type ManifestFile struct {
	ItemCount int64 `json:"itemCount"`
	// MD5Checksum is the base64 MD5 of the object's bytes, ETag its S3
	// entity tag (the hex MD5 of an object put in one part).
	MD5Checksum   string `json:"md5Checksum"`
	ETag          string `json:"etag"`
	DataFileS3Key string `json:"dataFileS3Key"`
}

// timeFormat is the manifests' time: UTC, milliseconds, "Z".
const timeFormat = "2006-01-02T15:04:05.000Z"

// FormatTime writes t as the manifests do ("2020-11-04T07:28:34.028Z").
func FormatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

// ExportOptions describe an export to write.
type ExportOptions struct {
	Bucket Bucket
	// BucketName and Prefix are the manifest's s3Bucket and s3Prefix; the
	// objects go under Prefix in Bucket.
	BucketName string
	Prefix     string
	// ExportID names the export's folder; NewExportID makes one when empty.
	ExportID string
	TableArn string
	TableID  string
	// ExportArn defaults to TableArn + "/export/" + ExportID.
	ExportArn string
	Format    Format     // DYNAMODB_JSON (default) or ION
	Type      ExportType // FULL_EXPORT (default) or INCREMENTAL_EXPORT
	// ExportTime is a full export's point in time (default: the start);
	// ExportFromTime, ExportToTime and OutputView an incremental one's.
	ExportTime     time.Time
	ExportFromTime time.Time
	ExportToTime   time.Time
	OutputView     string
	// MaxFileBytes starts a new data file once a file's uncompressed
	// lines pass it (default 256 MiB).
	MaxFileBytes int
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// ExportWriter writes one export: data files through DataFile, then the
// manifests through Finish.
type ExportWriter struct {
	opts  ExportOptions
	start time.Time
	dir   string // <prefix>/AWSDynamoDB/<exportId>

	mu     sync.Mutex
	files  []ManifestFile
	items  int64
	billed int64
}

// NewExportID returns an export id shaped as DynamoDB's: the time in
// milliseconds, 14 digits, a dash and 8 hex digits.
func NewExportID(now time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%014d-%08x", now.UnixMilli(), binary.BigEndian.Uint32(b[:]))
}

// ExportDir returns the key of an export's folder: <prefix>/AWSDynamoDB/<exportId>.
func ExportDir(prefix, exportID string) string {
	return joinKey(prefix, exportRoot, exportID)
}

func joinKey(parts ...string) string {
	var nonEmpty []string
	for _, p := range parts {
		p = strings.Trim(p, "/")
		if p != "" {
			nonEmpty = append(nonEmpty, p)
		}
	}
	return strings.Join(nonEmpty, "/")
}

// NewExportWriter starts an export: it writes the _started object, which
// proves the bucket writable, as DynamoDB does.
func NewExportWriter(ctx context.Context, opts ExportOptions) (*ExportWriter, error) {
	if opts.Bucket == nil {
		return nil, errors.New("exchange: ExportOptions.Bucket is nil")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Format == "" {
		opts.Format = FormatDynamoDBJSON
	}
	if opts.Format != FormatDynamoDBJSON && opts.Format != FormatION {
		return nil, fmt.Errorf("exchange: export format %q: want DYNAMODB_JSON or ION", opts.Format)
	}
	if opts.Type == "" {
		opts.Type = ExportFull
	}
	if opts.Type == ExportIncremental && opts.OutputView == "" {
		opts.OutputView = ViewNewAndOldImages
	}
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = 256 << 20
	}
	start := opts.Now()
	if opts.ExportID == "" {
		opts.ExportID = NewExportID(start)
	}
	if opts.ExportArn == "" {
		opts.ExportArn = opts.TableArn + "/export/" + opts.ExportID
	}
	if opts.ExportTime.IsZero() {
		opts.ExportTime = start
	}
	w := &ExportWriter{opts: opts, start: start, dir: ExportDir(opts.Prefix, opts.ExportID)}
	if err := opts.Bucket.Put(ctx, joinKey(w.dir, StartedName), bytes.NewReader(nil)); err != nil {
		return nil, err
	}
	return w, nil
}

// ExportID is the export's id.
func (w *ExportWriter) ExportID() string { return w.opts.ExportID }

// Dir is the key of the export's folder.
func (w *ExportWriter) Dir() string { return w.dir }

// DataFile starts a data file. Each may be written by its own goroutine
// (one per scan segment, say); a file rolls over to a new object past
// MaxFileBytes. Close it to store its last object.
func (w *ExportWriter) DataFile(ctx context.Context) *DataFile {
	return &DataFile{w: w, ctx: ctx}
}

// DataFile writes a data file's lines.
type DataFile struct {
	w     *ExportWriter
	ctx   context.Context
	buf   bytes.Buffer // compressed bytes
	gz    *gzip.Writer
	raw   int // uncompressed bytes in the current object
	items int64
	line  []byte
}

// WriteItem writes a full export's line: {"Item":{...}} in DynamoDB JSON,
// $ion_1_0 {Item:{...}} in Ion.
func (f *DataFile) WriteItem(it attr.Item) error {
	l := f.line[:0]
	if f.w.opts.Format == FormatION {
		l = append(l, ionVersionMarker+" {Item:"...)
		l = appendIonStruct(l, it)
		l = append(l, "}\n"...)
	} else {
		l = append(l, `{"Item":`...)
		l = AppendItemJSON(l, it)
		l = append(l, "}\n"...)
	}
	f.line = l
	return f.write(l, attr.ItemSize(it))
}

// WriteChange writes an incremental export's line: Metadata (the write's
// time, WriteTimestampMicros), Keys, and the images the change has.
func (f *DataFile) WriteChange(c Change) error {
	l := f.line[:0]
	micros := strconv.FormatInt(c.WriteTimestampMicros, 10)
	size := 0
	if f.w.opts.Format == FormatION {
		l = append(l, ionVersionMarker+" {Metadata:{WriteTimestampMicros:"...)
		l = append(l, micros...)
		l = append(l, "},Keys:"...)
		l = appendIonStruct(l, c.Keys)
		if c.NewImage != nil {
			l = append(l, ",NewImage:"...)
			l = appendIonStruct(l, c.NewImage)
		}
		if c.OldImage != nil {
			l = append(l, ",OldImage:"...)
			l = appendIonStruct(l, c.OldImage)
		}
		l = append(l, "}\n"...)
	} else {
		l = append(l, `{"Metadata":{"WriteTimestampMicros":{"N":"`...)
		l = append(l, micros...)
		l = append(l, `"}},"Keys":`...)
		l = AppendItemJSON(l, c.Keys)
		if c.NewImage != nil {
			l = append(l, `,"NewImage":`...)
			l = AppendItemJSON(l, c.NewImage)
		}
		if c.OldImage != nil {
			l = append(l, `,"OldImage":`...)
			l = AppendItemJSON(l, c.OldImage)
		}
		l = append(l, "}\n"...)
	}
	if c.NewImage != nil {
		size += attr.ItemSize(c.NewImage)
	}
	if c.OldImage != nil {
		size += attr.ItemSize(c.OldImage)
	}
	f.line = l
	return f.write(l, size)
}

func (f *DataFile) write(line []byte, billed int) error {
	if f.gz == nil {
		f.gz = gzip.NewWriter(&f.buf)
	}
	if _, err := f.gz.Write(line); err != nil {
		return err
	}
	f.raw += len(line)
	f.items++
	f.w.mu.Lock()
	f.w.billed += int64(billed)
	f.w.mu.Unlock()
	if f.raw >= f.w.opts.MaxFileBytes {
		return f.flush()
	}
	return nil
}

// flush stores the current object, if it has lines.
func (f *DataFile) flush() error {
	if f.gz == nil {
		return nil
	}
	if err := f.gz.Close(); err != nil {
		return err
	}
	data := f.buf.Bytes()
	sum := md5.Sum(data)
	ext := ".json.gz"
	if f.w.opts.Format == FormatION {
		ext = ".ion.gz"
	}
	key := joinKey(f.w.dataDir(), randomName()+ext)
	if err := f.w.opts.Bucket.Put(f.ctx, key, bytes.NewReader(data)); err != nil {
		return err
	}
	f.w.mu.Lock()
	f.w.files = append(f.w.files, ManifestFile{
		ItemCount:     f.items,
		MD5Checksum:   base64.StdEncoding.EncodeToString(sum[:]),
		ETag:          hex.EncodeToString(sum[:]),
		DataFileS3Key: key,
	})
	f.w.items += f.items
	f.w.mu.Unlock()
	f.buf.Reset()
	f.gz, f.raw, f.items = nil, 0, 0
	return nil
}

// Close stores the file's last object.
func (f *DataFile) Close() error { return f.flush() }

// dataDir is where the data files go: the export's data/ folder. (An
// incremental export's files are listed by its manifest all the same.)
func (w *ExportWriter) dataDir() string { return joinKey(w.dir, "data") }

var lowerBase32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// randomName is a data file's name: 26 random lowercase letters and digits.
func randomName() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return lowerBase32.EncodeToString(b[:])
}

// Finish writes manifest-files.json (one JSON object a line), then
// manifest-summary.json, each with its .checksum (the hex MD5 of the
// manifest), and returns the summary. Every DataFile must be closed
// first.
func (w *ExportWriter) Finish(ctx context.Context) (*ManifestSummary, error) {
	w.mu.Lock()
	files := append([]ManifestFile(nil), w.files...)
	items, billed := w.items, w.billed
	w.mu.Unlock()
	var mf bytes.Buffer
	for _, f := range files {
		b, err := json.Marshal(f)
		if err != nil {
			return nil, err
		}
		mf.Write(b)
		mf.WriteByte('\n')
	}
	filesKey := joinKey(w.dir, ManifestFilesName)
	if err := w.putWithChecksum(ctx, filesKey, mf.Bytes()); err != nil {
		return nil, err
	}
	o := w.opts
	s := &ManifestSummary{
		Version:            manifestVersion,
		ExportArn:          o.ExportArn,
		StartTime:          FormatTime(w.start),
		EndTime:            FormatTime(o.Now()),
		TableArn:           o.TableArn,
		TableID:            o.TableID,
		S3Bucket:           o.BucketName,
		S3SseAlgorithm:     "AES256",
		ManifestFilesS3Key: filesKey,
		BilledSizeBytes:    billed,
		ItemCount:          items,
		OutputFormat:       o.Format,
		ExportType:         o.Type,
	}
	if p := strings.Trim(o.Prefix, "/"); p != "" {
		s.S3Prefix = &p
	}
	if o.Type == ExportIncremental {
		s.ExportFromTime = FormatTime(o.ExportFromTime)
		s.ExportToTime = FormatTime(o.ExportToTime)
		s.OutputView = o.OutputView
	} else {
		s.ExportTime = FormatTime(o.ExportTime)
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	if err := w.putWithChecksum(ctx, joinKey(w.dir, ManifestSummaryName), b); err != nil {
		return nil, err
	}
	return s, nil
}

func (w *ExportWriter) putWithChecksum(ctx context.Context, key string, data []byte) error {
	if err := w.opts.Bucket.Put(ctx, key, bytes.NewReader(data)); err != nil {
		return err
	}
	sum := md5.Sum(data)
	return w.opts.Bucket.Put(ctx, strings.TrimSuffix(key, path.Ext(key))+".checksum", strings.NewReader(hex.EncodeToString(sum[:])))
}
