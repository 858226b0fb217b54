package e2e

import (
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The exact errors of Query and Scan for ExclusiveStartKey, Select, key
// conditions, Limit and parallel-scan segments. Sources, named per case:
// dynalite's tests (recorded against DynamoDB), DynamoDB Local's error
// table, ExtendDB's validation and index helpers (measured against
// DynamoDB in 2026), ScyllaDB Alternator's tests, and AWS's API
// reference.

// TestQueryErrorMessages covers Query, on the table and on indexes.
// Tables: "qhash" (pk S), "qrange" (pk S, sk N), and createIndexed's "idx".
func TestQueryErrorMessages(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "qhash", types.ScalarAttributeTypeS)
	createRange(t, c, "qrange", types.ScalarAttributeTypeN)
	createIndexed(t, c)

	pk := func(v string) item { return item{":p": S(v)} }
	for _, tc := range []struct {
		name string
		in   dynamodb.QueryInput
		msg  string
	}{
		// ExclusiveStartKey not exactly the key attributes: the short text
		// for every Query (ExtendDB's index helpers; dynalite's tests). A
		// key attribute of the wrong type is the bare key-schema text
		// (dynalite's test/query.js against DynamoDB, "if ExclusiveStartKey
		// does not match hash schema", "if hash in ExclusiveStartKey and
		// KeyConditions but range has incorrect schema").
		{"start key wrong type", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: pk("a"),
			ExclusiveStartKey: item{"pk": S("a"), "sk": S("1")}}, "The provided key element does not match the schema"},
		{"start key wrong partition type", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: pk("a"),
			ExclusiveStartKey: item{"pk": N("1"), "sk": N("1")}}, "The provided key element does not match the schema"},
		{"start key missing sort key", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: pk("a"),
			ExclusiveStartKey: item{"pk": S("a")}}, "The provided starting key is invalid"},
		{"start key extra attribute", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: pk("a"),
			ExclusiveStartKey: item{"pk": S("a"), "sk": N("1"), "x": S("y")}}, "The provided starting key is invalid"},
		{"start key sort key on hash table", dynamodb.QueryInput{TableName: aws.String("qhash"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: pk("a"),
			ExclusiveStartKey: item{"pk": S("a"), "sk": N("1")}}, "The provided starting key is invalid"},
		// On an index the start key is the index's key and the table's
		// (ExtendDB's index helpers; dynalite's tests).
		{"index start key without table key", dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byg"),
			KeyConditionExpression: aws.String("gpk = :p"), ExpressionAttributeValues: pk("g"),
			ExclusiveStartKey: item{"gpk": S("g"), "gsk": N("1")}}, "The provided starting key is invalid"},
		{"index start key without index key", dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byg"),
			KeyConditionExpression: aws.String("gpk = :p"), ExpressionAttributeValues: pk("g"),
			ExclusiveStartKey: item{"pk": S("p"), "sk": S("1")}}, "The provided starting key is invalid"},
		// An index key attribute of the wrong type: the bare key-schema
		// text (dynalite's test/query.js against DynamoDB, "if
		// ExclusiveStartKey does not match schema for global index").
		{"index start key wrong type", dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byg"),
			KeyConditionExpression: aws.String("gpk = :p"), ExpressionAttributeValues: pk("g"),
			ExclusiveStartKey: item{"gpk": S("g"), "gsk": S("1"), "pk": S("p"), "sk": S("1")}}, "The provided key element does not match the schema"},
		// A well-shaped start key the condition excludes (dynalite's
		// tests; aws-sdk-js issue 3283).
		{"start key other partition", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: pk("a"),
			ExclusiveStartKey: item{"pk": S("b"), "sk": N("1")}}, "The provided starting key is outside query boundaries based on provided conditions"},
		{"start key outside range", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk = :p AND sk > :s"),
			ExpressionAttributeValues: item{":p": S("a"), ":s": N("5")}, ExclusiveStartKey: item{"pk": S("a"), "sk": N("1")}},
			"The provided starting key does not match the range key predicate"},
		// Select on a table (dynalite's tests; ExtendDB's validation for
		// the order and for the prefix a Query's projection refusal has).
		{"all projected on table", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: pk("a"),
			Select: types.SelectAllProjectedAttributes}, "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"},
		{"all projected with projection on table", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: pk("a"),
			Select: types.SelectAllProjectedAttributes, ProjectionExpression: aws.String("x")},
			"1 validation error detected: Cannot specify the ProjectionExpression when choosing to get ALL_PROJECTED_ATTRIBUTES"},
		{"specific without projection", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: pk("a"),
			Select: types.SelectSpecificAttributes}, "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"},
		{"count with projection", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: pk("a"),
			Select: types.SelectCount, ProjectionExpression: aws.String("x")},
			"1 validation error detected: Cannot specify the ProjectionExpression when choosing to get only the Count"},
		// "only the Count" for AttributesToGet too: DynamoDB Local's error
		// table.
		{"count with attributes to get", dynamodb.QueryInput{TableName: aws.String("qrange"),
			KeyConditions: map[string]types.Condition{"pk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{S("a")}}},
			Select:        types.SelectCount, AttributesToGet: []string{"x"}},
			"Cannot specify the AttributesToGet when choosing to get only the Count"},
		// Select on indexes: ALL_ATTRIBUTES on a GSI that does not project
		// everything (dynalite's tests; ExtendDB's validation).
		{"all attributes on include gsi", dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byg"),
			KeyConditionExpression: aws.String("gpk = :p"), ExpressionAttributeValues: pk("g"), Select: types.SelectAllAttributes},
			"One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index byg because its projection type is not ALL"},
		{"count with projection on index", dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byg"),
			KeyConditionExpression: aws.String("gpk = :p"), ExpressionAttributeValues: pk("g"), Select: types.SelectCount, ProjectionExpression: aws.String("a")},
			"1 validation error detected: Cannot specify the ProjectionExpression when choosing to get only the Count"},
		// Key conditions (dynalite's tests; the one-condition-per-key text
		// as recorded against DynamoDB in 2026).
		{"condition on non-key attribute only", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("x = :p"), ExpressionAttributeValues: pk("a")},
			"Query condition missed key schema element: pk"},
		{"condition on sort key only", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("sk = :s"), ExpressionAttributeValues: item{":s": N("1")}},
			"Query condition missed key schema element: pk"},
		{"partition key and non-key attribute", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk = :p AND x = :x"),
			ExpressionAttributeValues: item{":p": S("a"), ":x": S("b")}}, "Query condition missed key schema element: sk"},
		{"two conditions on one key", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk = :p AND pk = :q"),
			ExpressionAttributeValues: item{":p": S("a"), ":q": S("b")}},
			"Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key"},
		{"range condition on partition key", dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk > :p"), ExpressionAttributeValues: pk("a")},
			"Query key condition not supported"},
		{"legacy condition on non-key attribute", dynamodb.QueryInput{TableName: aws.String("qhash"),
			KeyConditions: map[string]types.Condition{
				"pk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{S("a")}},
				"x":  {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{S("b")}},
			}}, "Query key condition not supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Query(bg(), &tc.in)
			wantValidation(t, err, tc.msg)
		})
	}

	// Limit below 1 breaks the member constraint (API reference, Query:
	// "Minimum value of 1"), named without its value: paritysuite's
	// tests/tier3/error-messages/query.test.ts, "Limit of 0" (2026-04-25),
	// newer than dynalite's "Value '0' at 'limit'".
	for _, n := range []int32{0, -5} {
		_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("qrange"), KeyConditionExpression: aws.String("pk = :p"),
			ExpressionAttributeValues: pk("a"), Limit: aws.Int32(n)})
		wantConstraints(t, err, "Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
	}
}

