package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/internal/sdkhttp"
)

// op is one kind of data-plane call.
type op int

const (
	opPut op = iota
	opGet
	opQuery
	opScan
	opUpdate
	opTransact
	opBatchWrite // BatchSize PutRequests
	opFScan      // a Scan with a filter
	opDelete
	numOps
)

var (
	opNames   = [numOps]string{"put", "get", "query", "scan", "update", "transact", "batchwrite", "fscan", "delete"}
	opTargets = [numOps]string{"PutItem", "GetItem", "Query", "Scan", "UpdateItem", "TransactWriteItems", "BatchWriteItem", "Scan", "DeleteItem"}
)

// The update and transact workloads' expressions. An update sets a short
// string attribute and counts the updates of its item in n; a transact
// moves one unit of bal from one item to another, both of which must
// exist, so the bal of all items always sums to zero.
const (
	updateExpression   = "SET v = :v ADD n :one"
	transferExpression = "ADD bal :d"
	transferCondition  = "attribute_exists(pk)"
)

func (o op) String() string { return opNames[o] }

// worker issues calls for one benchmark client. Each goroutine has its own.
// do makes one call of kind o; key is the key number for put, get and
// update, the first item's for a batch write, the partition number for
// query, and unused for scan and fscan, whose worker keeps its own place
// in its segment. A transact moves a unit from item key to item other,
// another key number. It returns the number of items the call returned
// (query and scan), wrote (batch write: those not left unprocessed) or
// scanned (fscan: the ScannedCount); 0 for the others.
type worker interface {
	do(ctx context.Context, o op, key, other int) (items int, err error)
}

// scanPlace is where a client is in its scan: segment segment of segments,
// each client of a run owning one segment.
type scanPlace struct {
	segment, segments int
}

// idleConnTimeout is how long the benchmark keeps an unused connection.
// It must be shorter than the time a server waits for the next request on
// a keep-alive connection (dynago serve's --read-header-timeout, 10s by
// default): a connection the server closes just as a call picks it from
// the pool fails that call, which, with retries off, counts as an error.
// A run opens more connections than it keeps busy (a call that finds none
// idle dials one, and may then take another that came free first), so the
// spare ones do sit idle.
const idleConnTimeout = 4 * time.Second

// newHTTPClient returns an HTTP client that keeps a warm connection per
// benchmark client and never consults proxy settings: the benchmark talks
// to the endpoint directly.
func newHTTPClient(clients int) *http.Client {
	d := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Client{Transport: &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		MaxIdleConns:          2*clients + 8,
		MaxIdleConnsPerHost:   2*clients + 8,
		IdleConnTimeout:       idleConnTimeout,
		ResponseHeaderTimeout: 60 * time.Second,
		DisableCompression:    true,
	}}
}

// newSDKClient returns a DynamoDB client for endpoint with dummy static
// credentials. Retries are off: a failed call counts as an error instead of
// silently stretching the latency.
func newSDKClient(endpoint string, hc *http.Client) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("x", "x", ""),
		HTTPClient:   sdkhttp.Client{HC: hc},
		Retryer:      aws.NopRetryer{},
	})
}

// sdkWorker makes calls with aws-sdk-go-v2.
type sdkWorker struct {
	ddb   *dynamodb.Client
	table *string
	codec *ItemCodec
	data  types.AttributeValue
	// updateValues are the ExpressionAttributeValues of an update, debit
	// and credit those of a transact's two updates.
	updateValues, debit, credit map[string]types.AttributeValue

	// Query and Scan, on the sorted table.
	sortedTable *string
	sorted      *SortedCodec
	pageSize    *int32
	place       scanPlace
	// startKey is the LastEvaluatedKey of the previous Scan page; nil at
	// the start of the segment.
	startKey map[string]types.AttributeValue
	// filterValues are the ExpressionAttributeValues of an fscan.
	filterValues map[string]types.AttributeValue
}

