package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// targetPrefix is the X-Amz-Target prefix of every DynamoDB operation.
const targetPrefix = "DynamoDB_20120810."

// amzJSON is the content type of DynamoDB requests and responses.
const amzJSON = "application/x-amz-json-1.0"

// Ceiling is an in-process HTTP server that speaks just enough of the
// DynamoDB protocol to satisfy the benchmark: it answers every data-plane
// request with a canned, valid response for the operation named in
// X-Amz-Target, without storing anything, so benchmarking against it
// measures the client side alone. Its control plane keeps just the names
// and key schemas of the tables created, so that the benchmark's table
// set-up runs as against a real endpoint.
type Ceiling struct {
	// URL is the endpoint, http://127.0.0.1:port.
	URL string

	srv    *http.Server
	done   chan struct{}
	canned map[string][]byte

	mu     sync.Mutex
	tables map[string]string // name: the table's key schema members, in JSON
}

// ceilingPageBytes bounds the items of a canned Query or Scan page, as
// DynamoDB's 1 MB limit does.
const ceilingPageBytes = 1 << 20

// StartCeiling starts a Ceiling on a free loopback port. GetItem returns an
// item of about itemSize bytes (1 KB if itemSize <= 0). Query and Scan
// return pageSize items of that size (20 if pageSize <= 0, fewer if they
// would pass 1 MB), newest first for Query, and a LastEvaluatedKey, as a
// page of a larger result does. A Scan with a FilterExpression (the fscan
// workload's) scans as many and returns the one in Groups its filter
// keeps. BatchWriteItem leaves nothing unprocessed.
func StartCeiling(itemSize, pageSize int) (*Ceiling, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("ceiling server: %w", err)
	}
	if itemSize <= 0 {
		itemSize = 1024
	}
	if pageSize <= 0 {
		pageSize = 20
	}
	pageSize = max(min(pageSize, ceilingPageBytes/itemSize), 1)
	item := NewItemCodec(itemSize, 1)
	sorted := NewSortedCodec(itemSize, pageSize, 1)
	grouped := NewGroupedSortedCodec(itemSize, pageSize, 1)
	c := &Ceiling{
		URL:  "http://" + ln.Addr().String(),
		done: make(chan struct{}),
		canned: map[string][]byte{
			"PutItem":            []byte(`{}`),
			"DeleteItem":         []byte(`{}`),
			"UpdateItem":         []byte(`{}`),
			"TransactWriteItems": []byte(`{}`),
			"GetItem":            []byte(`{"Item":` + string(item.JSONItem(0)) + `}`),
			"BatchWriteItem":     []byte(`{"UnprocessedItems":{}}`),
			"BatchGetItem":       []byte(`{"Responses":{},"UnprocessedKeys":{}}`),
			"Query":              cannedPage(sorted, pageSize, true),
			"Scan":               cannedPage(sorted, pageSize, false),
			filteredScan:         cannedFilteredPage(grouped, pageSize),
			"ListTables":         []byte(`{"TableNames":[]}`),
		},
		tables: map[string]string{},
	}
	c.srv = &http.Server{
		Handler:           c,
		ReadHeaderTimeout: 10 * time.Second,
	}
	go func() {
		defer close(c.done)
		_ = c.srv.Serve(ln)
	}()
	return c, nil
}

// cannedPage returns a Query or Scan response of n items of partition 0,
// in descending sort key order if newestFirst, with the last item's key as
// LastEvaluatedKey.
func cannedPage(c *SortedCodec, n int, newestFirst bool) []byte {
	b := []byte(`{"Items":[`)
	last := 0
	for j := range n {
		i := j
		if newestFirst {
			i = n - 1 - j
		}
		if j > 0 {
			b = append(b, ',')
		}
		b = append(b, c.JSONItem(i)...)
		last = i
	}
	b = append(b, `],"Count":`+strconv.Itoa(n)+`,"ScannedCount":`+strconv.Itoa(n)+`,"LastEvaluatedKey":`...)
	b = append(b, c.JSONKey(last)...)
	return append(b, '}')
}

// filteredScan is the key of the canned answer to a Scan with a filter.
const filteredScan = "Scan with FilterExpression"

