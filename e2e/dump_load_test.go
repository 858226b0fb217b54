package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/klauspost/compress/zstd"

	"github.com/dynago/dynago/cmd/dynago/cli"
	"github.com/dynago/dynago/internal/exchange"
	"github.com/dynago/dynago/internal/s3test"
	"github.com/dynago/dynago/testserver"
)

// The layout dump writes and load reads is DynamoDB's export to S3
// (developer guide, "DynamoDB table export output format":
// <prefix>/AWSDynamoDB/<exportId>/manifest-summary.json, manifest-files.json,
// data/*.json.gz); the inputs load reads with --format are ImportTable's
// (developer guide, "Amazon S3 import formats for DynamoDB"). The
// package internal/exchange pins the formats; these tests carry a table
// through the real server and back.

// createOrders creates a table with a sort key and a GSI, as the tests'
// source and destination.
func createOrders(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String("status"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byStatus"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("status"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// orderItems are items of every shape: every type, nested, with and
// without the GSI's key, an empty string, large and small numbers.
func orderItems() []item {
	var its []item
	for i := 0; i < 120; i++ {
		it := item{"pk": S(fmt.Sprintf("customer-%02d", i%17)), "sk": N(fmt.Sprint(i))}
		switch i % 6 {
		case 0:
			it["status"] = S("open")
			it["total"] = N("12.50")
		case 1:
			it["blob"] = B([]byte{0, byte(i), 255})
			it["flags"] = BS([]byte{1}, []byte{2, byte(i)})
			it["ok"] = BOOL(i%2 == 0)
		case 2:
			it["tags"] = SS("a", "b", fmt.Sprint(i))
			it["sizes"] = NS("1", "2.5", "-1E+30")
			it["nothing"] = NULL()
		case 3:
			it["doc"] = M(map[string]types.AttributeValue{
				"lines": L(S("x"), N("1e-20"), M(map[string]types.AttributeValue{"deep": BOOL(true)})),
				"note":  S("quote \" backslash \\ newline \n é ☃"),
				"empty": S(""),
			})
			it["status"] = S("shipped")
		case 4:
			it["list"] = L()
			it["map"] = M(map[string]types.AttributeValue{})
			it["name with spaces"] = S("v")
		case 5:
			it["big"] = N("99999999999999999999999999999999999999")
			it["status"] = S("open")
		}
		its = append(its, it)
	}
	return its
}

func scanAll(t *testing.T, c *dynamodb.Client, table string) map[string]string {
	t.Helper()
	got := map[string]string{}
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(bg())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			got[render(it["pk"])+render(it["sk"])] = renderItem(it)
		}
	}
	return got
}

// sameTable fails unless dst holds exactly src's items.
func sameTable(t *testing.T, c *dynamodb.Client, src, dst string) {
	t.Helper()
	want, got := scanAll(t, c, src), scanAll(t, c, dst)
	if len(got) != len(want) {
		t.Errorf("%s has %d items, %s %d", dst, len(got), src, len(want))
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("item %s:\n got %s\nwant %s", k, got[k], w)
		}
	}
}

func dynago(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(args, nil, &out, &errb)
	return code, out.String(), errb.String()
}

