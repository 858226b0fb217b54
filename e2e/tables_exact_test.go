package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// The table operations to the letter: DeleteTable's description,
// UpdateTable that changes nothing, CreateTable's attribute definitions,
// and the tag operations.
//
// "The lab" below is the DynamoDB lab of the ack-api-quirks project,
// whose findings were captured against DynamoDB in us-east-1 and
// us-west-2 on 2026-10-08/09 (finding numbers DDB-TABLE-nnn);
// "Alternator" is ScyllaDB's test/alternator, run against DynamoDB.

// TestDeleteTableDescriptionExact: DeleteTable's description leaves out
// the key schema, attribute definitions, creation time and indexes
// (Alternator test_table.py: test_delete_table_description, _missing_fields
// and _with_si), and keeps the name, ARN, id, counts, the on-demand
// billing summary and a 0/0 throughput. No recording shows a deleted
// table with a stream; chose to keep StreamSpecification.
func TestDeleteTableDescriptionExact(t *testing.T) {
	_, c := startFixed(t)
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:            aws.String("doomed"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: defs("p", "S", "c", "S", "x", "S"),
		KeySchema:            ks("p", "c"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("hello"),
			KeySchema:  ks("x"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("hithere"),
			KeySchema:  ks("p", "x"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly},
	})
	if err != nil {
		t.Fatal(err)
	}
	put(t, c, "doomed", item{"p": S("a"), "c": S("1"), "x": S("x")})
	put(t, c, "doomed", item{"p": S("b"), "c": S("1")})
	before := describe(t, c, "doomed")
	out, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("doomed")})
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "DeleteTable description", out.TableDescription, &types.TableDescription{
		TableName:      aws.String("doomed"),
		TableStatus:    types.TableStatusDeleting,
		TableArn:       aws.String(tableARN("doomed")),
		TableId:        before.TableId,
		ItemCount:      aws.Int64(2),
		TableSizeBytes: before.TableSizeBytes,
		BillingModeSummary: &types.BillingModeSummary{BillingMode: types.BillingModePayPerRequest,
			LastUpdateToPayPerRequestDateTime: aws.Time(fixedNow)},
		ProvisionedThroughput: &types.ProvisionedThroughputDescription{NumberOfDecreasesToday: aws.Int64(0),
			ReadCapacityUnits: aws.Int64(0), WriteCapacityUnits: aws.Int64(0)},
		DeletionProtectionEnabled: aws.Bool(false),
		StreamSpecification:       before.StreamSpecification,
		LatestStreamArn:           before.LatestStreamArn,
		LatestStreamLabel:         before.LatestStreamLabel,
	})
}

func TestUpdateTableNoChangeExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "ondemand", types.ScalarAttributeTypeS)
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:             aws.String("prov"),
		AttributeDefinitions:  defs("pk", "S"),
		KeySchema:             ks("pk"),
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(6)},
	})
	if err != nil {
		t.Fatal(err)
	}
	const nothing = "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is required"
	const unchanged = "The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: 5. Requested ReadCapacityUnits: 5. Current WriteCapacityUnits provisioned for the table: 6. Requested WriteCapacityUnits: 6. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits."
	same := &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(6)}
	for _, tc := range []struct {
		name string
		in   dynamodb.UpdateTableInput
		msg  string
	}{
		// The lab, DDB-TABLE-015 and -442 (both regions): no updatable
		// member, an empty GlobalSecondaryIndexUpdates, or only
		// AttributeDefinitions.
		{"no member", dynamodb.UpdateTableInput{TableName: aws.String("ondemand")}, nothing},
		{"empty index updates", dynamodb.UpdateTableInput{TableName: aws.String("ondemand"),
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{}}, nothing},
		{"attribute definitions only", dynamodb.UpdateTableInput{TableName: aws.String("ondemand"),
			AttributeDefinitions: defs("pk", "S")}, nothing},
		// Dynalite's updateTable test against DynamoDB and the lab
		// (DDB-TABLE-164, -442): the same throughput again, also with
		// BillingMode PROVISIONED.
		{"same throughput", dynamodb.UpdateTableInput{TableName: aws.String("prov"), ProvisionedThroughput: same}, unchanged},
		{"PROVISIONED to PROVISIONED, same throughput", dynamodb.UpdateTableInput{TableName: aws.String("prov"),
			BillingMode: types.BillingModeProvisioned, ProvisionedThroughput: same}, unchanged},
		// The lab, DDB-TABLE-442, answered live on 2026-10-09.
		{"disable no stream", dynamodb.UpdateTableInput{TableName: aws.String("prov"),
			StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}}, "Table has no stream to disable: TableName: prov"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.UpdateTable(bg(), &tc.in)
			wantValidation(t, err, tc.msg)
		})
	}
}

