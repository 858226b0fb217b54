package exchange_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/internal/exchange"
	"github.com/dynago/dynago/internal/s3test"
)

// Sources cited below (AWS's developer guide and API reference):
//
//	[export]  "DynamoDB table export output format",
//	          https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html
//	[import]  "Amazon S3 import formats for DynamoDB",
//	          https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataImport.Format.html
//	[csvopts] API reference, CsvOptions,
//	          https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CsvOptions.html

// bookItem is the ProductCatalog item of the developer guide's export and
// import examples ([export], [import]).
func bookItem() attr.Item {
	return attr.Item{
		"Authors":         {Type: attr.TypeSS, SS: []string{"Author1", "Author2"}},
		"Dimensions":      attr.S("8.5 x 11.0 x 1.5"),
		"ISBN":            attr.S("333-3333333333"),
		"Id":              attr.N("103"),
		"InPublication":   attr.Bool(false),
		"PageCount":       attr.N("600"),
		"Price":           attr.N("2000"),
		"ProductCategory": attr.S("Book"),
		"Title":           attr.S("Book 103 Title"),
	}
}

// shapes are items of every type, nested, with names Ion must quote.
func shapes() []attr.Item {
	return []attr.Item{
		bookItem(),
		{"pk": attr.S("b"), "bin": attr.B([]byte{0, 1, 2, 255}), "null": attr.Null(), "yes": attr.Bool(true)},
		{"pk": attr.S("c"), "m": {Type: attr.TypeM, M: map[string]attr.Value{
			"l":         {Type: attr.TypeL, L: []attr.Value{attr.S("x"), attr.N("-1.5"), {Type: attr.TypeM, M: map[string]attr.Value{}}}},
			"ns":        {Type: attr.TypeNS, SS: []string{"1", "0.001", "-12345678901234567890123456789012345678"}},
			"bs":        {Type: attr.TypeBS, BS: [][]byte{{1}, {2, 3}}},
			"empty":     attr.S(""),
			"with ' \"": attr.S("quote ' \" backslash \\ newline \n tab \t é ☃ \x01"),
		}}},
		{"pk": attr.S("d"), "$odd": attr.N("0"), "null": attr.S("not null"), "9lives": attr.N("1E+30"), "tiny": attr.N("1e-30")},
	}
}

func canonical(t *testing.T, its []attr.Item) []attr.Item {
	t.Helper()
	for _, it := range its {
		if err := attr.CanonicalizeItem(it); err != nil {
			t.Fatal(err)
		}
	}
	return its
}

