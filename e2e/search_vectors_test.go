package e2e

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// SearchVectors' sources, cited by the cases below:
//   - dynoxide: nubo-db/dynoxide, branch feat/vector-indexes,
//     tests/search_vectors.rs, tests/http_server.rs and
//     src/actions/search_vectors.rs, whose texts are captured from
//     DynamoDB in eu-west-2 and us-east-1 (2026-08-11 to 2026-08-19);
//   - toolkit: aws/agent-toolkit-for-aws, skills/specialized-skills/
//     database-skills/amazon-dynamodb/references/vector-search.md, whose
//     error strings are "reproduced verbatim from the service";
//   - model: the service model (botocore's dynamodb 2012-08-10
//     service-2.json; aws-sdk-go-v2's service/dynamodb from v1.63.0).
//
// No table can have a vector index yet, so every search of an existing
// table is answered as DynamoDB answers a search of an index the table
// does not have.

// vecs is a query vector of numbers.
func vecs(ns ...string) []types.AttributeValue {
	out := []types.AttributeValue{}
	for _, n := range ns {
		out = append(out, N(n))
	}
	return out
}

func TestSearchVectorsErrors(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "vtab", types.ScalarAttributeTypeS)
	if _, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{
		TableName:            aws.String("vtab"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName:  aws.String("gsi"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}}},
	}); err != nil {
		t.Fatal(err)
	}
	const (
		constraints = "constraints" // wantConstraints: the request model's list
		validation  = "ValidationException"
		notFound    = "ResourceNotFoundException"
	)
	valid := func() *dynamodb.SearchVectorsInput {
		return &dynamodb.SearchVectorsInput{TableName: aws.String("vtab"), IndexName: aws.String("vix"),
			SearchVector: vecs("0.1", "0.2", "0.3"), TopK: aws.Int32(3)}
	}
	for _, tc := range []struct {
		name string
		edit func(in *dynamodb.SearchVectorsInput)
		code string
		msgs []string
	}{
		// dynoxide (http_server.rs and search_vectors.rs: "TopK 0
		// rejects at the request-model layer", captured 2026-08-11; the
		// text follows the model's other minimums).
		{"TopK 0", func(in *dynamodb.SearchVectorsInput) { in.TopK = aws.Int32(0) }, constraints,
			[]string{"Value '0' at 'topK' failed to satisfy constraint: Member must have value greater than or equal to 1"}},
		{"TopK negative", func(in *dynamodb.SearchVectorsInput) { in.TopK = aws.Int32(-4) }, constraints,
			[]string{"Value '-4' at 'topK' failed to satisfy constraint: Member must have value greater than or equal to 1"}},
		// dynoxide (captured 2026-08-13): no value echoed, the member named
		// with a capital.
		{"IndexName short", func(in *dynamodb.SearchVectorsInput) { in.IndexName = aws.String("ab") }, constraints,
			[]string{"Value at 'IndexName' failed to satisfy constraint: Member must have length greater than or equal to 3"}},
		{"IndexName empty", func(in *dynamodb.SearchVectorsInput) { in.IndexName = aws.String("") }, constraints,
			[]string{"Value at 'IndexName' failed to satisfy constraint: Member must have length greater than or equal to 3"}},
		// Not recorded: the model's maximum of 255, in the recorded form.
		{"IndexName long", func(in *dynamodb.SearchVectorsInput) { in.IndexName = aws.String(strings.Repeat("x", 256)) }, constraints,
			[]string{"Value at 'IndexName' failed to satisfy constraint: Member must have length less than or equal to 255"}},
		// dynoxide (captured 2026-08-13).
		{"SearchVector empty", func(in *dynamodb.SearchVectorsInput) { in.SearchVector = []types.AttributeValue{} }, constraints,
			[]string{"Value at 'SearchVector' failed to satisfy constraint: Member must have length greater than or equal to 1"}},
		// Not recorded: the model's maximum of 4096 elements, in the
		// recorded form.
		{"SearchVector long", func(in *dynamodb.SearchVectorsInput) {
			in.SearchVector = vecs(strings.Split(strings.Repeat("1,", 4097), ",")[:4097]...)
		}, constraints,
			[]string{"Value at 'SearchVector' failed to satisfy constraint: Member must have length less than or equal to 4096"}},
		// The enum as every operation words it (dynoxide's
		// search_vectors.rs asks the same shared check).
		{"ReturnConsumedCapacity", func(in *dynamodb.SearchVectorsInput) { in.ReturnConsumedCapacity = "INDEX" }, constraints,
			[]string{"Value 'INDEX' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"}},
		// The request model lists its violations together.
		{"two violations", func(in *dynamodb.SearchVectorsInput) { in.TopK = aws.Int32(0); in.IndexName = aws.String("ab") }, constraints,
			[]string{"Value at 'IndexName' failed to satisfy constraint: Member must have length greater than or equal to 3",
				"Value '0' at 'topK' failed to satisfy constraint: Member must have value greater than or equal to 1"}},
		// A missing table: the standard answer (dynoxide, which gives the
		// one every item operation gives).
		{"missing table", func(in *dynamodb.SearchVectorsInput) { in.TableName = aws.String("nosuch") }, notFound,
			[]string{"Requested resource not found"}},
		// A missing index (dynoxide and toolkit, captured: "The table does
		// not have the specified index: <index>").
		{"missing index", nil, validation, []string{"The table does not have the specified index: vix"}},
		{"missing index by table ARN", func(in *dynamodb.SearchVectorsInput) { in.TableName = aws.String(tableARN("vtab")) }, validation,
			[]string{"The table does not have the specified index: vix"}},
		// A global secondary index is no vector index (not recorded; the
		// same answer).
		{"GSI", func(in *dynamodb.SearchVectorsInput) { in.IndexName = aws.String("gsi") }, validation,
			[]string{"The table does not have the specified index: gsi"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := valid()
			if tc.edit != nil {
				tc.edit(in)
			}
			_, err := c.SearchVectors(bg(), in)
			if tc.code == constraints {
				wantConstraints(t, err, tc.msgs...)
				return
			}
			wantErr(t, err, tc.code, tc.msgs[0])
		})
	}
}

