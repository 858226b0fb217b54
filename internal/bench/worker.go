package bench

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// op is one kind of data-plane call.
type op int

const (
	opPut op = iota
	opGet
	numOps
)

var opNames = [numOps]string{"put", "get"}

func (o op) String() string { return opNames[o] }

// worker issues calls for one benchmark client. Each goroutine has its own.
type worker interface {
	do(ctx context.Context, o op, key int) error
}

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
		IdleConnTimeout:       90 * time.Second,
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
		HTTPClient:   hc,
		Retryer:      aws.NopRetryer{},
	})
}

// sdkWorker makes calls with aws-sdk-go-v2.
type sdkWorker struct {
	ddb   *dynamodb.Client
	table *string
	codec *ItemCodec
	data  types.AttributeValue
}

func (w *sdkWorker) do(ctx context.Context, o op, key int) error {
	switch o {
	case opPut:
		_, err := w.ddb.PutItem(ctx, &dynamodb.PutItemInput{
			TableName: w.table,
			Item:      w.codec.SDKItem(key, w.data),
		})
		return err
	default:
		_, err := w.ddb.GetItem(ctx, &dynamodb.GetItemInput{
			TableName: w.table,
			Key: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: w.codec.Key(key)},
			},
		})
		return err
	}
}

// rawAuthorization is a well-formed but meaningless SigV4 header; dynago
// and DynamoDB Local accept any signature.
const rawAuthorization = "AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, " +
	"SignedHeaders=content-type;host;x-amz-date;x-amz-target, " +
	"Signature=0000000000000000000000000000000000000000000000000000000000000000"

// rawWorker makes calls with plain net/http from pre-encoded bodies: only
// the key digits change between calls, and the response body is discarded
// after checking the status, so the client does as little work as an HTTP
// client can.
type rawWorker struct {
	hc     *http.Client
	url    string
	codec  *ItemCodec
	tmpl   [numOps]bodyTemplate
	target [numOps][]string
	// free recycles request bodies. The transport closes a body when it has
	// finished writing it, possibly after Do returns, so a buffer is only
	// reused once closed.
	free [numOps]chan *rawBody
}

func newRawWorker(hc *http.Client, url, table string, codec *ItemCodec) *rawWorker {
	return &rawWorker{
		hc:    hc,
		url:   url,
		codec: codec,
		tmpl:  [numOps]bodyTemplate{opPut: codec.putTemplate(table), opGet: codec.getTemplate(table)},
		target: [numOps][]string{
			opPut: {targetPrefix + "PutItem"},
			opGet: {targetPrefix + "GetItem"},
		},
		free: [numOps]chan *rawBody{make(chan *rawBody, 4), make(chan *rawBody, 4)},
	}
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

// body returns a request body for op o and key number key.
func (w *rawWorker) body(o op, key int) *rawBody {
	var b *rawBody
	select {
	case b = <-w.free[o]:
	default:
		b = &rawBody{buf: append([]byte(nil), w.tmpl[o].body...)}
	}
	b.off = 0
	b.home = w.free[o]
	w.codec.putKey(b.buf[w.tmpl[o].keyAt:], key)
	return b
}

func (w *rawWorker) do(ctx context.Context, o op, key int) error {
	body := w.body(o, key)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, body)
	if err != nil {
		return err
	}
	req.ContentLength = int64(len(body.buf))
	h := req.Header
	h["Content-Type"] = []string{amzJSON}
	h["X-Amz-Target"] = w.target[o]
	h["Authorization"] = []string{rawAuthorization}
	h["X-Amz-Date"] = []string{"20260101T000000Z"}
	resp, err := w.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		_, _ = io.Copy(io.Discard, resp.Body)
		return fmt.Errorf("%s: HTTP %d: %s", o, resp.StatusCode, msg)
	}
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}
