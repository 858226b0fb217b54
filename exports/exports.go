// Package exports is where a dynago server's exports go and its imports
// come from: the engine's Exchange (engine.Options.Exchange), over S3
// buckets or folders standing for them, in the formats of package
// internal/exchange. The engine hands it items; it knows buckets, files
// and formats.
package exports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/internal/exchange"
)

// Config says where the buckets are: under a folder (each bucket a
// sub-folder), or on an S3 endpoint.
type Config struct {
	// Dir is a folder standing for S3: bucket B is its sub-folder B.
	Dir string
	// S3 is an S3 client (package internal/exchange's NewS3Client) used
	// when Dir is empty.
	S3 *s3.Client
}

// New returns the exchange cfg describes.
func New(cfg Config) engine.Exchange { return &exch{cfg: cfg} }

type exch struct{ cfg Config }

func (x *exch) bucket(name string) (exchange.Bucket, error) {
	if x.cfg.Dir != "" {
		return exchange.NewFolderBucket(x.cfg.Dir, name)
	}
	if x.cfg.S3 != nil {
		return exchange.NewS3Bucket(x.cfg.S3, name), nil
	}
	return nil, errors.New("no S3 is configured: start the server with --s3-dir or --s3-endpoint-url")
}

// BeginExport starts an export's files.
func (x *exch) BeginExport(ctx context.Context, job engine.ExportJob) (engine.ExportSink, error) {
	b, err := x.bucket(job.Bucket)
	if err != nil {
		return nil, err
	}
	o := exchange.ExportOptions{
		Bucket: b, BucketName: job.Bucket, Prefix: job.Prefix,
		ExportID: job.ExportID, ExportArn: job.ExportArn, TableArn: job.TableArn, TableID: job.TableID,
		Format: exchange.Format(job.Format), Type: exchange.ExportType(job.Type),
		ExportTime: job.ExportTime, ExportFromTime: job.From, ExportToTime: job.To, OutputView: job.View,
	}
	// The writer's first reading of the clock is the export's start,
	// which the engine chose; the later ones are now.
	first := true
	o.Now = func() time.Time {
		if first {
			first = false
			return job.Start
		}
		return time.Now()
	}
	w, err := exchange.NewExportWriter(ctx, o)
	if err != nil {
		return nil, err
	}
	return &sink{w: w, f: w.DataFile(ctx)}, nil
}

type sink struct {
	w *exchange.ExportWriter
	f *exchange.DataFile
}

func (s *sink) WriteItem(it attr.Item) error { return s.f.WriteItem(it) }

func (s *sink) WriteChange(keys, newImage, oldImage attr.Item, micros int64) error {
	return s.f.WriteChange(exchange.Change{Keys: keys, NewImage: newImage, OldImage: oldImage, WriteTimestampMicros: micros})
}

func (s *sink) Finish(ctx context.Context) (string, int64, int64, error) {
	if err := s.f.Close(); err != nil {
		return "", 0, 0, err
	}
	sum, err := s.w.Finish(ctx)
	if err != nil {
		return "", 0, 0, err
	}
	return s.w.Dir() + "/" + exchange.ManifestSummaryName, sum.ItemCount, sum.BilledSizeBytes, nil
}

// OpenImport lists the objects under the import's prefix and reads them
// one after the other, in key order.
func (x *exch) OpenImport(ctx context.Context, job engine.ImportJob) (engine.ImportSource, error) {
	b, err := x.bucket(job.Bucket)
	if err != nil {
		return nil, err
	}
	keys, err := b.List(ctx, job.Prefix)
	if err != nil {
		return nil, err
	}
	opts := exchange.ReadOptions{Format: exchange.Format(job.Format), Compression: exchange.Compression(job.Compression)}
	if job.CSVDelimiter != "" {
		r, _ := utf8.DecodeRuneInString(job.CSVDelimiter)
		opts.CSV.Delimiter = r
	}
	opts.CSV.Header = job.CSVHeader
	opts.CSV.KeyTypes = map[string]attr.Type{}
	for name, t := range job.KeyTypes {
		opts.CSV.KeyTypes[name] = attr.ParseType(t)
	}
	var files []string
	for _, k := range keys {
		if !isData(k) {
			continue
		}
		files = append(files, k)
	}
	return &source{b: b, files: files, opts: opts}, nil
}

type source struct {
	b     exchange.Bucket
	files []string
	opts  exchange.ReadOptions
	cur   *exchange.Reader
	body  io.ReadCloser
	count *countingReader
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (s *source) Next(ctx context.Context) (attr.Item, int64, error, error) {
	for {
		if s.cur == nil {
			if len(s.files) == 0 {
				return nil, 0, nil, io.EOF
			}
			f := s.files[0]
			s.files = s.files[1:]
			body, err := s.b.Get(ctx, f)
			if err != nil {
				return nil, 0, nil, fmt.Errorf("%s: %w", f, err)
			}
			s.body, s.count = body, &countingReader{r: body}
			r, err := exchange.NewReader(s.count, f, s.opts)
			if err != nil {
				body.Close()
				return nil, 0, fmt.Errorf("%s: %w", f, err), nil
			}
			s.cur = r
		}
		before := s.count.n
		rec, err := s.cur.Next()
		if errors.Is(err, io.EOF) {
			s.closeCur()
			continue
		}
		var le *exchange.LineError
		if errors.As(err, &le) {
			return nil, s.count.n - before, err, nil
		}
		if err != nil {
			return nil, 0, nil, err
		}
		it := rec.Item
		if it == nil && rec.Change != nil {
			it = rec.Change.NewImage
		}
		if it == nil {
			continue
		}
		return it, s.count.n - before, nil, nil
	}
}

func (s *source) closeCur() {
	if s.cur != nil {
		s.cur.Close()
		s.body.Close()
		s.cur, s.body = nil, nil
	}
}

func (s *source) Close() error {
	s.closeCur()
	return nil
}

// isData reports whether an object under an import's prefix is data: not
// a folder marker, nor the manifests, checksums and start marker of an
// export read back whole.
func isData(key string) bool {
	name := key[strings.LastIndex(key, "/")+1:]
	switch {
	case name == "", name == exchange.StartedName,
		name == exchange.ManifestSummaryName, name == exchange.ManifestFilesName,
		strings.HasSuffix(name, ".checksum"):
		return false
	}
	return true
}