// cannedFilteredPage returns a Scan response of the items of n scanned, of
// partition 0, that the fscan workload's filter keeps, with the last
// scanned item's key as LastEvaluatedKey.
func cannedFilteredPage(c *SortedCodec, n int) []byte {
	b := []byte(`{"Items":[`)
	kept := 0
	for i := range n {
		if c.Group(i) != FilterGroup {
			continue
		}
		if kept > 0 {
			b = append(b, ',')
		}
		b = append(b, c.JSONItem(i)...)
		kept++
	}
	b = append(b, `],"Count":`+strconv.Itoa(kept)+`,"ScannedCount":`+strconv.Itoa(n)+`,"LastEvaluatedKey":`...)
	b = append(b, c.JSONKey(n-1)...)
	return append(b, '}')
}

// Close stops the server and waits for it to exit.
func (c *Ceiling) Close() error {
	err := c.srv.Close()
	<-c.done
	return err
}

// ServeHTTP answers one DynamoDB request with its canned response.
func (c *Ceiling) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	op, ok := strings.CutPrefix(r.Header.Get("X-Amz-Target"), targetPrefix)
	if r.Method != http.MethodPost || !ok {
		writeJSON(w, http.StatusBadRequest, []byte(
			`{"__type":"com.amazon.coral.service#UnknownOperationException","message":"POST with X-Amz-Target: `+targetPrefix+`<Operation> expected"}`))
		return
	}
	if op == "Scan" && bytes.Contains(body, []byte(`"FilterExpression"`)) {
		op = filteredScan
	}
	if resp, ok := c.canned[op]; ok {
		writeJSON(w, http.StatusOK, resp)
		return
	}
	var req struct {
		TableName                       string
		KeySchema, AttributeDefinitions json.RawMessage
	}
	_ = json.Unmarshal(body, &req)
	c.mu.Lock()
	schema, exists := c.tables[req.TableName]
	switch {
	case op == "CreateTable" && !exists:
		schema = defaultSchema
		if len(req.KeySchema) > 0 && len(req.AttributeDefinitions) > 0 {
			schema = `"KeySchema":` + string(req.KeySchema) + `,"AttributeDefinitions":` + string(req.AttributeDefinitions)
		}
		c.tables[req.TableName] = schema
	case op == "DeleteTable" && exists:
		delete(c.tables, req.TableName)
	}
	c.mu.Unlock()
	switch op {
	case "CreateTable":
		if exists {
			writeJSON(w, http.StatusBadRequest, []byte(
				`{"__type":"com.amazonaws.dynamodb.v20120810#ResourceInUseException","message":"Table already exists"}`))
			return
		}
		writeJSON(w, http.StatusOK, []byte(`{"TableDescription":`+tableDescription(req.TableName, "ACTIVE", schema)+`}`))
	case "DescribeTable", "DeleteTable":
		if !exists {
			msg, _ := json.Marshal("Requested resource not found: Table: " + req.TableName + " not found")
			writeJSON(w, http.StatusBadRequest, []byte(
				`{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":`+string(msg)+`}`))
			return
		}
		member, status := "Table", "ACTIVE"
		if op == "DeleteTable" {
			member, status = "TableDescription", "DELETING"
		}
		writeJSON(w, http.StatusOK, []byte(`{"`+member+`":`+tableDescription(req.TableName, status, schema)+`}`))
	default:
		msg, _ := json.Marshal("the ceiling server does not answer " + op)
		writeJSON(w, http.StatusBadRequest, []byte(
			`{"__type":"com.amazon.coral.service#UnknownOperationException","message":`+string(msg)+`}`))
	}
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = []string{amzJSON}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	h["X-Amzn-Requestid"] = []string{"ceiling"}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// defaultSchema is the key schema of a table created without one.
const defaultSchema = `"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],` +
	`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]`

// tableDescription is the JSON TableDescription of a bench table, with its
// key schema members.
func tableDescription(name, status, schema string) string {
	if name == "" {
		name = DefaultTable
	}
	n, _ := json.Marshal(name)
	arn, _ := json.Marshal("arn:aws:dynamodb:us-east-1:000000000000:table/" + name)
	return `{"TableName":` + string(n) + `,"TableStatus":"` + status + `",` +
		`"TableArn":` + string(arn) + `,"TableId":"00000000-0000-0000-0000-000000000000",` +
		schema + `,` +
		`"BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST"},` +
		`"ProvisionedThroughput":{"ReadCapacityUnits":0,"WriteCapacityUnits":0,"NumberOfDecreasesToday":0},` +
		`"CreationDateTime":1700000000,"ItemCount":0,"TableSizeBytes":0}`
}
