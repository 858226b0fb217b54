package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"hash/crc32"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// fixedNow is the clock of servers started with startFixed.
var fixedNow = time.Date(2024, 5, 6, 7, 8, 9, 123e6, time.UTC)

// start starts a server and returns it with the client the run asked for
// (DYNAGO_TEST_CLIENT: the SDK over TCP, the SDK on the in-process
// transport, or the direct client), or the TCP client in a test marked
// with needsWire.
func start(t *testing.T) (*testserver.Server, local.API) {
	t.Helper()
	s := testserver.Start(t)
	return s, client(t, s)
}

// startFixed starts a server whose clock is stopped at fixedNow.
func startFixed(t *testing.T) (*testserver.Server, local.API) {
	t.Helper()
	s := testserver.Start(t, testserver.WithNow(func() time.Time { return fixedNow }))
	return s, client(t, s)
}

// wireTests holds the tests marked with needsWire.
var wireTests sync.Map // *testing.T -> struct{}

// needsWire marks a test of HTTP itself (the raw protocol, headers, CORS,
// compression, body limits, abuse of the server, the AWS CLI and boto3,
// server processes and several nodes): it talks to its servers over TCP
// whatever DYNAGO_TEST_CLIENT asks, so every run of the suite runs it the
// same way. start and client give such a test the TCP client.
func needsWire(t *testing.T) {
	t.Helper()
	wireTests.Store(t, struct{}{})
	t.Cleanup(func() { wireTests.Delete(t) })
}

// client returns the client t drives s with: s.API, or s.Client (TCP) if
// t needs the wire.
func client(t *testing.T, s *testserver.Server) local.API {
	if _, ok := wireTests.Load(t); ok {
		return s.Client
	}
	return s.API
}

func bg() context.Context { return context.Background() }

func tableARN(name string) string {
	return "arn:aws:dynamodb:" + testserver.Region + ":" + testserver.AccountID + ":table/" + name
}

// Attribute value shorthands.

func S(v string) types.AttributeValue  { return &types.AttributeValueMemberS{Value: v} }
func N(v string) types.AttributeValue  { return &types.AttributeValueMemberN{Value: v} }
func B(v []byte) types.AttributeValue  { return &types.AttributeValueMemberB{Value: v} }
func BOOL(v bool) types.AttributeValue { return &types.AttributeValueMemberBOOL{Value: v} }
func NULL() types.AttributeValue       { return &types.AttributeValueMemberNULL{Value: true} }
func SS(v ...string) types.AttributeValue {
	return &types.AttributeValueMemberSS{Value: append([]string{}, v...)}
}
func NS(v ...string) types.AttributeValue {
	return &types.AttributeValueMemberNS{Value: append([]string{}, v...)}
}
func BS(v ...[]byte) types.AttributeValue {
	return &types.AttributeValueMemberBS{Value: append([][]byte{}, v...)}
}
func L(v ...types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberL{Value: append([]types.AttributeValue{}, v...)}
}
func M(v map[string]types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberM{Value: v}
}

type item = map[string]types.AttributeValue

// createHash creates an on-demand table whose partition key pk has type typ.
func createHash(t *testing.T, c local.API, name string, typ types.ScalarAttributeType) *types.TableDescription {
	t.Helper()
	out, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: typ}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		t.Fatalf("CreateTable %s: %v", name, err)
	}
	return out.TableDescription
}

// createRange creates an on-demand table with partition key pk (S) and
// sort key sk of type skType.
func createRange(t *testing.T, c local.API, name string, skType types.ScalarAttributeType) {
	t.Helper()
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: skType},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
	})
	if err != nil {
		t.Fatalf("CreateTable %s: %v", name, err)
	}
}

func put(t *testing.T, c local.API, table string, it item) {
	t.Helper()
	if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
		t.Fatalf("PutItem: %v", err)
	}
}

func get(t *testing.T, c local.API, table string, key item) item {
	t.Helper()
	out, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatalf("GetItem: %v", err)
	}
	return out.Item
}

func describe(t *testing.T, c local.API, table string) *types.TableDescription {
	t.Helper()
	out, err := c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatalf("DescribeTable: %v", err)
	}
	return out.Table
}

// wantErr checks that err is the DynamoDB error code with exactly msg.
func wantErr(t *testing.T, err error, code, msg string) {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("got %v, want %s: %s", err, code, msg)
	}
	if ae.ErrorCode() != code || ae.ErrorMessage() != msg {
		t.Fatalf("got %s: %q\nwant %s: %q", ae.ErrorCode(), ae.ErrorMessage(), code, msg)
	}
}

// wantValidation checks for a ValidationException with exactly msg.
func wantValidation(t *testing.T, err error, msg string) {
	t.Helper()
	wantErr(t, err, "ValidationException", msg)
}