// TestDumpLoad dumps a table with a GSI and items of every shape, then
// loads the dump into another table on the same server, for each format
// and each place the files can go (a folder, S3 on moto's server).
func TestDumpLoad(t *testing.T) {
	needsWire(t)
	s := testserver.Start(t)
	createOrders(t, s.Client, "orders")
	for _, it := range orderItems() {
		if _, err := s.Client.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name     string
		s3       bool
		format   string
		segments string
	}{
		{name: "folder json", format: "DYNAMODB_JSON", segments: "3"},
		{name: "folder ion", format: "ION", segments: "1"},
		{name: "s3 json", s3: true, format: "DYNAMODB_JSON", segments: "4"},
		{name: "s3 ion", s3: true, format: "ION", segments: "2"},
	}
	run := func(t *testing.T, i int, dir string, extra []string, format, segments string) {
		args := append([]string{"dump", "orders", "--endpoint", s.URL, "--dir", dir, "--segments", segments, "--format", format}, extra...)
		code, out, errs := dynago(t, args...)
		if code != 0 {
			t.Fatalf("dump: exit %d\n%s", code, errs)
		}
		if !strings.Contains(out, "AWSDynamoDB/") || !strings.Contains(errs, "120 items of orders") {
			t.Fatalf("dump's output %q, stderr %q", out, errs)
		}
		dst := fmt.Sprintf("copy%d", i)
		createOrders(t, s.Client, dst)
		code, _, errs = dynago(t, append([]string{"load", dst, "--endpoint", s.URL, "--dir", dir}, extra...)...)
		if code != 0 {
			t.Fatalf("load: exit %d\n%s", code, errs)
		}
		if !strings.Contains(errs, "120 items into "+dst) {
			t.Errorf("load's stderr %q", errs)
		}
		sameTable(t, s.Client, "orders", dst)
		// The GSI of the copy answers as the source's.
		q := func(table string) int32 {
			out, err := s.Client.Query(bg(), &dynamodb.QueryInput{TableName: aws.String(table), IndexName: aws.String("byStatus"),
				KeyConditionExpression: aws.String("#s = :v"), ExpressionAttributeNames: map[string]string{"#s": "status"},
				ExpressionAttributeValues: map[string]types.AttributeValue{":v": S("open")}})
			if err != nil {
				t.Fatal(err)
			}
			return out.Count
		}
		if q(dst) != q("orders") || q(dst) == 0 {
			t.Errorf("GSI: %d items open in the copy, %d in the source", q(dst), q("orders"))
		}
	}
	for i, c := range cases {
		if !c.s3 {
			t.Run(c.name, func(t *testing.T) { run(t, i, t.TempDir(), nil, c.format, c.segments) })
		}
	}
	// The S3 cases share one moto server, killed when they end.
	t.Run("s3", func(t *testing.T) {
		moto := s3test.Start(t)
		for i, c := range cases {
			if c.s3 {
				t.Run(c.name, func(t *testing.T) {
					dir := "s3://" + moto.Bucket(t).Name() + "/backups/orders"
					run(t, i, dir, []string{"--s3-endpoint-url", moto.Endpoint}, c.format, c.segments)
				})
			}
		}
	})
}