func TestCreateTableDefinitionsExact(t *testing.T) {
	_, c := start(t)
	ad := func(kv ...string) []types.AttributeDefinition {
		var out []types.AttributeDefinition
		for i := 0; i < len(kv); i += 2 {
			out = append(out, types.AttributeDefinition{AttributeName: aws.String(kv[i]), AttributeType: types.ScalarAttributeType(kv[i+1])})
		}
		return out
	}
	ks := func(names ...string) []types.KeySchemaElement {
		out := []types.KeySchemaElement{{AttributeName: aws.String(names[0]), KeyType: types.KeyTypeHash}}
		if len(names) > 1 {
			out = append(out, types.KeySchemaElement{AttributeName: aws.String(names[1]), KeyType: types.KeyTypeRange})
		}
		return out
	}
	gsi := []types.GlobalSecondaryIndex{{IndexName: aws.String("bya"), KeySchema: ks("a"),
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}
	for _, tc := range []struct {
		name string
		in   dynamodb.CreateTableInput
		msg  string
	}{
		// The lab, DDB-TABLE-127: a name defined twice, whatever the
		// types.
		{"duplicate definition", dynamodb.CreateTableInput{AttributeDefinitions: ad("pk", "S", "pk", "N"), KeySchema: ks("pk")},
			"Attribute Name is duplicated: pk"},
		// The lab, DDB-TABLE-127: an unused definition, without indexes
		// and with them; the second reproduces the recorded answer to
		// the letter (definitions in request order, keys in the order
		// DynamoDB's hash set gives them).
		{"unused definition", dynamodb.CreateTableInput{AttributeDefinitions: ad("pk", "S", "extra", "S"), KeySchema: ks("pk")},
			"One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions"},
		{"unused definition with index", dynamodb.CreateTableInput{AttributeDefinitions: ad("sk", "S", "a", "S", "b", "S", "pk", "S", "c", "S"),
			KeySchema: ks("pk", "sk"), GlobalSecondaryIndexes: gsi},
			"One or more parameter values were invalid: Some AttributeDefinitions are not used. AttributeDefinitions: [sk, a, b, pk, c], keys used: [a, sk, pk]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.TableName = aws.String("defs")
			tc.in.BillingMode = types.BillingModePayPerRequest
			_, err := c.CreateTable(bg(), &tc.in)
			wantValidation(t, err, tc.msg)
		})
	}
}