// recordingClient is an HTTP client that records each request's host
// and signature before sending it.
type recordingClient struct {
	mu    sync.Mutex
	hosts []string
	auth  []string
}

func (r *recordingClient) Do(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.hosts = append(r.hosts, req.URL.Host)
	r.auth = append(r.auth, req.Header.Get("Authorization"))
	r.mu.Unlock()
	return http.DefaultClient.Do(req)
}

// TestSearchVectorsEndpoint checks that a stock SDK client given the
// server's endpoint sends SearchVectors there, signed for dynamodb. On AWS
// the SDK sends SearchVectors to a host of its own (search-dynamodb.
// <region>...); with an endpoint set, the endpoint rules give that
// endpoint whatever the operation (model: endpoint-rule-set-1.json;
// aws-sdk-go-v2's TestEndpointCase281: Endpoint https://example.com with
// IsSearchOperation true gives https://example.com). The signing name is
// the service's, dynamodb (model: the search endpoints carry no auth
// scheme of their own).
func TestSearchVectorsEndpoint(t *testing.T) {
	needsWire(t)
	s, c := start(t)
	createHash(t, c, "vtab", types.ScalarAttributeTypeS)
	rec := &recordingClient{}
	stock := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(s.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("x", "x", ""),
		HTTPClient:   rec,
	})
	_, err := stock.SearchVectors(bg(), &dynamodb.SearchVectorsInput{TableName: aws.String("vtab"), IndexName: aws.String("vix"),
		SearchVector: vecs("1", "0"), TopK: aws.Int32(1)})
	wantValidation(t, err, "The table does not have the specified index: vix")
	want := strings.TrimPrefix(s.URL, "http://")
	if len(rec.hosts) != 1 || rec.hosts[0] != want {
		t.Fatalf("requests went to %v, want one to %s", rec.hosts, want)
	}
	if !strings.Contains(rec.auth[0], "/us-east-1/dynamodb/aws4_request") {
		t.Fatalf("Authorization %q is not signed for dynamodb", rec.auth[0])
	}
}

// TestSearchVectorsWire checks SearchVectors' answers to bodies no SDK
// sends.
func TestSearchVectorsWire(t *testing.T) {
	needsWire(t)
	s, c := start(t)
	createHash(t, c, "vtab", types.ScalarAttributeTypeS)
	for _, tc := range []struct {
		name, body, typ, msg string
	}{
		// dynoxide (http_server.rs, captured 2026-08-13): "invalid type:
		// floating point `3.5`, expected i32 at line 1 column"; the column
		// (where the number ends) is not recorded.
		{"fractional TopK", `{"TableName":"vtab","IndexName":"vix","SearchVector":[{"N":"1"}],"TopK":3.5}`,
			"com.amazon.coral.service#SerializationException", "invalid type: floating point `3.5`, expected i32 at line 1 column 75"},
		// A TopK of another JSON type, as for every Integer member.
		{"TopK string", `{"TableName":"vtab","IndexName":"vix","SearchVector":[{"N":"1"}],"TopK":"1"}`,
			"com.amazon.coral.service#SerializationException", "STRING_VALUE cannot be converted to Integer"},
		// The request model's checks, members absent (dynoxide's
		// wording, following the model's "must not be null").
		{"members absent", `{}`, "com.amazon.coral.validate#ValidationException",
			"4 validation errors detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null; " +
				"Value null at 'indexName' failed to satisfy constraint: Member must not be null; " +
				"Value null at 'searchVector' failed to satisfy constraint: Member must not be null; " +
				"Value null at 'topK' failed to satisfy constraint: Member must not be null"},
		// An L value where the bare list goes: boto3 refuses it before
		// sending (toolkit); the service's reader, as for any list member.
		{"L-wrapped vector", `{"TableName":"vtab","IndexName":"vix","SearchVector":{"L":[{"N":"1"}]},"TopK":1}`,
			"com.amazon.coral.service#SerializationException", "Start of structure or map found where not expected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRaw(t, s.Raw(t, "SearchVectors", tc.body), 400, tc.typ, tc.msg)
		})
	}
}
