package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// targetPrefix is the X-Amz-Target prefix of every DynamoDB operation.
const targetPrefix = "DynamoDB_20120810."

// amzJSON is the content type of DynamoDB requests and responses.
const amzJSON = "application/x-amz-json-1.0"

// Ceiling is an in-process HTTP server that speaks just enough of the
// DynamoDB protocol to satisfy the benchmark: it answers every request with
// a canned, valid response for the operation named in X-Amz-Target, without
// storing anything. Benchmarking against it measures the client side alone.
type Ceiling struct {
	// URL is the endpoint, http://127.0.0.1:port.
	URL string

	srv    *http.Server
	done   chan struct{}
	canned map[string][]byte
}

// StartCeiling starts a Ceiling on a free loopback port. GetItem returns an
// item of about itemSize bytes (1 KB if itemSize <= 0).
func StartCeiling(itemSize int) (*Ceiling, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("ceiling server: %w", err)
	}
	if itemSize <= 0 {
		itemSize = 1024
	}
	item := NewItemCodec(itemSize, 1)
	c := &Ceiling{
		URL:  "http://" + ln.Addr().String(),
		done: make(chan struct{}),
		canned: map[string][]byte{
			"PutItem":        []byte(`{}`),
			"DeleteItem":     []byte(`{}`),
			"UpdateItem":     []byte(`{}`),
			"GetItem":        []byte(`{"Item":` + string(item.JSONItem(0)) + `}`),
			"BatchWriteItem": []byte(`{"UnprocessedItems":{}}`),
			"BatchGetItem":   []byte(`{"Responses":{},"UnprocessedKeys":{}}`),
			"Query":          []byte(`{"Items":[],"Count":0,"ScannedCount":0}`),
			"Scan":           []byte(`{"Items":[],"Count":0,"ScannedCount":0}`),
			"ListTables":     []byte(`{"TableNames":[]}`),
		},
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
	if resp, ok := c.canned[op]; ok {
		writeJSON(w, http.StatusOK, resp)
		return
	}
	var req struct{ TableName string }
	_ = json.Unmarshal(body, &req)
	switch op {
	case "CreateTable":
		writeJSON(w, http.StatusOK, []byte(`{"TableDescription":`+tableDescription(req.TableName, "ACTIVE")+`}`))
	case "DescribeTable":
		writeJSON(w, http.StatusOK, []byte(`{"Table":`+tableDescription(req.TableName, "ACTIVE")+`}`))
	case "DeleteTable":
		writeJSON(w, http.StatusOK, []byte(`{"TableDescription":`+tableDescription(req.TableName, "DELETING")+`}`))
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

// tableDescription is the JSON TableDescription of a bench table.
func tableDescription(name, status string) string {
	if name == "" {
		name = DefaultTable
	}
	n, _ := json.Marshal(name)
	arn, _ := json.Marshal("arn:aws:dynamodb:us-east-1:000000000000:table/" + name)
	return `{"TableName":` + string(n) + `,"TableStatus":"` + status + `",` +
		`"TableArn":` + string(arn) + `,"TableId":"00000000-0000-0000-0000-000000000000",` +
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],` +
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],` +
		`"BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST"},` +
		`"ProvisionedThroughput":{"ReadCapacityUnits":0,"WriteCapacityUnits":0,"NumberOfDecreasesToday":0},` +
		`"CreationDateTime":1700000000,"ItemCount":0,"TableSizeBytes":0}`
}