// newSDKWorker returns an SDK worker for the put/get table; the caller
// sets the sorted table's fields if a workload reads it.
func newSDKWorker(ddb *dynamodb.Client, table string, codec *ItemCodec) *sdkWorker {
	return &sdkWorker{
		ddb: ddb, table: aws.String(table), codec: codec, data: codec.SDKData(),
		updateValues: map[string]types.AttributeValue{
			":v":   &types.AttributeValueMemberS{Value: updateValue},
			":one": &types.AttributeValueMemberN{Value: "1"},
		},
		debit:        map[string]types.AttributeValue{":d": &types.AttributeValueMemberN{Value: "-1"}},
		credit:       map[string]types.AttributeValue{":d": &types.AttributeValueMemberN{Value: "1"}},
		filterValues: map[string]types.AttributeValue{":g": &types.AttributeValueMemberS{Value: FilterGroup}},
	}
}

// sdkKey returns the key of item number i of the put/get table.
func (w *sdkWorker) sdkKey(i int) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: w.codec.Key(i)}}
}

func (w *sdkWorker) do(ctx context.Context, o op, key, other int) (int, error) {
	switch o {
	case opPut:
		_, err := w.ddb.PutItem(ctx, &dynamodb.PutItemInput{
			TableName: w.table,
			Item:      w.codec.SDKItem(key, w.data),
		})
		return 0, err
	case opGet:
		_, err := w.ddb.GetItem(ctx, &dynamodb.GetItemInput{
			TableName: w.table,
			Key:       w.sdkKey(key),
		})
		return 0, err
	case opDelete:
		_, err := w.ddb.DeleteItem(ctx, &dynamodb.DeleteItemInput{
			TableName: w.table,
			Key:       w.sdkKey(key),
		})
		return 0, err
	case opUpdate:
		_, err := w.ddb.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                 w.table,
			Key:                       w.sdkKey(key),
			UpdateExpression:          aws.String(updateExpression),
			ExpressionAttributeValues: w.updateValues,
			ReturnValues:              types.ReturnValueNone,
		})
		return 0, err
	case opTransact:
		_, err := w.ddb.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
			TransactItems: []types.TransactWriteItem{
				{Update: w.transfer(key, w.debit)},
				{Update: w.transfer(other, w.credit)},
			},
		})
		return 0, err
	case opQuery:
		out, err := w.ddb.Query(ctx, &dynamodb.QueryInput{
			TableName:                 w.sortedTable,
			KeyConditionExpression:    aws.String("pk = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: w.sorted.Partition(key)}},
			ScanIndexForward:          aws.Bool(false),
			Limit:                     w.pageSize,
		})
		if err != nil {
			return 0, err
		}
		return len(out.Items), nil
	case opBatchWrite:
		reqs := make([]types.WriteRequest, BatchSize)
		for j := range reqs {
			reqs[j].PutRequest = &types.PutRequest{Item: w.codec.SDKItem(w.codec.BatchKey(key, j), w.data)}
		}
		out, err := w.ddb.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{*w.table: reqs},
		})
		if err != nil {
			return 0, err
		}
		return BatchSize - len(out.UnprocessedItems[*w.table]), nil
	default:
		in := &dynamodb.ScanInput{
			TableName:         w.sortedTable,
			Limit:             w.pageSize,
			Segment:           aws.Int32(int32(w.place.segment)),
			TotalSegments:     aws.Int32(int32(w.place.segments)),
			ExclusiveStartKey: w.startKey,
		}
		if o == opFScan {
			in.FilterExpression = aws.String(filterExpression)
			in.ExpressionAttributeValues = w.filterValues
		}
		out, err := w.ddb.Scan(ctx, in)
		if err != nil {
			return 0, err
		}
		w.startKey = out.LastEvaluatedKey
		if len(w.startKey) == 0 {
			w.startKey = nil // end of the segment: start over
		}
		if o == opFScan {
			return int(out.ScannedCount), nil
		}
		return len(out.Items), nil
	}
}

// transfer is one half of a transact: the update of item key by the
// amount in values, on condition that the item exists.
func (w *sdkWorker) transfer(key int, values map[string]types.AttributeValue) *types.Update {
	return &types.Update{
		TableName:                 w.table,
		Key:                       w.sdkKey(key),
		UpdateExpression:          aws.String(transferExpression),
		ConditionExpression:       aws.String(transferCondition),
		ExpressionAttributeValues: values,
	}
}

// rawAuthorization is a well-formed but meaningless SigV4 header; dynago
// and DynamoDB Local accept any signature.
const rawAuthorization = "AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, " +
	"SignedHeaders=content-type;host;x-amz-date;x-amz-target, " +
	"Signature=0000000000000000000000000000000000000000000000000000000000000000"

