package exchange

import (
	"bufio"
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"path"
	"slices"
	"strings"
)

// Export is an export read back: its summary and data files.
type Export struct {
	ID      string
	Dir     string // <prefix>/AWSDynamoDB/<exportId>
	Summary ManifestSummary
	Files   []ManifestFile
}

// FindExports returns the ids of the finished exports under prefix (those
// with a manifest-summary.json), oldest first: the ids start with their
// time.
func FindExports(ctx context.Context, b Bucket, prefix string) ([]string, error) {
	root := joinKey(prefix, exportRoot) + "/"
	keys, err := b.List(ctx, root)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, k := range keys {
		rest := strings.TrimPrefix(k, root)
		id, name, ok := strings.Cut(rest, "/")
		if ok && name == ManifestSummaryName {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// ReadExport reads an export's manifests.
func ReadExport(ctx context.Context, b Bucket, prefix, exportID string) (*Export, error) {
	e := &Export{ID: exportID, Dir: ExportDir(prefix, exportID)}
	data, err := getAll(ctx, b, joinKey(e.Dir, ManifestSummaryName))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &e.Summary); err != nil {
		return nil, fmt.Errorf("%s: %w", ManifestSummaryName, err)
	}
	filesKey := e.Summary.ManifestFilesS3Key
	if filesKey == "" {
		filesKey = joinKey(e.Dir, ManifestFilesName)
	}
	data, err = getAll(ctx, b, filesKey)
	if errors.Is(err, ErrNotFound) {
		// The export was moved: its files manifest is beside the summary.
		data, err = getAll(ctx, b, joinKey(e.Dir, ManifestFilesName))
	}
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var f ManifestFile
		if err := json.Unmarshal(line, &f); err != nil {
			return nil, fmt.Errorf("%s: %w", ManifestFilesName, err)
		}
		e.Files = append(e.Files, f)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return e, nil
}

func getAll(ctx context.Context, b Bucket, key string) ([]byte, error) {
	r, err := b.Get(ctx, key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// DataFileKey returns where a data file is in b: its dataFileS3Key, or,
// for an export copied under another prefix, the same name under this
// export's folder.
func (e *Export) DataFileKey(ctx context.Context, b Bucket, f ManifestFile) string {
	key := f.DataFileS3Key
	if r, err := b.Get(ctx, key); err == nil {
		r.Close()
		return key
	}
	if i := strings.Index(key, "/"+exportRoot+"/"); i >= 0 {
		key = key[i+1:]
	}
	if rest, ok := strings.CutPrefix(key, exportRoot+"/"+e.ID+"/"); ok {
		return joinKey(e.Dir, rest)
	}
	return joinKey(e.Dir, "data", path.Base(key))
}

// Open reads a data file of the export, checking its MD5 against the
// manifest's when the last record is read.
func (e *Export) Open(ctx context.Context, b Bucket, f ManifestFile) (*Reader, error) {
	key := e.DataFileKey(ctx, b, f)
	body, err := b.Get(ctx, key)
	if err != nil {
		return nil, err
	}
	var src io.Reader = body
	if f.MD5Checksum != "" {
		want, err := base64.StdEncoding.DecodeString(f.MD5Checksum)
		if err == nil {
			src = &md5Check{r: body, h: md5.New(), want: want, key: key}
		}
	}
	format := e.Summary.OutputFormat
	if format == "" {
		format = FormatDynamoDBJSON
	}
	r, err := NewReader(src, key, ReadOptions{Format: format, Compression: CompressionGzip})
	if err != nil {
		body.Close()
		return nil, err
	}
	OnClose(r, body.Close)
	return r, nil
}

// md5Check fails the read at the end when the bytes' MD5 is not want.
type md5Check struct {
	r    io.Reader
	h    hash.Hash
	want []byte
	key  string
}

func (m *md5Check) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	m.h.Write(p[:n])
	if errors.Is(err, io.EOF) && !bytes.Equal(m.h.Sum(nil), m.want) {
		return n, fmt.Errorf("%s: MD5 differs from the manifest's md5Checksum", m.key)
	}
	return n, err
}
