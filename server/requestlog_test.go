package server

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/dynago/dynago/engine"
)

// syncBuffer is a bytes.Buffer the log handler and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) lines(t *testing.T) []map[string]any {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.b.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

func observedServer(t *testing.T, level slog.Level) (*Server, *Metrics, *syncBuffer) {
	t.Helper()
	db, err := engine.Open(engine.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	logs := &syncBuffer{}
	m := NewMetrics(func() []*engine.DB { return []*engine.DB{db} })
	s := New(db, Config{
		Logger:  slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: level})),
		Metrics: m,
	})
	return s, m, logs
}

// post sends one API request and returns the status and body.
func post(t *testing.T, s *Server, op, body string) (int, string) {
	t.Helper()
	r := httptest.NewRequest("POST", "/", strings.NewReader(body))
	r.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	r.Header.Set("Content-Type", "application/x-amz-json-1.0")
	r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDSECRETLOOKING/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0123456789abcdef")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	b, _ := io.ReadAll(w.Body)
	return w.Code, string(b)
}

const createMetered = `{"TableName":"logged","BillingMode":"PAY_PER_REQUEST",
	"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],
	"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
	"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`

// TestDebugLogsOneLinePerRequest checks the request log at debug level:
// one line per API request with operation, table, index, status, error
// type, latency, units and request id; the units shown even when the
// client did not ask for them, without the answer carrying them; and
// nothing of the Authorization header.
func TestDebugLogsOneLinePerRequest(t *testing.T) {
	s, _, logs := observedServer(t, slog.LevelDebug)
	if code, body := post(t, s, "CreateTable", createMetered); code != 200 {
		t.Fatalf("CreateTable: %d %s", code, body)
	}
	code, body := post(t, s, "PutItem", `{"TableName":"logged","Item":{"pk":{"S":"a"},"g":{"S":"x"}}}`)
	if code != 200 || strings.Contains(body, "ConsumedCapacity") {
		t.Fatalf("PutItem without ReturnConsumedCapacity answered %d %s; the log's units must not reach the answer", code, body)
	}
	if code, body := post(t, s, "Query", `{"TableName":"logged","IndexName":"byG","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}},"ReturnConsumedCapacity":"TOTAL"}`); code != 200 || !strings.Contains(body, `"ConsumedCapacity":{"CapacityUnits":0.5,"TableName":"logged"}`) {
		t.Fatalf("Query with TOTAL answered %d %s", code, body)
	}
	if code, _ := post(t, s, "GetItem", `{"TableName":"logged"}`); code != 400 {
		t.Fatalf("GetItem without a key answered %d", code)
	}

	var reqs []map[string]any
	for _, l := range logs.lines(t) {
		if l["msg"] == "request" {
			reqs = append(reqs, l)
		}
	}
	if len(reqs) != 4 {
		t.Fatalf("%d request lines, want 4: %v", len(reqs), reqs)
	}
	put, query, bad := reqs[1], reqs[2], reqs[3]
	if put["operation"] != "PutItem" || put["table"] != "logged" || put["status"] != 200.0 || put["units"] != 2.0 || put["request_id"] == "" {
		t.Errorf("PutItem line %v: want operation, table, status 200, units 2 (table and index), request id", put)
	}
	if query["operation"] != "Query" || query["index"] != "byG" || query["units"] != 0.5 {
		t.Errorf("Query line %v: want index byG, units 0.5", query)
	}
	if bad["status"] != 400.0 || bad["error"] != "ValidationException" {
		t.Errorf("failed GetItem line %v: want status 400, error ValidationException", bad)
	}
	if _, ok := put["latency"]; !ok {
		t.Errorf("no latency in %v", put)
	}
	logs.mu.Lock()
	all := logs.b.String()
	logs.mu.Unlock()
	if strings.Contains(all, "AKIDSECRETLOOKING") || strings.Contains(all, "0123456789abcdef") {
		t.Errorf("the log holds the Authorization header: %s", all)
	}
}

// TestInfoLogsNoRequests checks that below debug no request is logged,
// while the metrics still count them.
func TestInfoLogsNoRequests(t *testing.T) {
	s, m, logs := observedServer(t, slog.LevelInfo)
	post(t, s, "CreateTable", createMetered)
	post(t, s, "DescribeTable", `{"TableName":"missing"}`)
	for _, l := range logs.lines(t) {
		if l["msg"] == "request" {
			t.Fatalf("request logged at info level: %v", l)
		}
	}
	if v := scrape(t, m, `dynago_requests_total{operation="DescribeTable",outcome="ResourceNotFoundException"}`); v != 1 {
		t.Errorf("DescribeTable not found counted %v, want 1", v)
	}
	if v := scrape(t, m, `dynago_requests_total{operation="CreateTable",outcome="ok"}`); v != 1 {
		t.Errorf("CreateTable ok counted %v, want 1", v)
	}
	// A made-up operation is counted under "unknown", never under a
	// name the client chose.
	post(t, s, "NoSuchOperation"+strings.Repeat("x", 10), `{}`)
	if v := scrape(t, m, `dynago_requests_total{operation="unknown",outcome="UnknownOperationException"}`); v != 1 {
		t.Errorf("unknown operation counted %v, want 1", v)
	}
}

