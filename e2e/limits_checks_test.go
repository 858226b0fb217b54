package e2e

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// checkCase is one request and DynamoDB's answer to it: code "" is
// success, else the error code and its exact text.
type checkCase struct {
	name string
	call func() error
	code string
	msg  string
}

func runCheckCases(t *testing.T, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if tc.code == "" {
				if err != nil {
					t.Fatalf("got %v, want success", err)
				}
				return
			}
			wantErr(t, err, tc.code, tc.msg)
		})
	}
}

// Limits and checks DynamoDB applies that are easy to miss: the length of
// attribute names wherever a request names an attribute, NOT among the
// counted operators, an index key's type in updates, document paths
// into key attributes, a hash-only table's start key carrying other
// attributes, and DescribeStream's ShardFilter without its Type. Each case
// names its source.
func TestLimitsAndChecks(t *testing.T) {
	s, c := start(t)
	sc := s.StreamsAPI
	createHash(t, c, "lchash", types.ScalarAttributeTypeS)
	put(t, c, "lchash", item{"pk": S("a"), "x": N("1")})
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("lcidx"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S", "sk", "S", "d", "S"), KeySchema: ks("pk", "sk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byd"), KeySchema: ks("d"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	if err != nil {
		t.Fatal(err)
	}
	put(t, c, "lcidx", item{"pk": S("a"), "sk": S("b"), "d": S("x")})
	arn := createStreamTable(t, c, "lcstream", types.StreamViewTypeKeysOnly)
	shard := aws.ToString(describeAll(t, sc, arn).Shards[0].ShardId)

	condition := func(cond string) func() error {
		return func() error {
			_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("lchash"), Item: item{"pk": S("a"), "x": N("1")},
				ConditionExpression: aws.String(cond), ExpressionAttributeValues: item{":a": N("1")}})
			return err
		}
	}
	// comparisons returns n comparisons joined by OR.
	comparisons := func(n int) string { return strings.TrimSuffix(strings.Repeat("x = :a OR ", n), " OR ") }
	// PutItem wraps an expression's error as one violation.
	const tooManyOperators = "1 validation error detected: Invalid ConditionExpression: The expression contains too many operators; operator count: 301"

	long := strings.Repeat("n", 65535)
	tooLong := long + "n"
	put(t, c, "lchash", item{"pk": S("long"), long: N("1")})
	getItem := func(in dynamodb.GetItemInput) func() error {
		return func() error {
			in.TableName, in.Key = aws.String("lchash"), item{"pk": S("long")}
			out, err := c.GetItem(bg(), &in)
			if err == nil && len(out.Item) != 1 {
				t.Errorf("GetItem returned %d attributes, want 1", len(out.Item))
			}
			return err
		}
	}
	updateIf := func(name string) func() error {
		return func() error {
			_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("lchash"), Key: item{"pk": S("long")},
				UpdateExpression: aws.String("SET a = :v"), ConditionExpression: aws.String("#n = :v"),
				ExpressionAttributeNames: map[string]string{"#n": name}, ExpressionAttributeValues: item{":v": N("1")}})
			return err
		}
	}
	const nameTooLarge = "1 validation error detected: Attribute name is too large, must be less than 65536 bytes"

	update := func(key item, expr string, values item) func() error {
		return func() error {
			_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("lcidx"), Key: key,
				UpdateExpression: aws.String(expr), ExpressionAttributeValues: values})
			return err
		}
	}
	stored, missing := item{"pk": S("a"), "sk": S("b")}, item{"pk": S("none"), "sk": S("b")}
	const indexKeyType = "One or more parameter values were invalid: Type mismatch for Index Key d Expected: S Actual: N IndexName: byd"

	keyOf := func(kind, name string) string {
		return "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: " + kind + ": " + name
	}
	project := func(proj string, names map[string]string) func() error {
		return func() error {
			_, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("lcidx"), Key: stored,
				ProjectionExpression: aws.String(proj), ExpressionAttributeNames: names})
			return err
		}
	}
	scanFilter := func(filter string, names map[string]string) func() error {
		return func() error {
			_, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("lcidx"), FilterExpression: aws.String(filter),
				ExpressionAttributeNames: names})
			return err
		}
	}
	queryFilter := func(filter string) func() error {
		return func() error {
			_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("lcidx"), KeyConditionExpression: aws.String("pk = :a"),
				FilterExpression: aws.String(filter), ExpressionAttributeValues: item{":a": S("a"), ":b": N("1")}})
			return err
		}
	}
	putIf := func(cond string) func() error {
		return func() error {
			_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("lcidx"), Item: item{"pk": S("a"), "sk": S("b"), "d": S("x")},
				ConditionExpression: aws.String(cond)})
			return err
		}
	}

	describeStream := func(f *st.ShardFilter) func() error {
		return func() error {
			_, err := sc.DescribeStream(bg(), &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn), ShardFilter: f})
			return err
		}
	}

	runCheckCases(t, []checkCase{
		// NOT counts toward the 300 operators, as the change request
		// reports of DynamoDB (AWS's developer guide code example "Count
		// expression operators" counts NOT as one operator too); the text
		// is aws-sdk-js issue 3721's. 299 comparisons and a NOT are 300.
		{"NOT and 299 comparisons", condition("NOT " + comparisons(299)), "", ""},
		{"NOT and 300 comparisons", condition("NOT " + comparisons(300)), validation, tooManyOperators},
		{"two NOTs and 299 comparisons", condition("NOT NOT " + comparisons(299)), validation, tooManyOperators},
		{"NOT inside and 300 comparisons", condition(comparisons(299) + " OR NOT x = :a"), validation, tooManyOperators},

		// An attribute name of 65,535 bytes is accepted where an item's
		// attribute is named, 65,536 bytes refused, in a
		// ProjectionExpression, AttributesToGet and a ConditionExpression
		// (Alternator's test_limits.py, test_limit_attribute_length_
		// nonkey_good and _bad, run against DynamoDB, which pins a
		// ValidationException naming the limit; the text is DynamoDB's
		// for such a name in an item or an UpdateExpression, ExtendDB/
		// extenddb issue 365). Scan's projection, Query's filter and
		// the legacy Expected follow GetItem's projection and the
		// ConditionExpression (no recording of those).
		{"ProjectionExpression name of 65535 bytes", getItem(dynamodb.GetItemInput{ProjectionExpression: aws.String("#n"),
			ExpressionAttributeNames: map[string]string{"#n": long}}), "", ""},
		{"ProjectionExpression name of 65536 bytes", getItem(dynamodb.GetItemInput{ProjectionExpression: aws.String("#n"),
			ExpressionAttributeNames: map[string]string{"#n": tooLong}}), validation, nameTooLarge},
		{"AttributesToGet name of 65535 bytes", getItem(dynamodb.GetItemInput{AttributesToGet: []string{long}}), "", ""},
		{"AttributesToGet name of 65536 bytes", getItem(dynamodb.GetItemInput{AttributesToGet: []string{tooLong}}), validation, nameTooLarge},
		{"ConditionExpression name of 65535 bytes", updateIf(long), "", ""},
		{"ConditionExpression name of 65536 bytes", updateIf(tooLong), validation, nameTooLarge},
		{"Scan ProjectionExpression name of 65536 bytes", func() error {
			_, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("lchash"), ProjectionExpression: aws.String("#n"),
				ExpressionAttributeNames: map[string]string{"#n": tooLong}})
			return err
		}, validation, nameTooLarge},
		{"Query FilterExpression name of 65536 bytes", func() error {
			_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("lchash"), KeyConditionExpression: aws.String("pk = :a"),
				FilterExpression: aws.String("attribute_exists(#n)"), ExpressionAttributeNames: map[string]string{"#n": tooLong},
				ExpressionAttributeValues: item{":a": S("long")}})
			return err
		}, validation, nameTooLarge},
		{"Expected name of 65536 bytes", func() error {
			_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("lchash"), Item: item{"pk": S("long")},
				Expected: map[string]types.ExpectedAttributeValue{tooLong: {Exists: aws.Bool(false)}}})
			return err
		}, validation, nameTooLarge},

		// An update giving an index key a value of another type, where
		// the update alone decides the type: DynamoDB's text, before
		// the item's values are read (dynalite's updateItem.js, "should
		// return ValidationException if trying to update wrong type on
		// index", recorded against DynamoDB: "set e = c[1], c = a + :a"
		// and "add c :a" on an item that does not exist, and the legacy
		// PUT). "a + :a" of the string key a could only fail as an
		// operand; an ADD of a number to a stored string too.
		{"SET of a number", update(stored, "SET d = :n", item{":n": N("1")}), validation, indexKeyType},
		{"SET of a sum", update(missing, "SET d = pk + :n", item{":n": N("1")}), validation, indexKeyType},
		{"SET of a sum after a nested read", update(missing, "SET e = d[1], d = pk + :n", item{":n": N("1")}), validation, indexKeyType},
		{"ADD of a number to a string", update(stored, "ADD d :n", item{":n": N("1")}), validation, indexKeyType},
		{"legacy PUT of a number", func() error {
			_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("lcidx"), Key: missing,
				AttributeUpdates: map[string]types.AttributeValueUpdate{"d": {Value: N("1")}}})
			return err
		}, validation, indexKeyType},

		// A document path into a key attribute of the table (Key) or
		// of an index (IndexKey): key attributes are scalars. dynalite's
		// tests, recorded against DynamoDB: getItem.js ("should return
		// ValidationException for non-scalar key access" and "...
		// index access in ProjectionExpression"), scan.js ("should
		// return ValidationException for non-scalar key access"),
		// query.js ("... non-scalar index access in FilterExpression")
		// and updateItem.js ("should return ValidationException if
		// trying to update index map").
		{"projection of a.b.c of the partition key", project("#a.b.c", map[string]string{"#a": "pk"}), validation, keyOf("Key", "pk")},
		{"projection of a[0] of the partition key", project("#a[0]", map[string]string{"#a": "pk"}), validation, keyOf("Key", "pk")},
		{"projection of d.b.c of an index key", project("#d.b.c", map[string]string{"#d": "d"}), validation, keyOf("IndexKey", "d")},
		{"projection of d[0] of an index key", project("#d[0]", map[string]string{"#d": "d"}), validation, keyOf("IndexKey", "d")},
		// BatchGetItem's projection as GetItem's (no recording).
		{"BatchGetItem projection of d[0]", func() error {
			_, err := c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				"lcidx": {Keys: []item{stored}, ProjectionExpression: aws.String("d[0]")}}})
			return err
		}, validation, keyOf("IndexKey", "d")},
		{"Scan filter on pk.b.c", scanFilter("attribute_exists(pk.b.c)", nil), validation, keyOf("Key", "pk")},
		{"Scan filter on #a.b.c", scanFilter("attribute_exists(#a.b.c)", map[string]string{"#a": "pk"}), validation, keyOf("Key", "pk")},
		{"Scan filter on #a[0]", scanFilter("attribute_exists(#a[0])", map[string]string{"#a": "pk"}), validation, keyOf("Key", "pk")},
		{"Query filter on d.c", queryFilter("attribute_exists(d.c) AND x = :b"), validation, keyOf("IndexKey", "d")},
		{"Query filter on d[1]", queryFilter("d[1] = :b"), validation, keyOf("IndexKey", "d")},
		// A Query filter naming the queried key is refused as such
		// first (dynalite's query.js, "should return ValidationException
		// if range key in FilterExpression").
		{"Query filter on sk.c", queryFilter("attribute_exists(sk.c) AND x = :b"), validation,
			"Filter Expression can only contain non-primary key attributes: Primary key attribute: sk"},
		{"update ADD d.b", update(missing, "ADD d.b :n", item{":n": N("1")}), validation, keyOf("IndexKey", "d")},
		{"update SET d[1]", update(missing, "SET d[1] = :n", item{":n": N("1")}), validation, keyOf("IndexKey", "d")},
		{"update reading d[1]", update(missing, "SET e = list_append(x, y), f = d[1]", nil), validation, keyOf("IndexKey", "d")},
		// In a ConditionExpression, as the change request reports of
		// DynamoDB (no recording found).
		{"condition on d.b", putIf("attribute_exists(d.b)"), validation, keyOf("IndexKey", "d")},
		{"condition on sk[0]", putIf("attribute_not_exists(sk[0])"), validation, keyOf("Key", "sk")},
		{"condition on x.b", putIf("attribute_not_exists(x.b)"), "", ""},

		// A start key of a hash-only table holding an attribute besides
		// the key: dynalite's scan.js ("should return ValidationException
		// if ExclusiveStartKey does not match schema", the case
		// {a, b}) and query.js ("should return ValidationException if
		// ExclusiveStartKey is invalid", the same case), recorded against
		// DynamoDB.
		{"Scan start key with another attribute", func() error {
			_, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("lchash"), ExclusiveStartKey: item{"pk": S("a"), "x": N("1")}})
			return err
		}, validation, "The provided starting key is invalid: The provided key element does not match the schema"},
		{"Query start key with another attribute", func() error {
			_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("lchash"), KeyConditionExpression: aws.String("pk = :a"),
				ExpressionAttributeValues: item{":a": S("a")}, ExclusiveStartKey: item{"pk": S("a"), "x": N("1")}})
			return err
		}, validation, "The provided starting key is invalid"},

		// A ShardFilter without its Type is a ValidationException
		// (Alternator's test_streams.py,
		// test_stream_shard_filtering_missing_type, run against
		// DynamoDB); no recording of its text was found
		// (msgShardFilterNoType). A filter of neither member is refused
		// for its Type.
		{"ShardFilter without Type", describeStream(&st.ShardFilter{ShardId: aws.String(shard)}), validation,
			"ShardFilter.Type must be provided when ShardFilter is specified"},
		{"ShardFilter without Type or ShardId", describeStream(&st.ShardFilter{}), validation,
			"ShardFilter.Type must be provided when ShardFilter is specified"},
		{"ShardFilter of CHILD_SHARDS", describeStream(&st.ShardFilter{Type: st.ShardFilterTypeChildShards, ShardId: aws.String(shard)}), "", ""},
	})
}