// wantConstraints checks for a ValidationException listing exactly the
// given member-constraint violations, in any order, as DynamoDB does:
// "N validation error(s) detected: a; b; c".
func wantConstraints(t *testing.T, err error, violations ...string) {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) || ae.ErrorCode() != "ValidationException" {
		t.Fatalf("got %v, want a ValidationException", err)
	}
	word := "errors"
	if len(violations) == 1 {
		word = "error"
	}
	prefix := strconv.Itoa(len(violations)) + " validation " + word + " detected: "
	msg := ae.ErrorMessage()
	if !strings.HasPrefix(msg, prefix) {
		t.Fatalf("message %q does not start with %q", msg, prefix)
	}
	got := strings.Split(strings.TrimPrefix(msg, prefix), "; ")
	if !sameSet(got, violations) {
		t.Fatalf("violations:\n got %q\nwant %q", got, violations)
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[string]int{}
	for _, s := range a {
		count[s]++
	}
	for _, s := range b {
		count[s]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}

// checkRaw asserts a raw response's status and its body's __type and
// message (message "" means no message member at all), and the headers
// every DynamoDB response carries.
func checkRaw(t *testing.T, res testserver.Response, status int, typ, msg string) {
	t.Helper()
	checkHeaders(t, res)
	if res.Status != status {
		t.Fatalf("status %d, want %d; body %s", res.Status, status, res.Body)
	}
	var body map[string]any
	if err := json.Unmarshal(res.Body, &body); err != nil {
		t.Fatalf("body is not JSON: %q", res.Body)
	}
	if body["__type"] != typ {
		t.Fatalf("__type %v, want %s; body %s", body["__type"], typ, res.Body)
	}
	got, _ := body["message"].(string)
	if m, ok := body["Message"].(string); ok {
		got = m
	}
	if got != msg {
		t.Fatalf("message %q, want %q", got, msg)
	}
	want := 1
	if msg != "" {
		want = 2
	}
	if len(body) != want {
		t.Fatalf("unexpected members in %s", res.Body)
	}
}

// checkHeaders asserts x-amzn-RequestId and x-amz-crc32.
func checkHeaders(t *testing.T, res testserver.Response) {
	t.Helper()
	id := res.Header.Get("x-amzn-RequestId")
	if len(id) != 52 || strings.Trim(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" {
		t.Errorf("x-amzn-RequestId %q is not 52 upper-case letters and digits", id)
	}
	if got, want := res.Header.Get("x-amz-crc32"), strconv.FormatUint(uint64(crc32.ChecksumIEEE(res.Body)), 10); got != want {
		t.Errorf("x-amz-crc32 %q, want %q", got, want)
	}
}

// jsonEqual asserts that the JSON body equals want (compared as values).
func jsonEqual(t *testing.T, body []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(body, &g); err != nil {
		t.Fatalf("body is not JSON: %q", body)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want %q: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("body\n got %s\nwant %s", body, want)
	}
}

// deepEqual compares SDK values, reporting a readable diff.
func deepEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		t.Fatalf("%s:\n got %s\nwant %s", what, gj, wj)
	}
}

// render writes an attribute value in DynamoDB JSON, for failure messages.
func render(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return `{"S":` + strconv.Quote(v.Value) + `}`
	case *types.AttributeValueMemberN:
		return `{"N":` + strconv.Quote(v.Value) + `}`
	case *types.AttributeValueMemberB:
		return `{"B":` + strconv.Quote(string(v.Value)) + `}`
	case *types.AttributeValueMemberBOOL:
		return `{"BOOL":` + strconv.FormatBool(v.Value) + `}`
	case *types.AttributeValueMemberNULL:
		return `{"NULL":` + strconv.FormatBool(v.Value) + `}`
	case *types.AttributeValueMemberSS: // sets have no order
		return `{"SS":` + quoteAll(sorted(v.Value)) + `}`
	case *types.AttributeValueMemberNS:
		return `{"NS":` + quoteAll(sorted(v.Value)) + `}`
	case *types.AttributeValueMemberBS:
		var s []string
		for _, b := range v.Value {
			s = append(s, string(b))
		}
		return `{"BS":` + quoteAll(sorted(s)) + `}`
	case *types.AttributeValueMemberL:
		var s []string
		for _, e := range v.Value {
			s = append(s, render(e))
		}
		return `{"L":[` + strings.Join(s, ",") + `]}`
	case *types.AttributeValueMemberM:
		return `{"M":` + renderItem(v.Value) + `}`
	case nil:
		return "nil"
	}
	return "?"
}

func sorted(s []string) []string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return s
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, e := range s {
		q[i] = strconv.Quote(e)
	}
	return "[" + strings.Join(q, ",") + "]"
}

func renderItem(it item) string {
	if it == nil {
		return "null"
	}
	keys := make([]string, 0, len(it))
	for k := range it {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var s []string
	for _, k := range keys {
		s = append(s, strconv.Quote(k)+":"+render(it[k]))
	}
	return "{" + strings.Join(s, ",") + "}"
}

// itemEqual asserts two items are equal.
func itemEqual(t *testing.T, what string, got, want item) {
	t.Helper()
	if g, w := renderItem(got), renderItem(want); g != w {
		t.Fatalf("%s:\n got %s\nwant %s", what, g, w)
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