func TestTagsExact(t *testing.T) {
	s, c := start(t)
	createHash(t, c, "tagx", types.ScalarAttributeTypeS)
	arn := tableARN("tagx")
	tag := func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} }
	tagResource := func(tags ...types.Tag) error {
		_, err := c.TagResource(bg(), &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: tags})
		return err
	}
	many := func(prefix string, n int) []types.Tag {
		out := make([]types.Tag, n)
		for i := range out {
			out[i] = tag(fmt.Sprintf("%s%02d", prefix, i), "v")
		}
		return out
	}

	for _, tc := range []struct {
		name string
		tags []types.Tag
		msg  string // "" when accepted
	}{
		// The lab, DDB-TABLE-107: lengths, an empty key, an empty list;
		// Alternator test_tag.py agrees on which are refused.
		{"no tags", []types.Tag{}, "Atleast one Tag needs to be provided as Input."},
		{"key of 128", []types.Tag{tag(strings.Repeat("k", 128), "v")}, ""},
		{"key of 129", []types.Tag{tag(strings.Repeat("k", 129), "v")}, "The Tag Key provided is invalid, Key: " + strings.Repeat("k", 129)},
		{"value of 256", []types.Tag{tag("k256", strings.Repeat("v", 256))}, ""},
		{"value of 257", []types.Tag{tag("k257", strings.Repeat("v", 257))}, "The Tag Value provided is invalid, Value: " + strings.Repeat("v", 257)},
		{"empty key", []types.Tag{tag("", "dog")}, "The Tag Key provided is invalid, Key: "},
		// Alternator test_empty_tag_value; the lab, DDB-TABLE-106.
		{"empty value", []types.Tag{tag("empty", "")}, ""},
		// The lab, DDB-TABLE-106 and -372; Alternator
		// test_tag_forbidden_chars refuses the same.
		{"hash in key", []types.Tag{tag("bad#char", "x")}, "The Tag Key provided is invalid, Key: bad#char"},
		{"percent in value", []types.Tag{tag("dog", "d%g")}, "The Tag Value provided is invalid, Value: d%g"},
		{"comma in value", []types.Tag{tag("dog", "a,b")}, "The Tag Value provided is invalid, Value: a,b"},
		{"quotes in key", []types.Tag{tag(`"hello"`, "x")}, `The Tag Key provided is invalid, Key: "hello"`},
		{"allowed punctuation and letters", []types.Tag{tag("ключ café 表", "a+b-c=d.e_f:g/h@i\u00a0j")}, ""},
		// The lab, DDB-TABLE-105: the aws: prefix in any case.
		{"aws prefix", []types.Tag{tag("aws:foo", "x")}, "Tag Key cannot be prefixed with aws:, Key: aws:foo"},
		{"AWS prefix", []types.Tag{tag("AWS:foo", "x")}, "Tag Key cannot be prefixed with aws:, Key: AWS:foo"},
		{"myaws prefix", []types.Tag{tag("myaws:foo", "x")}, ""},
		// The lab, DDB-TABLE-107: a key twice in one request.
		{"duplicate keys", []types.Tag{tag("dup", "1"), tag("dup", "2")}, "Duplicate Tag Keys provided as input: Duplicate Tag Key found dup"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tagResource(tc.tags...)
			if tc.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantValidation(t, err, tc.msg)
		})
	}

	t.Run("limit after merge", func(t *testing.T) {
		// The lab, DDB-TABLE-108: 50 tags at most, counted on the merged
		// set, a ValidationException; Alternator test_tag_resource_incorrect
		// refuses the 51st with a ValidationException too.
		if _, err := c.UntagResource(bg(), &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn),
			TagKeys: []string{strings.Repeat("k", 128), "k256", "empty", "ключ café 表", "myaws:foo"}}); err != nil {
			t.Fatal(err)
		}
		if err := tagResource(many("t", 40)...); err != nil {
			t.Fatal(err)
		}
		if err := tagResource(many("t", 50)...); err != nil {
			t.Fatal(err)
		}
		wantValidation(t, tagResource(append(many("t", 1), tag("t50", "v"))...), "Number of Tags exceed the current limit for the provided ResourceArn")
		out, err := c.ListTagsOfResource(bg(), &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn)})
		if err != nil || len(out.Tags) != 50 {
			t.Fatalf("%d tags, %v", len(out.Tags), err)
		}
	})

	t.Run("untag", func(t *testing.T) {
		untag := func(keys ...string) error {
			_, err := c.UntagResource(bg(), &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: keys})
			return err
		}
		// The lab, DDB-TABLE-105 and -107.
		wantValidation(t, untag([]string{}...), "Atleast one Tag Key needs to be provided as Input.")
		wantValidation(t, untag(""), "The Tag Key provided is invalid, Key: ")
		wantValidation(t, untag(strings.Repeat("k", 129)), "The Tag Key provided is invalid, Key: "+strings.Repeat("k", 129))
		wantValidation(t, untag("aws:foo"), "Tag Key cannot be prefixed with aws:, Key: aws:foo")
		keys := make([]string, 51)
		for i := range keys {
			keys[i] = fmt.Sprint("absent", i)
		}
		wantValidation(t, untag(keys...), "Number of Tags exceed the current limit for the provided ResourceArn")
		if err := untag("absent", "t00"); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("missing members", func(t *testing.T) {
		// The lab, DDB-TABLE-107 and -457: a Tag without Value, and one
		// without Key (the SDK refuses to send either).
		for _, tc := range []struct{ body, msg string }{
			{`{"ResourceArn":"` + arn + `","Tags":[{"Key":"dog"}]}`, "The Tag Value provided is invalid, Value: null"},
			{`{"ResourceArn":"` + arn + `","Tags":[{"Value":"dog"}]}`, "The Tag Key provided is invalid, Key: null"},
		} {
			res := s.Raw(t, "TagResource", tc.body)
			want := `{"__type":"com.amazon.coral.validate#ValidationException","message":"` + tc.msg + `"}`
			if res.Status != 400 || string(res.Body) != want {
				t.Fatalf("%d %s\nwant %s", res.Status, res.Body, want)
			}
		}
	})

	t.Run("create table", func(t *testing.T) {
		create := func(name string, tags []types.Tag) error {
			_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
				TableName:            aws.String(name),
				BillingMode:          types.BillingModePayPerRequest,
				AttributeDefinitions: defs("p", "S"),
				KeySchema:            ks("p"),
				Tags:                 tags,
			})
			return err
		}
		// Alternator test_too_long_tags_from_creation and the lab: more
		// than 50 tags are a ValidationException and no table is made;
		// an empty list is accepted; the tag rules are TagResource's.
		wantValidation(t, create("toomany", many("t", 51)), "Number of Tags exceed the current limit for the provided ResourceArn")
		wantValidation(t, create("badkey", []types.Tag{tag("bad#char", "x")}), "The Tag Key provided is invalid, Key: bad#char")
		_, err := c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("toomany")})
		wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Table: toomany not found")
		if err := create("notags", []types.Tag{}); err != nil {
			t.Fatal(err)
		}
		if err := create("fifty", many("t", 50)); err != nil {
			t.Fatal(err)
		}
	})
}