func folderBucket(t *testing.T) exchange.Bucket {
	b, err := exchange.NewFolderBucket(t.TempDir(), "exports")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// buckets runs f against a folder bucket and an S3 bucket on moto.
func buckets(t *testing.T, f func(t *testing.T, b exchange.Bucket, name string)) {
	t.Run("folder", func(t *testing.T) { f(t, folderBucket(t), "exports") })
	t.Run("s3", func(t *testing.T) {
		s := s3test.Start(t)
		b := s.Bucket(t)
		f(t, b, b.Name())
	})
}

func readAll(t *testing.T, r *exchange.Reader) ([]exchange.Record, []*exchange.LineError) {
	t.Helper()
	var recs []exchange.Record
	var bad []*exchange.LineError
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return recs, bad
		}
		var le *exchange.LineError
		if errors.As(err, &le) {
			bad = append(bad, le)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
}

func TestBucketContract(t *testing.T) {
	buckets(t, func(t *testing.T, b exchange.Bucket, _ string) {
		ctx := context.Background()
		for _, k := range []string{"a/b/c.json", "a/b/d.json", "a/x", "top"} {
			if err := b.Put(ctx, k, strings.NewReader("body of "+k)); err != nil {
				t.Fatal(err)
			}
		}
		got, err := b.List(ctx, "a/b/")
		if err != nil || !reflect.DeepEqual(got, []string{"a/b/c.json", "a/b/d.json"}) {
			t.Fatalf("List(a/b/) = %v, %v", got, err)
		}
		got, err = b.List(ctx, "a/")
		if err != nil || len(got) != 3 {
			t.Fatalf("List(a/) = %v, %v", got, err)
		}
		got, err = b.List(ctx, "")
		if err != nil || len(got) != 4 {
			t.Fatalf("List() = %v, %v", got, err)
		}
		r, err := b.Get(ctx, "a/x")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(r)
		r.Close()
		if string(body) != "body of a/x" {
			t.Fatalf("Get = %q", body)
		}
		if _, err := b.Get(ctx, "a/missing"); !errors.Is(err, exchange.ErrNotFound) {
			t.Fatalf("Get(missing) = %v, want ErrNotFound", err)
		}
		// Put replaces.
		if err := b.Put(ctx, "top", strings.NewReader("new")); err != nil {
			t.Fatal(err)
		}
		r, _ = b.Get(ctx, "top")
		body, _ = io.ReadAll(r)
		r.Close()
		if string(body) != "new" {
			t.Fatalf("after a second Put: %q", body)
		}
	})
}

func TestFolderBucketRefusesEscapingKeys(t *testing.T) {
	root := t.TempDir()
	b, err := exchange.NewFolderBucket(root, "bkt")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, k := range []string{"../outside", "a/../../outside", "/abs", "a//b", "./a", "a/./b", "", `a\..\b`} {
		if err := b.Put(ctx, k, strings.NewReader("x")); err == nil {
			t.Errorf("Put(%q) succeeded", k)
		}
		if _, err := b.Get(ctx, k); err == nil || errors.Is(err, exchange.ErrNotFound) {
			t.Errorf("Get(%q) = %v, want a refusal", k, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "outside")); err == nil {
		t.Fatal("a file was written outside the bucket's folder")
	}
	for _, name := range []string{"..", "a/b", "."} {
		if _, err := exchange.NewFolderBucket(root, name); err == nil {
			t.Errorf("NewFolderBucket(%q) succeeded", name)
		}
	}
}

// TestExportLayout writes an export and checks what [export] describes:
// the keys, the manifests' fields, the data files' names, checksums and
// lines.
func TestExportLayout(t *testing.T) {
	buckets(t, func(t *testing.T, b exchange.Bucket, bucketName string) {
		ctx := context.Background()
		clock := time.Date(2020, 11, 4, 7, 28, 34, 28e6, time.UTC)
		now := func() time.Time { clock = clock.Add(time.Second); return clock }
		w, err := exchange.NewExportWriter(ctx, exchange.ExportOptions{
			Bucket: b, BucketName: bucketName, Prefix: "2020-Nov",
			ExportID: "01234567890123-a1b2c3d4",
			TableArn: "arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog",
			TableID:  "12345a12-abcd-123a-ab12-1234abc12345",
			Now:      now,
		})
		if err != nil {
			t.Fatal(err)
		}
		items := canonical(t, shapes())
		f := w.DataFile(ctx)
		for _, it := range items {
			if err := f.WriteItem(it); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		sum, err := w.Finish(ctx)
		if err != nil {
			t.Fatal(err)
		}
		dir := "2020-Nov/AWSDynamoDB/01234567890123-a1b2c3d4/"
		keys, err := b.List(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		// [export]: the manifests with their checksums and _started beside
		// them, the data under data/ as <name>.json.gz.
		want := map[string]bool{"_started": true, "manifest-files.checksum": true, "manifest-files.json": true,
			"manifest-summary.checksum": true, "manifest-summary.json": true}
		var dataKey string
		for _, k := range keys {
			rest := strings.TrimPrefix(k, dir)
			if strings.HasPrefix(rest, "data/") && strings.HasSuffix(rest, ".json.gz") {
				dataKey = k
				continue
			}
			if !want[rest] {
				t.Errorf("unexpected object %s", k)
			}
			delete(want, rest)
		}
		if len(want) != 0 || dataKey == "" {
			t.Fatalf("missing %v (data file %q) in %v", want, dataKey, keys)
		}
		// [export]'s summary manifest: every field, by its name.
		raw := getJSON(t, b, dir+"manifest-summary.json")
		for _, field := range []string{"version", "exportArn", "startTime", "endTime", "tableArn", "tableId", "exportTime",
			"s3Bucket", "s3Prefix", "s3SseAlgorithm", "s3SseKmsKeyId", "manifestFilesS3Key", "billedSizeBytes", "itemCount", "outputFormat", "exportType"} {
			if _, ok := raw[field]; !ok {
				t.Errorf("manifest-summary.json has no %q: %v", field, raw)
			}
		}
		checks := map[string]any{
			"version":            "2020-06-30",
			"exportArn":          "arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog/export/01234567890123-a1b2c3d4",
			"tableArn":           "arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog",
			"tableId":            "12345a12-abcd-123a-ab12-1234abc12345",
			"startTime":          "2020-11-04T07:28:35.028Z",
			"exportTime":         "2020-11-04T07:28:35.028Z",
			"s3Bucket":           bucketName,
			"s3Prefix":           "2020-Nov",
			"s3SseAlgorithm":     "AES256",
			"s3SseKmsKeyId":      nil,
			"manifestFilesS3Key": dir + "manifest-files.json",
			"itemCount":          float64(len(items)),
			"outputFormat":       "DYNAMODB_JSON",
			"exportType":         "FULL_EXPORT",
		}
		for k, v := range checks {
			if !reflect.DeepEqual(raw[k], v) {
				t.Errorf("manifest-summary.json %s = %#v, want %#v", k, raw[k], v)
			}
		}
		if sum.ItemCount != int64(len(items)) || sum.BilledSizeBytes <= 0 {
			t.Errorf("summary %+v", sum)
		}
		// [export]'s files manifest: one JSON object a line, with
		// itemCount, md5Checksum (base64), etag and dataFileS3Key.
		fr, _ := b.Get(ctx, dir+"manifest-files.json")
		fdata, _ := io.ReadAll(fr)
		fr.Close()
		lines := strings.Split(strings.TrimSpace(string(fdata)), "\n")
		if len(lines) != 1 {
			t.Fatalf("manifest-files.json: %q", fdata)
		}
		var mf map[string]any
		if err := json.Unmarshal([]byte(lines[0]), &mf); err != nil {
			t.Fatal(err)
		}
		dr, _ := b.Get(ctx, dataKey)
		data, _ := io.ReadAll(dr)
		dr.Close()
		md := md5.Sum(data)
		if mf["itemCount"] != float64(len(items)) || mf["md5Checksum"] != base64.StdEncoding.EncodeToString(md[:]) ||
			mf["etag"] != hex.EncodeToString(md[:]) || mf["dataFileS3Key"] != dataKey {
			t.Errorf("manifest-files.json line %v (data %s)", mf, dataKey)
		}
		// The .checksum is the hex MD5 of its manifest.
		cr, _ := b.Get(ctx, dir+"manifest-files.checksum")
		ck, _ := io.ReadAll(cr)
		cr.Close()
		fsum := md5.Sum(fdata)
		if string(ck) != hex.EncodeToString(fsum[:]) {
			t.Errorf("manifest-files.checksum = %q", ck)
		}
		// [export]: gzip, one {"Item":{...}} per line in DynamoDB JSON.
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := io.ReadAll(zr)
		dataLines := strings.Split(strings.TrimSuffix(string(plain), "\n"), "\n")
		if len(dataLines) != len(items) {
			t.Fatalf("%d lines for %d items", len(dataLines), len(items))
		}
		if want := `{"Item":{"Authors":{"SS":["Author1","Author2"]},"Dimensions":{"S":"8.5 x 11.0 x 1.5"},"ISBN":{"S":"333-3333333333"},"Id":{"N":"103"},"InPublication":{"BOOL":false},"PageCount":{"N":"600"},"Price":{"N":"2000"},"ProductCategory":{"S":"Book"},"Title":{"S":"Book 103 Title"}}}`; dataLines[0] != want {
			t.Errorf("first line\n%s\nwant\n%s", dataLines[0], want)
		}

		// Read back through the manifests.
		ids, err := exchange.FindExports(ctx, b, "2020-Nov")
		if err != nil || !reflect.DeepEqual(ids, []string{"01234567890123-a1b2c3d4"}) {
			t.Fatalf("FindExports = %v, %v", ids, err)
		}
		e, err := exchange.ReadExport(ctx, b, "2020-Nov", ids[0])
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.Open(ctx, b, e.Files[0])
		if err != nil {
			t.Fatal(err)
		}
		recs, bad := readAll(t, r)
		r.Close()
		if len(bad) != 0 {
			t.Fatalf("bad lines: %v", bad)
		}
		for i, rec := range recs {
			if !reflect.DeepEqual(rec.Item, items[i]) {
				t.Errorf("item %d read back as %v, want %v", i, rec.Item, items[i])
			}
			if rec.Line != i+1 || rec.File != dataKey {
				t.Errorf("record %d at %s:%d", i, rec.File, rec.Line)
			}
		}

		// A data file whose bytes differ from the manifest's MD5 fails.
		if err := b.Put(ctx, dataKey, bytes.NewReader(gzipBytes(t, []byte(dataLines[0]+"\n")))); err != nil {
			t.Fatal(err)
		}
		r, err = e.Open(ctx, b, e.Files[0])
		if err != nil {
			t.Fatal(err)
		}
		var lastErr error
		for {
			_, err := r.Next()
			if err != nil {
				lastErr = err
				break
			}
		}
		r.Close()
		if lastErr == nil || !strings.Contains(lastErr.Error(), "MD5") {
			t.Fatalf("a changed data file read with %v, want an MD5 error", lastErr)
		}
	})
}

func getJSON(t *testing.T, b exchange.Bucket, key string) map[string]any {
	t.Helper()
	r, err := b.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var m map[string]any
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func gzipBytes(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func zstdBytes(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	zw, err := zstd.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestExportRoundTrip writes every shape in both formats, full and
// incremental, several data files, and reads it all back.
func TestExportRoundTrip(t *testing.T) {
	for _, format := range []exchange.Format{exchange.FormatDynamoDBJSON, exchange.FormatION} {
		for _, typ := range []exchange.ExportType{exchange.ExportFull, exchange.ExportIncremental} {
			t.Run(string(format)+"/"+string(typ), func(t *testing.T) {
				ctx := context.Background()
				b := folderBucket(t)
				w, err := exchange.NewExportWriter(ctx, exchange.ExportOptions{
					Bucket: b, BucketName: "exports", Prefix: "p/q", Format: format, Type: typ,
					TableArn: "arn:aws:dynamodb:us-east-1:000000000000:table/T", MaxFileBytes: 200,
					ExportFromTime: time.Unix(1680109764, 0), ExportToTime: time.Unix(1680110764, 0),
				})
				if err != nil {
					t.Fatal(err)
				}
				items := canonical(t, shapes())
				var changes []exchange.Change
				f := w.DataFile(ctx)
				for i, it := range items {
					if typ == exchange.ExportFull {
						if err := f.WriteItem(it); err != nil {
							t.Fatal(err)
						}
						continue
					}
					keys := attr.Item{"Id": it["Id"]}
					if _, ok := it["pk"]; ok {
						keys = attr.Item{"pk": it["pk"]}
					}
					c := exchange.Change{Keys: keys, WriteTimestampMicros: 1680109764000000 + int64(i)}
					switch i % 3 {
					case 0: // insert
						c.NewImage = it
					case 1: // update
						c.NewImage, c.OldImage = it, items[0]
					case 2: // delete
						c.OldImage = it
					}
					changes = append(changes, c)
					if err := f.WriteChange(c); err != nil {
						t.Fatal(err)
					}
				}
				if err := f.Close(); err != nil {
					t.Fatal(err)
				}
				sum, err := w.Finish(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if sum.OutputFormat != format || sum.ExportType != typ {
					t.Fatalf("summary %+v", sum)
				}
				if typ == exchange.ExportIncremental && (sum.OutputView != "NEW_AND_OLD_IMAGES" || sum.ExportFromTime != "2023-03-29T17:09:24.000Z" || sum.ExportTime != "") {
					t.Fatalf("incremental summary %+v", sum)
				}
				e, err := exchange.ReadExport(ctx, b, "p/q", w.ExportID())
				if err != nil {
					t.Fatal(err)
				}
				if len(e.Files) < 2 {
					t.Fatalf("MaxFileBytes 200 gave %d files", len(e.Files))
				}
				var got []exchange.Record
				for _, mf := range e.Files {
					ext := ".json.gz"
					if format == exchange.FormatION {
						ext = ".ion.gz"
					}
					if !strings.HasSuffix(mf.DataFileS3Key, ext) || !strings.HasPrefix(mf.DataFileS3Key, "p/q/AWSDynamoDB/"+w.ExportID()+"/data/") {
						t.Errorf("data file %s", mf.DataFileS3Key)
					}
					r, err := e.Open(ctx, b, mf)
					if err != nil {
						t.Fatal(err)
					}
					recs, bad := readAll(t, r)
					r.Close()
					if len(bad) != 0 {
						t.Fatal(bad)
					}
					if int64(len(recs)) != mf.ItemCount {
						t.Errorf("%s: %d records, manifest says %d", mf.DataFileS3Key, len(recs), mf.ItemCount)
					}
					got = append(got, recs...)
				}
				if len(got) != len(items) {
					t.Fatalf("%d records for %d items", len(got), len(items))
				}
				for i, rec := range got {
					if typ == exchange.ExportFull {
						if !reflect.DeepEqual(rec.Item, items[i]) {
							t.Errorf("item %d: %v, want %v", i, rec.Item, items[i])
						}
						continue
					}
					if rec.Change == nil || !reflect.DeepEqual(*rec.Change, changes[i]) {
						t.Errorf("change %d: %+v, want %+v", i, rec.Change, changes[i])
					}
				}
			})
		}
	}
}

// TestIonText pins the Ion a line is written as: [export]'s Ion example
// of the ProductCatalog item (decimals as 103. and 6d2, string sets
// annotated $dynamodb_SS) and the other types' mapping.
func TestIonText(t *testing.T) {
	ctx := context.Background()
	b := folderBucket(t)
	w, err := exchange.NewExportWriter(ctx, exchange.ExportOptions{Bucket: b, Format: exchange.FormatION, TableArn: "arn:t"})
	if err != nil {
		t.Fatal(err)
	}
	f := w.DataFile(ctx)
	items := canonical(t, []attr.Item{bookItem(), {
		"b": attr.B([]byte("hi")), "n": attr.Null(), "m": {Type: attr.TypeM, M: map[string]attr.Value{"x y": attr.N("-0.5")}},
		"l": {Type: attr.TypeL, L: []attr.Value{attr.Bool(true)}}, "ns": {Type: attr.TypeNS, SS: []string{"1", "20"}},
		"bs": {Type: attr.TypeBS, BS: [][]byte{[]byte("hi")}},
	}})
	for _, it := range items {
		f.WriteItem(it)
	}
	f.Close()
	if _, err := w.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	e, _ := exchange.ReadExport(ctx, b, "", w.ExportID())
	r, _ := b.Get(ctx, e.Files[0].DataFileS3Key)
	zr, _ := gzip.NewReader(r)
	text, _ := io.ReadAll(zr)
	r.Close()
	want := `$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],Dimensions:"8.5 x 11.0 x 1.5",ISBN:"333-3333333333",Id:103.,InPublication:false,PageCount:6d2,Price:2d3,ProductCategory:"Book",Title:"Book 103 Title"}}
$ion_1_0 {Item:{b:{{aGk=}},bs:$dynamodb_BS::[{{aGk=}}],l:[true],m:{'x y':-0.5},n:null,ns:$dynamodb_NS::[1.,2d1]}}
`
	if string(text) != want {
		t.Fatalf("Ion data\n%s\nwant\n%s", text, want)
	}
}

// TestImportFormats reads ImportTable's inputs ([import]): the developer
// guide's examples in each format, in each compression, with bad lines
// reported by file and line while the good ones are read.
func TestImportFormats(t *testing.T) {
	book := bookItem()
	attr.CanonicalizeItem(book)
	keyTypes := map[string]attr.Type{"Id": attr.TypeN}
	cases := []struct {
		name   string
		opts   exchange.ReadOptions
		input  string
		want   []attr.Item
		badAt  []int
		source string
	}{
		{
			// [import], DynamoDB JSON: one {"Item":...} object a line.
			name: "dynamodb json", opts: exchange.ReadOptions{Format: exchange.FormatDynamoDBJSON},
			input: `{"Item":{"Authors":{"SS":["Author1","Author2"]},"Dimensions":{"S":"8.5 x 11.0 x 1.5"},"ISBN":{"S":"333-3333333333"},"Id":{"N":"103"},"InPublication":{"BOOL":false},"PageCount":{"N":"600"},"Price":{"N":"2000"},"ProductCategory":{"S":"Book"},"Title":{"S":"Book 103 Title"}}}
{"Item":{"Id":{"N":"not a number"}}}

{"Item": {"Id": {"N": "104"}, "Title": {"S": "x"}}}
{broken
{"Item":{"Id":{"N":"105"},"s":{"SS":[]}}}
{"Item":{"Id":{"N":"106"}},"Other":1}
`,
			want:  []attr.Item{book, {"Id": attr.N("104"), "Title": attr.S("x")}},
			badAt: []int{2, 5, 6, 7},
		},
		{
			// [import], Ion: the version marker, then {Item:{...}} values.
			name: "ion", opts: exchange.ReadOptions{Format: exchange.FormatION},
			input: `$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],Dimensions:"8.5 x 11.0 x 1.5",ISBN:"333-3333333333",Id:103.,InPublication:false,PageCount:6d2,Price:2d3,ProductCategory:"Book",Title:"Book 103 Title"}}
$ion_1_0 {Item:{Id:104,Title:'''x'''}} // a comment
{Item:{Id:nan}}
{Item:{Id:105, broken
{Item:{Id:106.0, Ts:2007-02-23T12:14Z}}
{Item:{Id:1.07e2}}
`,
			want:  []attr.Item{book, {"Id": attr.N("104"), "Title": attr.S("x")}, {"Id": attr.N("107")}},
			badAt: []int{3, 4, 5},
		},
		{
			// [import], CSV: a header line, values as strings but for the
			// key attributes, which take their declared types.
			name: "csv", opts: exchange.ReadOptions{Format: exchange.FormatCSV, CSV: exchange.CSVOptions{KeyTypes: keyTypes}},
			input: "Id,Title,Price\n103,Book 103 Title,2000\nabc,bad key,1\n104,\"a, quoted\nvalue\",5\n105,short\n",
			want: []attr.Item{
				{"Id": attr.N("103"), "Title": attr.S("Book 103 Title"), "Price": attr.S("2000")},
				{"Id": attr.N("104"), "Title": attr.S("a, quoted\nvalue"), "Price": attr.S("5")},
			},
			badAt: []int{3, 6},
		},
		{
			// [csvopts]: a HeaderList makes the first line data; a delimiter.
			name: "csv header list", opts: exchange.ReadOptions{Format: exchange.FormatCSV, CSV: exchange.CSVOptions{
				KeyTypes: keyTypes, Header: []string{"Id", "Title"}, Delimiter: '|'}},
			input: "103|Book 103 Title\n104|x\n",
			want:  []attr.Item{{"Id": attr.N("103"), "Title": attr.S("Book 103 Title")}, {"Id": attr.N("104"), "Title": attr.S("x")}},
		},
	}
	for _, c := range cases {
		for _, comp := range []exchange.Compression{exchange.CompressionNone, exchange.CompressionGzip, exchange.CompressionZstd} {
			t.Run(c.name+"/"+string(comp), func(t *testing.T) {
				data := []byte(c.input)
				switch comp {
				case exchange.CompressionGzip:
					data = gzipBytes(t, data)
				case exchange.CompressionZstd:
					data = zstdBytes(t, data)
				}
				opts := c.opts
				opts.Compression = comp
				r, err := exchange.NewReader(bytes.NewReader(data), "in/file", opts)
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				recs, bad := readAll(t, r)
				var got []attr.Item
				for _, rec := range recs {
					got = append(got, rec.Item)
				}
				if !reflect.DeepEqual(got, c.want) {
					t.Errorf("items\n%v\nwant\n%v", got, c.want)
				}
				var lines []int
				for _, le := range bad {
					if le.File != "in/file" {
						t.Errorf("bad line's file %q", le.File)
					}
					lines = append(lines, le.Line)
				}
				if !reflect.DeepEqual(lines, c.badAt) {
					t.Errorf("bad lines %v (%v), want %v", lines, bad, c.badAt)
				}
			})
		}
	}
}

func TestReaderRefusesUnknownOptions(t *testing.T) {
	for _, o := range []exchange.ReadOptions{
		{Format: "XML"},
		{Format: exchange.FormatDynamoDBJSON, Compression: "BZIP2"},
		{Format: exchange.FormatCSV, CSV: exchange.CSVOptions{Delimiter: 'x'}},
	} {
		if _, err := exchange.NewReader(strings.NewReader(""), "f", o); err == nil {
			t.Errorf("NewReader(%+v) succeeded", o)
		}
	}
}

// TestIncrementalLine pins an incremental export's line in DynamoDB JSON
// ([export], "Output format for incremental export": Metadata's
// WriteTimestampMicros, Keys, NewImage, OldImage). WriteTimestampMicros
// is a DynamoDB JSON number, {"N":"..."}, as programs reading real
// incremental exports read it (a Glue table schema declaring it
// struct<N:string>, a Java reader taking its "N"); the guide's prose
// does not show its type.
func TestIncrementalLine(t *testing.T) {
	line := `{"Metadata":{"WriteTimestampMicros":{"N":"1680109764000000"}},"Keys":{"PK":{"S":"CUST#100"}},"OldImage":{"PK":{"S":"CUST#100"},"FirstName":{"S":"John"}},"NewImage":{"PK":{"S":"CUST#100"},"FirstName":{"S":"Johnny"}}}` + "\n"
	r, err := exchange.NewReader(strings.NewReader(line), "f", exchange.ReadOptions{Format: exchange.FormatDynamoDBJSON})
	if err != nil {
		t.Fatal(err)
	}
	recs, bad := readAll(t, r)
	if len(bad) != 0 || len(recs) != 1 || recs[0].Change == nil {
		t.Fatalf("%v %v", recs, bad)
	}
	want := exchange.Change{
		Keys:                 attr.Item{"PK": attr.S("CUST#100")},
		OldImage:             attr.Item{"PK": attr.S("CUST#100"), "FirstName": attr.S("John")},
		NewImage:             attr.Item{"PK": attr.S("CUST#100"), "FirstName": attr.S("Johnny")},
		WriteTimestampMicros: 1680109764000000,
	}
	if !reflect.DeepEqual(*recs[0].Change, want) {
		t.Fatalf("%+v", *recs[0].Change)
	}
}

func TestParseLocation(t *testing.T) {
	for in, want := range map[string]exchange.Location{
		"s3://bkt/a/b/": {S3: true, Bucket: "bkt", Prefix: "a/b"},
		"s3://bkt":      {S3: true, Bucket: "bkt"},
		"./dumps":       {Dir: "./dumps"},
	} {
		got, err := exchange.ParseLocation(in)
		if err != nil || got != want {
			t.Errorf("ParseLocation(%q) = %+v, %v", in, got, err)
		}
	}
	if _, err := exchange.ParseLocation("s3:///x"); err == nil {
		t.Error("s3:///x accepted")
	}
}

// TestIonAcrossChunks reads an Ion file larger than the reader's chunk,
// with values spanning lines (Ion allows it) and a bad one, all in place.
func TestIonAcrossChunks(t *testing.T) {
	var b strings.Builder
	want, badAt := 0, 0
	line := 1
	pad := strings.Repeat("x", 200)
	for i := 0; i < 4000; i++ {
		switch {
		case i == 2500:
			b.WriteString("{Item:{pk:\"bad\", n:1.2.3}}\n")
			badAt = line
			line++
		case i%700 == 0:
			fmt.Fprintf(&b, "{Item:{\n  pk:\"m%d\",\n  v:'''a\nb''' /* comment\n */}}\n", i)
			want++
			line += 5
		default:
			fmt.Fprintf(&b, "$ion_1_0 {Item:{pk:\"i%d\",pad:\"%s\"}}\n", i, pad)
			want++
			line++
		}
	}
	r, err := exchange.NewReader(strings.NewReader(b.String()), "big.ion", exchange.ReadOptions{Format: exchange.FormatION})
	if err != nil {
		t.Fatal(err)
	}
	recs, bad := readAll(t, r)
	if len(recs) != want || len(bad) != 1 || bad[0].Line != badAt {
		t.Fatalf("%d records (want %d), bad %v (want line %d)", len(recs), want, bad, badAt)
	}
	for _, rec := range recs {
		if v, ok := rec.Item["v"]; ok && v.S != "a\nb" {
			t.Fatalf("multi-line value %q at line %d", v.S, rec.Line)
		}
	}
}