// rawWorker makes calls with plain net/http from pre-encoded bodies: only
// the key digits change between calls, so the client does as little work
// as an HTTP client can. Put and get responses are discarded after checking
// the status. Query and Scan responses are read into a buffer and scanned
// for "Count" (for fscan "ScannedCount") and, for Scan, "LastEvaluatedKey",
// whose bytes become the next page's ExclusiveStartKey verbatim: no JSON
// is decoded. A batch write's response is scanned for the PutRequests left
// in its UnprocessedItems.
type rawWorker struct {
	hc     *http.Client
	url    string
	codec  *ItemCodec           // for a batch write's keys
	tmpl   [numOps]bodyTemplate // all but scan and fscan
	target [numOps][]string
	// free recycles request bodies. The transport closes a body when it has
	// finished writing it, possibly after Do returns, so a buffer is only
	// reused once closed.
	free [numOps]chan *rawBody

	// Scan: the body up to TotalSegments (fscan: and the filter), and the
	// LastEvaluatedKey of the previous page, empty at the start of the
	// segment.
	scanPrefix, fscanPrefix []byte
	startKey                []byte
	// resp holds the response of a query or scan.
	resp bytes.Buffer
}

// newRawWorker returns a raw worker for the tables of a run. sorted may be
// nil if the run has no query or scan.
func newRawWorker(hc *http.Client, url, table string, codec *ItemCodec,
	sortedTable string, sorted *SortedCodec, pageSize int, place scanPlace) *rawWorker {
	w := &rawWorker{hc: hc, url: url}
	w.tmpl[opPut] = codec.putTemplate(table)
	w.tmpl[opGet] = codec.getTemplate(table)
	w.tmpl[opUpdate] = codec.updateTemplate(table)
	w.tmpl[opTransact] = codec.transactTemplate(table)
	w.tmpl[opBatchWrite] = codec.batchWriteTemplate(table)
	w.codec = codec
	w.tmpl[opDelete] = codec.getTemplate(table) // a DeleteItem's body is a GetItem's
	if sorted != nil {
		w.tmpl[opQuery] = sorted.queryTemplate(sortedTable, pageSize)
		w.scanPrefix = scanPrefix(sortedTable, pageSize, place.segment, place.segments)
		w.fscanPrefix = filteredScanPrefix(sortedTable, pageSize, place.segment, place.segments)
	}
	for o := range numOps {
		w.target[o] = []string{targetPrefix + opTargets[o]}
		w.free[o] = make(chan *rawBody, 4)
	}
	return w
}

// rawBody is a request body that returns its buffer to its worker on Close.
type rawBody struct {
	buf  []byte
	off  int
	home chan *rawBody
}

func (b *rawBody) Read(p []byte) (int, error) {
	if b.off >= len(b.buf) {
		return 0, io.EOF
	}
	n := copy(p, b.buf[b.off:])
	b.off += n
	return n, nil
}

func (b *rawBody) Close() error {
	if b.home != nil {
		home := b.home
		b.home = nil
		select {
		case home <- b:
		default:
		}
	}
	return nil
}

// body returns a request body for op o and key numbers key and, for a
// transact, other.
func (w *rawWorker) body(o op, key, other int) *rawBody {
	var b *rawBody
	select {
	case b = <-w.free[o]:
	default:
		b = &rawBody{}
		if o != opScan && o != opFScan {
			b.buf = append([]byte(nil), w.tmpl[o].body...)
		}
	}
	b.off = 0
	b.home = w.free[o]
	if o == opScan || o == opFScan {
		// The one body whose length varies: the start key is copied in.
		prefix := w.scanPrefix
		if o == opFScan {
			prefix = w.fscanPrefix
		}
		b.buf = append(b.buf[:0], prefix...)
		if len(w.startKey) > 0 {
			b.buf = append(b.buf, `,"ExclusiveStartKey":`...)
			b.buf = append(b.buf, w.startKey...)
		}
		b.buf = append(b.buf, '}')
		return b
	}
	t := &w.tmpl[o]
	t.key.put(b.buf[t.keyAt:], key)
	for j := 1; j < len(t.batchAt); j++ {
		t.key.put(b.buf[t.batchAt[j]:], w.codec.BatchKey(key, j))
	}
	if t.otherAt > 0 {
		t.key.put(b.buf[t.otherAt:], other)
	}
	return b
}