// TestTagARNsExact: the answers of the three tag operations to a
// ResourceArn that names no table here.
func TestTagARNsExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "arnt", types.ScalarAttributeTypeS)
	arn := tableARN("arnt")
	other := func(region, account string) string {
		return "arn:aws:dynamodb:" + region + ":" + account + ":table/arnt"
	}
	for _, tc := range []struct {
		name, arn, code, msg string
	}{
		// Alternator test_tag_resource_incorrect (newer DynamoDB answers
		// "ARNs must start with 'arn:'") and the lab, DDB-TABLE-071,
		// which has the whole text, also for a bare table name.
		{"not an ARN", "I_do_not_exist", "ValidationException", "One or more parameter values were invalid: ARNs must start with 'arn:': I_do_not_exist"},
		{"bare table name", "arnt", "ValidationException", "One or more parameter values were invalid: ARNs must start with 'arn:': arnt"},
		// Alternator test_tag_lsi_gsi (its newest recording, 2026) and
		// the lab's catalogue: an index's ARN.
		{"index ARN", arn + "/index/gsi", "ValidationException", "One or more parameter values were invalid: Invalid resource arn provided, only table or stream is accepted. Provided resource arn: " + arn + "/index/gsi"},
		// The lab, DDB-BACKUP-013: a backup's ARN.
		{"backup ARN", arn + "/backup/01700000000000-abcdef01", "ValidationException", "One or more parameter values were invalid: Provided Arn is not a DynamoDB resource arn: " + arn + "/backup/01700000000000-abcdef01"},
		// No recording of this text for a malformed ARN (Alternator
		// only checks for an error); chose the not-a-DynamoDB-ARN one.
		{"malformed ARN", "arn:not/a/good/format", "ValidationException", "One or more parameter values were invalid: Provided Arn is not a DynamoDB resource arn: arn:not/a/good/format"},
		// The lab, DDB-TABLE-071 and the catalogue: another region's
		// ARN, another account's.
		{"other region", other("eu-north-1", testserver.AccountID), "ValidationException", "Invalid TableArn: Invalid ResourceArn provided as input " + other("eu-north-1", testserver.AccountID)},
		{"other account", other(testserver.Region, "999999999999"), "AccessDeniedException", "Access is denied"},
		// Alternator test_tag_resource_subtly_incorrect_arn and the lab,
		// DDB-TABLE-070: a well-formed ARN of no table.
		{"no such table", arn + "x", "ResourceNotFoundException", "Requested resource not found: ResourceArn: " + arn + "x not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.ListTagsOfResource(bg(), &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(tc.arn)})
			wantErr(t, err, tc.code, tc.msg)
			_, err = c.TagResource(bg(), &dynamodb.TagResourceInput{ResourceArn: aws.String(tc.arn), Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}})
			wantErr(t, err, tc.code, tc.msg)
			_, err = c.UntagResource(bg(), &dynamodb.UntagResourceInput{ResourceArn: aws.String(tc.arn), TagKeys: []string{"k"}})
			wantErr(t, err, tc.code, tc.msg)
		})
	}
}