// TestLoadResumes interrupts nothing, but leaves the record an
// interrupted run leaves: the files it lists are not loaded again, the
// others are; --restart loads them all.
func TestLoadResumes(t *testing.T) {
	needsWire(t)
	s := testserver.Start(t)
	createOrders(t, s.Client, "orders")
	for _, it := range orderItems() {
		if _, err := s.Client.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	if code, _, errs := dynago(t, "dump", "orders", "--endpoint", s.URL, "--dir", dir, "--segments", "4"); code != 0 {
		t.Fatalf("dump: %s", errs)
	}
	b, err := exchange.NewFolderBucket(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := exchange.FindExports(bg(), b, "")
	e, err := exchange.ReadExport(bg(), b, "", ids[0])
	if err != nil || len(e.Files) < 2 {
		t.Fatalf("export %v, %v", e, err)
	}
	first := e.Files[0]
	record := filepath.Join(dir, e.Dir, "dynago-load-copy.json")
	if err := os.WriteFile(record, []byte(`{"table":"copy","completed":["`+first.DataFileS3Key+`"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	createOrders(t, s.Client, "copy")
	cases := []struct {
		name      string
		args      []string
		wantItems int64
		wantErr   string
	}{
		{name: "resume", wantItems: 120 - first.ItemCount, wantErr: "1 of " + fmt.Sprint(len(e.Files)) + " files already loaded"},
		{name: "all done", wantItems: 120 - first.ItemCount, wantErr: fmt.Sprintf("%d of %d files already loaded", len(e.Files), len(e.Files))},
		{name: "restart", args: []string{"--restart"}, wantItems: 120, wantErr: "120 items into copy"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := dynago(t, append([]string{"load", "copy", "--endpoint", s.URL, "--dir", dir}, c.args...)...)
			if code != 0 || !strings.Contains(errs, c.wantErr) {
				t.Fatalf("exit %d, stderr %q, want %q", code, errs, c.wantErr)
			}
			if n := int64(len(scanAll(t, s.Client, "copy"))); n != c.wantItems {
				t.Fatalf("copy holds %d items, want %d", n, c.wantItems)
			}
		})
	}
	sameTable(t, s.Client, "orders", "copy")
}

// TestLoadImportFormats loads files in ImportTable's input formats
// ([import]: CSV with its header line, values as strings but for the key
// attributes of the table and its indexes; DynamoDB JSON; Ion; GZIP and
// ZSTD), each with a bad line, reported with its file and line while the
// other items are loaded.
func TestLoadImportFormats(t *testing.T) {
	needsWire(t)
	s := testserver.Start(t)
	cases := []struct {
		name, format, compression string
		file, body                string
		extra                     []string
		want                      map[string]string
		badLine                   string
	}{
		{
			name: "csv", format: "CSV", compression: "NONE", file: "in/orders.csv",
			body: "pk,sk,status,total\nc1,1,open,12.50\nc1,x,open,1\nc2,2,shipped,3\n",
			want: map[string]string{
				`{"S":"c1"}{"N":"1"}`: `{"pk":{"S":"c1"},"sk":{"N":"1"},"status":{"S":"open"},"total":{"S":"12.50"}}`,
				`{"S":"c2"}{"N":"2"}`: `{"pk":{"S":"c2"},"sk":{"N":"2"},"status":{"S":"shipped"},"total":{"S":"3"}}`,
			},
			badLine: "in/orders.csv:3:",
		},
		{
			name: "csv header list", format: "CSV", compression: "NONE", file: "in/orders.csv",
			body:  "c1;1;open\nc1;;open\n",
			extra: []string{"--csv-header", "pk,sk,status", "--csv-delimiter", ";"},
			want: map[string]string{
				`{"S":"c1"}{"N":"1"}`: `{"pk":{"S":"c1"},"sk":{"N":"1"},"status":{"S":"open"}}`,
			},
			badLine: "in/orders.csv:2:",
		},
		{
			name: "dynamodb json gzip", format: "DYNAMODB_JSON", compression: "GZIP", file: "in/part-1.json.gz",
			body: `{"Item":{"pk":{"S":"c1"},"sk":{"N":"1"},"ns":{"NS":["1","2"]}}}` + "\n" + `{"Item":{"pk":{"S":"c1"}` + "\n",
			want: map[string]string{
				`{"S":"c1"}{"N":"1"}`: `{"ns":{"NS":["1","2"]},"pk":{"S":"c1"},"sk":{"N":"1"}}`,
			},
			badLine: "in/part-1.json.gz:2:",
		},
		{
			name: "ion zstd", format: "ION", compression: "ZSTD", file: "in/part-1.ion.zst",
			body: "$ion_1_0 {Item:{pk:\"c1\",sk:1.,ss:$dynamodb_SS::[\"a\"]}}\n{Item:{pk:\"c2\",sk:2,status:7}}\n",
			want: map[string]string{
				`{"S":"c1"}{"N":"1"}`: `{"pk":{"S":"c1"},"sk":{"N":"1"},"ss":{"SS":["a"]}}`,
			},
			// status is the GSI's key, declared S: DynamoDB refuses the item.
			badLine: "in/part-1.ion.zst:2:",
		},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			table := fmt.Sprintf("imported%d", i)
			createOrders(t, s.Client, table)
			dir := t.TempDir()
			data := []byte(c.body)
			switch c.compression {
			case "GZIP":
				data = gzipped(t, data)
			case "ZSTD":
				data = zstded(t, data)
			}
			if err := os.MkdirAll(filepath.Join(dir, "in"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, c.file), data, 0o644); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"load", table, "--endpoint", s.URL, "--dir", dir, "--prefix", "in", "--format", c.format, "--compression", c.compression}, c.extra...)
			code, _, errs := dynago(t, args...)
			if code != 1 || !strings.Contains(errs, c.badLine) || !strings.Contains(errs, "1 bad lines") {
				t.Fatalf("exit %d, stderr %q, want exit 1 and %q", code, errs, c.badLine)
			}
			got := scanAll(t, s.Client, table)
			if len(got) != len(c.want) {
				t.Errorf("loaded %v, want %v", got, c.want)
			}
			keys := make([]string, 0, len(c.want))
			for k := range c.want {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if got[k] != c.want[k] {
					t.Errorf("%s: got %s, want %s", k, got[k], c.want[k])
				}
			}
		})
	}
}

func TestDumpLoadUsage(t *testing.T) {
	cases := []struct {
		args     []string
		code     int
		inStdout string
		inStderr string
	}{
		{args: []string{"dump", "--help"}, code: 0, inStdout: "AWSDynamoDB/<exportId>/manifest-summary.json"},
		{args: []string{"load", "--help"}, code: 0, inStdout: "dynago-load-TABLE.json"},
		{args: []string{"dump", "--dir", "x"}, code: 2, inStderr: "a TABLE is required"},
		{args: []string{"dump", "t"}, code: 2, inStderr: "--dir is required"},
		{args: []string{"dump", "t", "--dir", "x", "--format", "CSV"}, code: 2, inStderr: "--format must be DYNAMODB_JSON or ION"},
		{args: []string{"load", "t", "u", "--dir", "x"}, code: 2, inStderr: "unexpected arguments"},
	}
	for _, c := range cases {
		code, out, errs := dynago(t, c.args...)
		if code != c.code || !strings.Contains(out, c.inStdout) || !strings.Contains(errs, c.inStderr) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errs)
		}
	}
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	return gzipBytes(string(b))
}

func zstded(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := zstd.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