// TestBackupOperationsNamed: the backup and point-in-time recovery
// operations are routed to the engine, so the metrics and the request
// log name each of them (and the table it names), never "unknown".
func TestBackupOperationsNamed(t *testing.T) {
	s, m, logs := observedServer(t, slog.LevelDebug)
	requests := []struct{ op, body, table string }{
		{"CreateBackup", `{"TableName":"t1","BackupName":"b"}`, "t1"},
		{"DescribeBackup", `{"BackupArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t1/backup/01700000000123-abcdef01"}`, ""},
		{"ListBackups", `{"TableName":"t2"}`, "t2"},
		{"DeleteBackup", `{"BackupArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t1/backup/01700000000123-abcdef01"}`, ""},
		{"RestoreTableFromBackup", `{"TargetTableName":"r1","BackupArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t1/backup/01700000000123-abcdef01"}`, "r1"},
		{"UpdateContinuousBackups", `{"TableName":"t3","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`, "t3"},
		{"DescribeContinuousBackups", `{"TableName":"t4"}`, "t4"},
		{"RestoreTableToPointInTime", `{"SourceTableName":"t1","TargetTableName":"r2","UseLatestRestorableTime":true}`, "r2"},
	}
	for _, r := range requests {
		if code, body := post(t, s, r.op, r.body); code == 404 || strings.HasPrefix(body, "<") {
			t.Errorf("%s: answered %d %s, as an operation not served", r.op, code, body)
		}
	}
	var lines []map[string]any
	for _, l := range logs.lines(t) {
		if l["msg"] == "request" {
			lines = append(lines, l)
		}
	}
	if len(lines) != len(requests) {
		t.Fatalf("%d request lines, want %d: %v", len(lines), len(requests), lines)
	}
	for i, r := range requests {
		l := lines[i]
		table, _ := l["table"].(string)
		if l["operation"] != r.op || table != r.table {
			t.Errorf("%s: log line %v, want operation %s, table %q", r.op, l, r.op, r.table)
		}
		if v := scrape(t, m, `dynago_request_duration_seconds_count{operation="`+r.op+`"}`); v != 1 {
			t.Errorf("%s: counted %v times, want 1", r.op, v)
		}
	}
	if v := scrape(t, m, `dynago_request_duration_seconds_count{operation="unknown"}`); v != -1 {
		t.Errorf("%v requests counted as unknown", v)
	}
}

// TestExportImportOperationsNamed: the export and import operations are
// routed to the engine, so the metrics and the request log name each of
// them, and the table it names (by name, or by the ARN's name).
func TestExportImportOperationsNamed(t *testing.T) {
	s, m, logs := observedServer(t, slog.LevelDebug)
	const arn = "arn:aws:dynamodb:us-east-1:000000000000:table/t1"
	requests := []struct{ op, body, table string }{
		{"ExportTableToPointInTime", `{"TableArn":"` + arn + `","S3Bucket":"b"}`, "t1"},
		{"DescribeExport", `{"ExportArn":"` + arn + `/export/01700000000123-abcdef01"}`, ""},
		{"ListExports", `{"TableArn":"` + arn + `"}`, "t1"},
		{"ImportTable", `{"S3BucketSource":{"S3Bucket":"b"},"InputFormat":"CSV","TableCreationParameters":{"TableName":"i1"}}`, "i1"},
		{"DescribeImport", `{"ImportArn":"` + arn + `/import/01700000000123-abcdef01"}`, ""},
		{"ListImports", `{"TableArn":"not an arn"}`, ""},
	}
	for _, r := range requests {
		if code, body := post(t, s, r.op, r.body); code == 404 || strings.HasPrefix(body, "<") {
			t.Errorf("%s: answered %d %s, as an operation not served", r.op, code, body)
		}
	}
	var lines []map[string]any
	for _, l := range logs.lines(t) {
		if l["msg"] == "request" {
			lines = append(lines, l)
		}
	}
	if len(lines) != len(requests) {
		t.Fatalf("%d request lines, want %d: %v", len(lines), len(requests), lines)
	}
	for i, r := range requests {
		l := lines[i]
		table, _ := l["table"].(string)
		if l["operation"] != r.op || table != r.table {
			t.Errorf("%s: log line %v, want operation %s, table %q", r.op, l, r.op, r.table)
		}
		if v := scrape(t, m, `dynago_request_duration_seconds_count{operation="`+r.op+`"}`); v != 1 {
			t.Errorf("%s: counted %v times, want 1", r.op, v)
		}
	}
	if v := scrape(t, m, `dynago_request_duration_seconds_count{operation="unknown"}`); v != -1 {
		t.Errorf("%v requests counted as unknown", v)
	}
}

func TestTableOfArn(t *testing.T) {
	for arn, want := range map[string]string{
		"arn:aws:dynamodb:us-east-1:000000000000:table/t1":                      "t1",
		"arn:aws:dynamodb:us-east-1:000000000000:table/t.2-x/export/0170000-ab": "t.2-x",
		"arn:aws:dynamodb:us-east-1:000000000000:table/":                        "",
		"table/t1":    "",
		"":            "",
		"arn:aws:s3:": "",
	} {
		if got := tableOfArn(arn); got != want {
			t.Errorf("tableOfArn(%q) = %q, want %q", arn, got, want)
		}
	}
}