// TestScanErrorMessages covers Scan's start keys, segments and Select.
func TestScanErrorMessages(t *testing.T) {
	_, c := start(t)
	createRange(t, c, "srange", types.ScalarAttributeTypeN)
	createIndexed(t, c)
	for i := range 20 {
		put(t, c, "srange", item{"pk": S("p" + strconv.Itoa(i)), "sk": N("1")})
	}
	// A start key outside the segment: find one whose segment (of 4) is
	// not 0, by scanning segment 1.
	out, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("srange"), Segment: aws.Int32(1), TotalSegments: aws.Int32(4)})
	if err != nil || len(out.Items) == 0 {
		t.Fatalf("Scan segment 1: %v, %d items", err, len(out.Items))
	}
	inSegment1 := item{"pk": out.Items[0]["pk"], "sk": out.Items[0]["sk"]}

	for _, tc := range []struct {
		name string
		in   dynamodb.ScanInput
		msg  string
	}{
		// A table's Scan has the long text, an index's the short one
		// (ExtendDB's index helpers, 2026; dynalite's tests).
		{"start key missing sort key", dynamodb.ScanInput{TableName: aws.String("srange"), ExclusiveStartKey: item{"pk": S("a")}},
			"The provided starting key is invalid: The provided key element does not match the schema"},
		{"start key wrong type", dynamodb.ScanInput{TableName: aws.String("srange"), ExclusiveStartKey: item{"pk": S("a"), "sk": S("1")}},
			"The provided starting key is invalid: The provided key element does not match the schema"},
		{"start key extra attribute", dynamodb.ScanInput{TableName: aws.String("srange"), ExclusiveStartKey: item{"pk": S("a"), "sk": N("1"), "x": S("y")}},
			"The provided starting key is invalid: The provided key element does not match the schema"},
		{"index start key without table key", dynamodb.ScanInput{TableName: aws.String("idx"), IndexName: aws.String("byg"),
			ExclusiveStartKey: item{"gpk": S("g"), "gsk": N("1")}}, "The provided starting key is invalid"},
		{"index start key wrong type", dynamodb.ScanInput{TableName: aws.String("idx"), IndexName: aws.String("byg"),
			ExclusiveStartKey: item{"gpk": S("g"), "gsk": S("1"), "pk": S("p"), "sk": S("1")}}, "The provided starting key is invalid"},
		// Parallel scans (dynalite's tests; the wrong-segment text as
		// DynamoDB gives it, scylladb/scylladb pull request 9270).
		{"segment without total", dynamodb.ScanInput{TableName: aws.String("srange"), Segment: aws.Int32(0)},
			"The TotalSegments parameter is required but was not present in the request when Segment parameter is present"},
		{"total without segment", dynamodb.ScanInput{TableName: aws.String("srange"), TotalSegments: aws.Int32(2)},
			"The Segment parameter is required but was not present in the request when parameter TotalSegments is present"},
		{"segment not below total", dynamodb.ScanInput{TableName: aws.String("srange"), Segment: aws.Int32(2), TotalSegments: aws.Int32(2)},
			"The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 2 is not less than TotalSegments: 2"},
		{"start key in another segment", dynamodb.ScanInput{TableName: aws.String("srange"), Segment: aws.Int32(0), TotalSegments: aws.Int32(4), ExclusiveStartKey: inSegment1},
			"The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: 4 Segment: 0"},
		// Select (dynalite's tests; ExtendDB's validation: no prefix on a
		// Scan's projection refusal).
		{"all projected on table", dynamodb.ScanInput{TableName: aws.String("srange"), Select: types.SelectAllProjectedAttributes},
			"ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"},
		{"count with projection", dynamodb.ScanInput{TableName: aws.String("srange"), Select: types.SelectCount, ProjectionExpression: aws.String("x")},
			"Cannot specify the ProjectionExpression when choosing to get only the Count"},
		{"all attributes on include gsi", dynamodb.ScanInput{TableName: aws.String("idx"), IndexName: aws.String("byg"), Select: types.SelectAllAttributes},
			"One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index byg because its projection type is not ALL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Scan(bg(), &tc.in)
			wantValidation(t, err, tc.msg)
		})
	}

	// Segment and TotalSegments ranges, and Limit (API reference, Scan).
	_, err = c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("srange"), Segment: aws.Int32(-1), TotalSegments: aws.Int32(0), Limit: aws.Int32(0)})
	wantConstraints(t, err,
		"Value '-1' at 'segment' failed to satisfy constraint: Member must have value greater than or equal to 0",
		"Value '0' at 'totalSegments' failed to satisfy constraint: Member must have value greater than or equal to 1",
		"Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
}