func (w *rawWorker) do(ctx context.Context, o op, key, other int) (int, error) {
	body := w.body(o, key, other)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, body)
	if err != nil {
		return 0, err
	}
	req.ContentLength = int64(len(body.buf))
	h := req.Header
	h["Content-Type"] = []string{amzJSON}
	h["X-Amz-Target"] = w.target[o]
	h["Authorization"] = []string{rawAuthorization}
	h["X-Amz-Date"] = []string{"20260101T000000Z"}
	resp, err := w.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		_, _ = io.Copy(io.Discard, resp.Body)
		return 0, fmt.Errorf("%s: HTTP %d: %s", o, resp.StatusCode, msg)
	}
	if o != opQuery && o != opScan && o != opFScan && o != opBatchWrite {
		_, err = io.Copy(io.Discard, resp.Body)
		return 0, err
	}
	w.resp.Reset()
	if _, err := w.resp.ReadFrom(resp.Body); err != nil {
		return 0, err
	}
	out := w.resp.Bytes()
	if o == opBatchWrite {
		n, err := unprocessedPuts(out)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", o, err)
		}
		return BatchSize - n, nil
	}
	count := `"Count"`
	if o == opFScan {
		count = `"ScannedCount"`
	}
	n, ok := jsonNumber(out, count)
	if !ok {
		return 0, fmt.Errorf("%s: no %s in response: %.200s", o, count, out)
	}
	if o == opScan || o == opFScan {
		lek, found, err := jsonMember(out, `"LastEvaluatedKey"`)
		if err != nil {
			return 0, fmt.Errorf("scan: %w", err)
		}
		// No LastEvaluatedKey: the end of the segment; start it over.
		w.startKey = w.startKey[:0]
		if found && len(bytes.TrimSpace(lek[1:len(lek)-1])) > 0 {
			w.startKey = append(w.startKey, lek...)
		}
	}
	return n, nil
}

// unprocessedPuts returns the number of PutRequests in the
// UnprocessedItems of a BatchWriteItem response, assuming, as jsonCount
// does, that no item holds the member names.
func unprocessedPuts(b []byte) (int, error) {
	left, _, err := jsonMember(b, `"UnprocessedItems"`)
	if err != nil {
		return 0, err
	}
	return bytes.Count(left, []byte(`"PutRequest"`)), nil
}

// jsonCount returns the value of the "Count" member of a Query or Scan
// response. It looks for the first `"Count"` in b, which is the member as
// long as no item holds that string: true of the benchmark's items.
func jsonCount(b []byte) (int, bool) { return jsonNumber(b, `"Count"`) }

// jsonNumber returns the value of the first member named name (a quoted
// JSON string) in b, a whole number, as jsonCount does for "Count".
func jsonNumber(b []byte, name string) (int, bool) {
	i := bytes.Index(b, []byte(name))
	if i < 0 {
		return 0, false
	}
	i = skipSpace(b, i+len(name))
	if i >= len(b) || b[i] != ':' {
		return 0, false
	}
	i = skipSpace(b, i+1)
	n, digits := 0, 0
	for ; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
		n = n*10 + int(b[i]-'0')
		digits++
	}
	return n, digits > 0
}

// jsonMember returns the object value of the first member named name (a
// quoted JSON string) in b, as it appears in b, and whether it was found.
// Like jsonCount it assumes name occurs nowhere else first.
func jsonMember(b []byte, name string) ([]byte, bool, error) {
	i := bytes.Index(b, []byte(name))
	if i < 0 {
		return nil, false, nil
	}
	i = skipSpace(b, i+len(name))
	if i >= len(b) || b[i] != ':' {
		return nil, false, fmt.Errorf("%s: no colon after the name", name)
	}
	i = skipSpace(b, i+1)
	end, err := objectEnd(b, i)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", name, err)
	}
	return b[i:end], true, nil
}

// objectEnd returns the offset just past the JSON object starting at b[i],
// skipping braces inside strings.
func objectEnd(b []byte, i int) (int, error) {
	if i >= len(b) || b[i] != '{' {
		return 0, errors.New("not an object")
	}
	depth, inString := 0, false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1, nil
			}
		}
	}
	return 0, errors.New("unterminated object")
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
