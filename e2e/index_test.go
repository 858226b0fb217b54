package e2e

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// Secondary indexes end to end: definitions, maintenance, reads, bills.

func ks(hash string, rng ...string) []types.KeySchemaElement {
	k := []types.KeySchemaElement{{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash}}
	for _, r := range rng {
		k = append(k, types.KeySchemaElement{AttributeName: aws.String(r), KeyType: types.KeyTypeRange})
	}
	return k
}

func defs(nameType ...string) []types.AttributeDefinition {
	var d []types.AttributeDefinition
	for i := 0; i+1 < len(nameType); i += 2 {
		d = append(d, types.AttributeDefinition{AttributeName: aws.String(nameType[i]), AttributeType: types.ScalarAttributeType(nameType[i+1])})
	}
	return d
}

// createIndexed creates table "idx": pk S, sk S; LSI "bylsk" on lsk N
// (KEYS_ONLY); GSI "byg" on gpk S / gsk N (INCLUDE a); GSI "sparse" on
// tag S (ALL).
func createIndexed(t *testing.T, c local.API) *types.TableDescription {
	t.Helper()
	out, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:            aws.String("idx"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S", "sk", "S", "lsk", "N", "gpk", "S", "gsk", "N", "tag", "S"),
		KeySchema:            ks("pk", "sk"),
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{
			IndexName: aws.String("bylsk"), KeySchema: ks("pk", "lsk"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: aws.String("byg"), KeySchema: ks("gpk", "gsk"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"a"}},
		}, {
			IndexName: aws.String("sparse"), KeySchema: ks("tag"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	return out.TableDescription
}

func queryIndex(t *testing.T, c local.API, in *dynamodb.QueryInput) *dynamodb.QueryOutput {
	t.Helper()
	out, err := c.Query(bg(), in)
	if err != nil {
		t.Fatalf("Query: %v", err)
	}
	return out
}

func sks(items []item, name string) []string {
	var s []string
	for _, it := range items {
		switch v := it[name].(type) {
		case *types.AttributeValueMemberS:
			s = append(s, v.Value)
		case *types.AttributeValueMemberN:
			s = append(s, v.Value)
		default:
			s = append(s, "?")
		}
	}
	return s
}

func TestIndexDescribe(t *testing.T) {
	_, c := start(t)
	d := createIndexed(t, c)
	if len(d.LocalSecondaryIndexes) != 1 || len(d.GlobalSecondaryIndexes) != 2 {
		t.Fatalf("indexes: %+v %+v", d.LocalSecondaryIndexes, d.GlobalSecondaryIndexes)
	}
	l := d.LocalSecondaryIndexes[0]
	if *l.IndexName != "bylsk" || *l.IndexArn != tableARN("idx")+"/index/bylsk" || l.Projection.ProjectionType != types.ProjectionTypeKeysOnly {
		t.Fatalf("LSI: %+v", l)
	}
	put(t, c, "idx", item{"pk": S("p"), "sk": S("1"), "gpk": S("g"), "gsk": N("5"), "a": S("x"), "b": S("y")})
	put(t, c, "idx", item{"pk": S("p"), "sk": S("2"), "tag": S("t")})
	d = describe(t, c, "idx")
	for _, g := range d.GlobalSecondaryIndexes {
		if g.IndexStatus != types.IndexStatusActive || g.Backfilling != nil || *g.IndexArn != tableARN("idx")+"/index/"+*g.IndexName {
			t.Fatalf("GSI: %+v", g)
		}
		if *g.ItemCount != 1 || *g.IndexSizeBytes <= 0 {
			t.Fatalf("GSI %s counts: %d items, %d bytes", *g.IndexName, *g.ItemCount, *g.IndexSizeBytes)
		}
		if *g.IndexName == "byg" && !reflect.DeepEqual(g.Projection.NonKeyAttributes, []string{"a"}) {
			t.Fatalf("projection %+v", g.Projection)
		}
	}
	if *d.LocalSecondaryIndexes[0].ItemCount != 0 {
		t.Fatalf("LSI count %d", *d.LocalSecondaryIndexes[0].ItemCount)
	}
}

func TestIndexCreateTableErrors(t *testing.T) {
	_, c := start(t)
	gsi := func(name string, k []types.KeySchemaElement, p types.ProjectionType, nk ...string) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: k, Projection: &types.Projection{ProjectionType: p, NonKeyAttributes: nk}}
	}
	base := func() *dynamodb.CreateTableInput {
		return &dynamodb.CreateTableInput{TableName: aws.String("bad"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs("pk", "S", "g", "S"), KeySchema: ks("pk")}
	}
	cases := []struct {
		name string
		edit func(in *dynamodb.CreateTableInput)
		msg  string
	}{
		{"undefined", func(in *dynamodb.CreateTableInput) {
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("gsi", ks("zz"), types.ProjectionTypeAll)}
		}, "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [zz], AttributeDefinitions: [pk, g]"},
		// With indexes DynamoDB names the unused definitions (the
		// ack-api-quirks lab, DDB-TABLE-127, 2026-10-08).
		{"unused", func(in *dynamodb.CreateTableInput) {
			in.AttributeDefinitions = defs("pk", "S", "g", "S", "h", "S")
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("gsi", ks("g"), types.ProjectionTypeAll)}
		}, "One or more parameter values were invalid: Some AttributeDefinitions are not used. AttributeDefinitions: [pk, g, h], keys used: [g, pk]"},
		{"duplicate", func(in *dynamodb.CreateTableInput) {
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("gsi", ks("g"), types.ProjectionTypeAll), gsi("gsi", ks("g"), types.ProjectionTypeKeysOnly)}
		}, "One or more parameter values were invalid: Duplicate index name: gsi"},
		{"include without attributes", func(in *dynamodb.CreateTableInput) {
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("gsi", ks("g"), types.ProjectionTypeInclude)}
		}, "One or more parameter values were invalid: ProjectionType is INCLUDE, but NonKeyAttributes is not specified"},
		{"attributes without include", func(in *dynamodb.CreateTableInput) {
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("gsi", ks("g"), types.ProjectionTypeAll, "x")}
		}, "One or more parameter values were invalid: ProjectionType is ALL, but NonKeyAttributes is specified"},
		{"LSI on hash-only table", func(in *dynamodb.CreateTableInput) {
			in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"), KeySchema: ks("pk", "g"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}
		}, "One or more parameter values were invalid: Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex"},
		{"LSI without sort key", func(in *dynamodb.CreateTableInput) {
			in.AttributeDefinitions = defs("pk", "S", "sk", "S", "g", "S")
			in.KeySchema = ks("pk", "sk")
			in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"), KeySchema: ks("pk"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("gsi", ks("g"), types.ProjectionTypeAll)}
		}, "One or more parameter values were invalid: Index KeySchema does not have a range key for index: lsi"},
		{"LSI other hash", func(in *dynamodb.CreateTableInput) {
			in.AttributeDefinitions = defs("pk", "S", "sk", "S", "g", "S")
			in.KeySchema = ks("pk", "sk")
			in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"), KeySchema: ks("g", "sk"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}
		}, "One or more parameter values were invalid: Index KeySchema does not have the same leading hash key as table KeySchema for index: lsi. index hash key: g, table hash key: pk"},
		{"multi-attribute RANGE before HASH", func(in *dynamodb.CreateTableInput) {
			in.AttributeDefinitions = defs("pk", "S", "g", "S", "h", "S")
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("gsi", []types.KeySchemaElement{
				{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("pk"), KeyType: types.KeyTypeRange},
				{AttributeName: aws.String("h"), KeyType: types.KeyTypeHash},
			}, types.ProjectionTypeAll)}
		}, "One or more parameter values were invalid: All HASH key attributes must precede RANGE key attributes in the KeySchema"},
		{"five HASH attributes", func(in *dynamodb.CreateTableInput) {
			in.AttributeDefinitions = defs("pk", "S", "g", "S", "a", "S", "b", "S", "c", "S")
			var k []types.KeySchemaElement
			for _, n := range []string{"g", "a", "b", "c", "pk"} {
				k = append(k, types.KeySchemaElement{AttributeName: aws.String(n), KeyType: types.KeyTypeHash})
			}
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("gsi", k, types.ProjectionTypeAll)}
		}, "One or more parameter values were invalid: The KeySchema exceeds the maximum allowed number of HASH key attributes"},
		{"provisioned GSI without throughput", func(in *dynamodb.CreateTableInput) {
			in.BillingMode = types.BillingModeProvisioned
			in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("gsi", ks("g"), types.ProjectionTypeAll)}
		}, "One or more parameter values were invalid: ProvisionedThroughput is not specified for index: gsi"},
		{"GSI first key not HASH", func(in *dynamodb.CreateTableInput) {
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("gsi", []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeRange}}, types.ProjectionTypeAll)}
		}, "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := base()
			tc.edit(in)
			_, err := c.CreateTable(bg(), in)
			wantValidation(t, err, tc.msg)
		})
	}
	// Too many GSIs.
	in := base()
	for i := 0; i < 21; i++ {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, gsi(fmt.Sprintf("gsi%02d", i), ks("g"), types.ProjectionTypeKeysOnly))
	}
	_, err := c.CreateTable(bg(), in)
	wantValidation(t, err, "One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20")
	// Provisioned GSIs carry their throughput.
	in = base()
	in.BillingMode = types.BillingModeProvisioned
	in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}
	g := gsi("gsi", ks("g"), types.ProjectionTypeAll)
	g.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(4)}
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{g}
	out, err := c.CreateTable(bg(), in)
	if err != nil {
		t.Fatal(err)
	}
	if pt := out.TableDescription.GlobalSecondaryIndexes[0].ProvisionedThroughput; *pt.ReadCapacityUnits != 3 || *pt.WriteCapacityUnits != 4 {
		t.Fatalf("GSI throughput %+v", pt)
	}
}

// An item without the index key is not in the index; an update that
// changes the key moves the entry; a delete removes it.
func TestIndexSparseMoveDelete(t *testing.T) {
	_, c := start(t)
	createIndexed(t, c)
	put(t, c, "idx", item{"pk": S("p"), "sk": S("1"), "tag": S("red")})
	put(t, c, "idx", item{"pk": S("p"), "sk": S("2")})
	put(t, c, "idx", item{"pk": S("q"), "sk": S("1"), "tag": S("red")})
	q := func(tag string) []string {
		out := queryIndex(t, c, &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("sparse"),
			KeyConditionExpression: aws.String("tag = :t"), ExpressionAttributeValues: item{":t": S(tag)}})
		var keys []string
		for _, it := range out.Items {
			keys = append(keys, it["pk"].(*types.AttributeValueMemberS).Value+"/"+it["sk"].(*types.AttributeValueMemberS).Value)
		}
		return keys
	}
	if got := q("red"); !reflect.DeepEqual(got, []string{"p/1", "q/1"}) {
		t.Fatalf("red: %v", got)
	}
	_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("idx"), Key: item{"pk": S("p"), "sk": S("1")},
		UpdateExpression: aws.String("SET tag = :b"), ExpressionAttributeValues: item{":b": S("blue")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := q("red"); !reflect.DeepEqual(got, []string{"q/1"}) {
		t.Fatalf("red after move: %v", got)
	}
	if got := q("blue"); !reflect.DeepEqual(got, []string{"p/1"}) {
		t.Fatalf("blue after move: %v", got)
	}
	_, err = c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("idx"), Key: item{"pk": S("q"), "sk": S("1")},
		UpdateExpression: aws.String("REMOVE tag")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("idx"), Key: item{"pk": S("p"), "sk": S("1")}}); err != nil {
		t.Fatal(err)
	}
	if got := q("red"); got != nil {
		t.Fatalf("red at end: %v", got)
	}
	if got := q("blue"); got != nil {
		t.Fatalf("blue at end: %v", got)
	}
	scan, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("idx"), IndexName: aws.String("sparse")})
	if err != nil || scan.Count != 0 {
		t.Fatalf("scan sparse: %v %+v", err, scan)
	}
	for _, g := range describe(t, c, "idx").GlobalSecondaryIndexes {
		if *g.ItemCount != 0 || *g.IndexSizeBytes != 0 {
			t.Fatalf("%s: %d items %d bytes", *g.IndexName, *g.ItemCount, *g.IndexSizeBytes)
		}
	}
}

// A write whose index key has the wrong type is refused and changes
// nothing, whichever write path it takes.
func TestIndexKeyTypeMismatch(t *testing.T) {
	_, c := start(t)
	createIndexed(t, c)
	orig := item{"pk": S("p"), "sk": S("1"), "gpk": S("g"), "gsk": N("1"), "x": S("keep")}
	put(t, c, "idx", orig)
	const msg = "One or more parameter values were invalid: Type mismatch for Index Key gsk Expected: N Actual: S IndexName: byg"
	_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("idx"), Item: item{"pk": S("p"), "sk": S("2"), "gsk": S("one")}})
	wantValidation(t, err, msg)
	if got := get(t, c, "idx", item{"pk": S("p"), "sk": S("2")}); got != nil {
		t.Fatalf("refused put stored %v", got)
	}
	_, err = c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("idx"), Key: item{"pk": S("p"), "sk": S("1")},
		UpdateExpression: aws.String("SET gsk = :s, x = :x"), ExpressionAttributeValues: item{":s": S("one"), ":x": S("changed")}})
	wantValidation(t, err, msg)
	if got := get(t, c, "idx", item{"pk": S("p"), "sk": S("1")}); !reflect.DeepEqual(got, orig) {
		t.Fatalf("refused update changed the item: %v", got)
	}
	_, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"idx": {
		{PutRequest: &types.PutRequest{Item: item{"pk": S("p"), "sk": S("3")}}},
		{PutRequest: &types.PutRequest{Item: item{"pk": S("p"), "sk": S("4"), "gsk": S("bad")}}},
	}}})
	wantValidation(t, err, msg)
	if got := get(t, c, "idx", item{"pk": S("p"), "sk": S("3")}); got != nil {
		t.Fatalf("refused batch stored %v", got)
	}
	_, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("idx"), Item: item{"pk": S("p"), "sk": S("5"), "tag": S("")}})
	wantValidation(t, err, "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: sparse, IndexKey: tag")
	out := queryIndex(t, c, &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byg"),
		KeyConditionExpression: aws.String("gpk = :g"), ExpressionAttributeValues: item{":g": S("g")}})
	if out.Count != 1 {
		t.Fatalf("index changed: %+v", out.Items)
	}
}

func TestIndexReadRules(t *testing.T) {
	_, c := start(t)
	createIndexed(t, c)
	put(t, c, "idx", item{"pk": S("p"), "sk": S("1"), "lsk": N("3"), "gpk": S("g"), "gsk": N("1"), "a": S("A"), "b": S("B")})
	kc := aws.String("gpk = :g")
	vals := item{":g": S("g")}
	_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byg"), KeyConditionExpression: kc, ExpressionAttributeValues: vals, Select: types.SelectAllAttributes})
	wantValidation(t, err, "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index byg because its projection type is not ALL")
	_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byg"), KeyConditionExpression: kc, ExpressionAttributeValues: vals, ConsistentRead: aws.Bool(true)})
	wantValidation(t, err, "Consistent reads are not supported on global secondary indexes")
	_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("nope"), KeyConditionExpression: kc, ExpressionAttributeValues: vals})
	wantValidation(t, err, "The table does not have the specified index: nope")
	_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byg"), KeyConditionExpression: aws.String("pk = :g"), ExpressionAttributeValues: vals})
	wantValidation(t, err, "Query condition missed key schema element: gpk")
	_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byg"), KeyConditionExpression: kc, ExpressionAttributeValues: item{":g": S("g"), ":n": N("1")},
		FilterExpression: aws.String("gsk = :n")})
	wantValidation(t, err, "Filter Expression can only contain non-primary key attributes: Primary key attribute: gsk")

	// INCLUDE projects the keys and a, not b.
	out := queryIndex(t, c, &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byg"), KeyConditionExpression: kc, ExpressionAttributeValues: vals})
	want := item{"pk": S("p"), "sk": S("1"), "gpk": S("g"), "gsk": N("1"), "a": S("A")}
	if len(out.Items) != 1 || !reflect.DeepEqual(out.Items[0], want) {
		t.Fatalf("GSI item %v", out.Items)
	}

	// An LSI fetches what it does not project, and bills the table for it.
	out = queryIndex(t, c, &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("bylsk"),
		KeyConditionExpression: aws.String("pk = :p AND lsk > :z"), ExpressionAttributeValues: item{":p": S("p"), ":z": N("0")},
		Select: types.SelectAllAttributes, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	if len(out.Items) != 1 || out.Items[0]["b"] == nil {
		t.Fatalf("LSI fetch: %v", out.Items)
	}
	cc := out.ConsumedCapacity
	if *cc.CapacityUnits != 1 || *cc.Table.CapacityUnits != 0.5 || *cc.LocalSecondaryIndexes["bylsk"].CapacityUnits != 0.5 {
		t.Fatalf("LSI fetch capacity %+v table %+v lsi %+v", cc, cc.Table, cc.LocalSecondaryIndexes)
	}
	// Without the fetch, the LSI's keys only.
	out = queryIndex(t, c, &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("bylsk"),
		KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S("p")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	if want := (item{"pk": S("p"), "sk": S("1"), "lsk": N("3")}); len(out.Items) != 1 || !reflect.DeepEqual(out.Items[0], want) {
		t.Fatalf("LSI keys only: %v", out.Items)
	}
	if cc := out.ConsumedCapacity; *cc.CapacityUnits != 0.5 || *cc.Table.CapacityUnits != 0 {
		t.Fatalf("LSI capacity %+v", cc)
	}
}

func TestIndexWriteCapacity(t *testing.T) {
	_, c := start(t)
	createIndexed(t, c)
	w := func(in *dynamodb.UpdateItemInput) *types.ConsumedCapacity {
		t.Helper()
		in.TableName = aws.String("idx")
		in.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
		out, err := c.UpdateItem(bg(), in)
		if err != nil {
			t.Fatal(err)
		}
		return out.ConsumedCapacity
	}
	key := item{"pk": S("p"), "sk": S("1")}
	cc := w(&dynamodb.UpdateItemInput{Key: key, UpdateExpression: aws.String("SET gpk = :g, gsk = :n"), ExpressionAttributeValues: item{":g": S("g"), ":n": N("1")}})
	if *cc.CapacityUnits != 2 || *cc.GlobalSecondaryIndexes["byg"].CapacityUnits != 1 || cc.GlobalSecondaryIndexes["sparse"].CapacityUnits != nil {
		t.Fatalf("insert: %+v %+v", cc, cc.GlobalSecondaryIndexes)
	}
	// A move costs the index a delete and a put.
	cc = w(&dynamodb.UpdateItemInput{Key: key, UpdateExpression: aws.String("SET gsk = :n"), ExpressionAttributeValues: item{":n": N("2")}})
	if *cc.CapacityUnits != 3 || *cc.GlobalSecondaryIndexes["byg"].CapacityUnits != 2 {
		t.Fatalf("move: %+v %+v", cc, cc.GlobalSecondaryIndexes)
	}
	// A change to an attribute no index stores costs the indexes nothing.
	cc = w(&dynamodb.UpdateItemInput{Key: key, UpdateExpression: aws.String("SET zz = :n"), ExpressionAttributeValues: item{":n": N("2")}})
	if *cc.CapacityUnits != 1 || cc.GlobalSecondaryIndexes != nil {
		t.Fatalf("untouched: %+v %+v", cc, cc.GlobalSecondaryIndexes)
	}
}

// Equal index keys are ordered by the base key, and pages resume exactly.
func TestIndexPaginationTies(t *testing.T) {
	_, c := start(t)
	createIndexed(t, c)
	var want []string
	for i := 9; i >= 0; i-- {
		sk := fmt.Sprintf("s%d", i)
		put(t, c, "idx", item{"pk": S("p" + sk), "sk": S(sk), "gpk": S("g"), "gsk": N("7")})
	}
	for i := 0; i < 10; i++ {
		want = append(want, fmt.Sprintf("s%d", i))
	}
	for _, forward := range []bool{true, false} {
		var got []string
		var start item
		pages := 0
		for {
			out := queryIndex(t, c, &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byg"),
				KeyConditionExpression: aws.String("gpk = :g AND gsk = :n"), ExpressionAttributeValues: item{":g": S("g"), ":n": N("7")},
				Limit: aws.Int32(3), ExclusiveStartKey: start, ScanIndexForward: aws.Bool(forward)})
			got = append(got, sks(out.Items, "sk")...)
			pages++
			if out.LastEvaluatedKey == nil {
				break
			}
			if len(out.LastEvaluatedKey) != 4 {
				t.Fatalf("LastEvaluatedKey %v", out.LastEvaluatedKey)
			}
			start = out.LastEvaluatedKey
		}
		if pages != 4 {
			t.Fatalf("%d pages", pages)
		}
		// pk is "p"+sk, so base-key order is sk order.
		exp := append([]string(nil), want...)
		if !forward {
			for i, j := 0, len(exp)-1; i < j; i, j = i+1, j-1 {
				exp[i], exp[j] = exp[j], exp[i]
			}
		}
		if !reflect.DeepEqual(got, exp) {
			t.Fatalf("forward=%v: %v", forward, got)
		}
	}
	// A start key without the base key is refused.
	_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byg"),
		KeyConditionExpression: aws.String("gpk = :g"), ExpressionAttributeValues: item{":g": S("g")},
		ExclusiveStartKey: item{"gpk": S("g"), "gsk": N("7")}})
	wantValidation(t, err, "The provided starting key is invalid")
	// Scan pages over the index too.
	var n int
	var start item
	for {
		out, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("idx"), IndexName: aws.String("byg"), Limit: aws.Int32(4), ExclusiveStartKey: start})
		if err != nil {
			t.Fatal(err)
		}
		n += len(out.Items)
		if out.LastEvaluatedKey == nil {
			break
		}
		start = out.LastEvaluatedKey
	}
	if n != 10 {
		t.Fatalf("scan read %d", n)
	}
	// Parallel scan segments of the index cover it exactly once.
	n = 0
	for seg := range int32(3) {
		out, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("idx"), IndexName: aws.String("byg"), Segment: aws.Int32(seg), TotalSegments: aws.Int32(3)})
		if err != nil {
			t.Fatal(err)
		}
		n += len(out.Items)
	}
	if n != 10 {
		t.Fatalf("segments read %d", n)
	}
}

// A multi-attribute GSI key orders by the tuple: numbers as numbers.
func TestIndexMultiAttributeKey(t *testing.T) {
	_, c := start(t)
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName: aws.String("orders"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("id", "S", "customer", "S", "cregion", "S", "year", "N", "total", "N"),
		KeySchema:            ks("id"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: aws.String("bycust"),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("customer"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("cregion"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("year"), KeyType: types.KeyTypeRange},
				{AttributeName: aws.String("total"), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		id, cust, region, year, total string
	}{
		{"1", "c", "eu", "2024", "9"}, {"2", "c", "eu", "2024", "10"}, {"3", "c", "eu", "2025", "1"},
		{"4", "c", "us", "2024", "5"}, {"5", "d", "eu", "2024", "5"},
	}
	for _, r := range rows {
		put(t, c, "orders", item{"id": S(r.id), "customer": S(r.cust), "cregion": S(r.region), "year": N(r.year), "total": N(r.total)})
	}
	put(t, c, "orders", item{"id": S("6"), "customer": S("c"), "cregion": S("eu")}) // sparse: no year
	q := func(cond string, vals item) ([]string, error) {
		out, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("orders"), IndexName: aws.String("bycust"),
			KeyConditionExpression: aws.String(cond), ExpressionAttributeValues: vals})
		if err != nil {
			return nil, err
		}
		return sks(out.Items, "id"), nil
	}
	got, err := q("customer = :c AND cregion = :r", item{":c": S("c"), ":r": S("eu")})
	if err != nil || !reflect.DeepEqual(got, []string{"1", "2", "3"}) {
		t.Fatalf("partition: %v %v", got, err)
	}
	got, err = q("customer = :c AND cregion = :r AND #y = :y AND total >= :t", item{":c": S("c"), ":r": S("eu"), ":y": N("2024"), ":t": N("9")})
	if err == nil {
		t.Fatalf("unexpected success (year is reserved): %v", got)
	}
	out, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("orders"), IndexName: aws.String("bycust"),
		KeyConditionExpression:    aws.String("customer = :c AND #r = :r AND #y = :y AND #t BETWEEN :a AND :b"),
		ExpressionAttributeNames:  map[string]string{"#r": "cregion", "#y": "year", "#t": "total"},
		ExpressionAttributeValues: item{":c": S("c"), ":r": S("eu"), ":y": N("2024"), ":a": N("2"), ":b": N("100")}})
	if err != nil || !reflect.DeepEqual(sks(out.Items, "id"), []string{"1", "2"}) {
		t.Fatalf("range: %v %v", out, err)
	}
	_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("orders"), IndexName: aws.String("bycust"),
		KeyConditionExpression: aws.String("customer = :c"), ExpressionAttributeValues: item{":c": S("c")}})
	wantValidation(t, err, "Query condition missed key schema element: cregion")
	_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("orders"), IndexName: aws.String("bycust"),
		KeyConditionExpression:    aws.String("customer = :c AND #r = :r AND #t = :t"),
		ExpressionAttributeNames:  map[string]string{"#r": "cregion", "#t": "total"},
		ExpressionAttributeValues: item{":c": S("c"), ":r": S("eu"), ":t": N("1")}})
	// A gap and an inequality before the last RANGE attribute named get
	// DynamoDB's text (e2e/multikey_exact_test.go has the sources).
	wantValidation(t, err, "RANGE key attributes year must have equality conditions specified in the query because a condition is present on key attribute total")
	// Only the last RANGE attribute named may have an inequality.
	_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("orders"), IndexName: aws.String("bycust"),
		KeyConditionExpression:    aws.String("customer = :c AND #r = :r AND #y > :y AND #t = :t"),
		ExpressionAttributeNames:  map[string]string{"#r": "cregion", "#y": "year", "#t": "total"},
		ExpressionAttributeValues: item{":c": S("c"), ":r": S("eu"), ":y": N("2024"), ":t": N("1")}})
	wantValidation(t, err, "RANGE key attributes year must have equality conditions specified in the query because a condition is present on key attribute total")
	// A filter may not name the index's key attributes.
	_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("orders"), IndexName: aws.String("bycust"),
		KeyConditionExpression:    aws.String("customer = :c AND #r = :r"),
		FilterExpression:          aws.String("#t > :t"),
		ExpressionAttributeNames:  map[string]string{"#r": "cregion", "#t": "total"},
		ExpressionAttributeValues: item{":c": S("c"), ":r": S("eu"), ":t": N("1")}})
	wantValidation(t, err, "Filter Expression can only contain non-primary key attributes: Primary key attribute: total")
}

// waitIndexActive polls DescribeTable until every GSI of the table is
// ACTIVE, for up to a minute.
func waitIndexActive(t *testing.T, c local.API, table string) *types.TableDescription {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		d := describe(t, c, table)
		busy := false
		for _, g := range d.GlobalSecondaryIndexes {
			busy = busy || g.IndexStatus != types.IndexStatusActive
		}
		if !busy {
			return d
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("index not ACTIVE within a minute")
	return nil
}

// A GSI added to a populated table backfills, then answers queries; a
// deleted GSI is gone. One online index change per call.
func TestIndexOnlineCreateDelete(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "online", types.ScalarAttributeTypeS)
	for i := range 1500 {
		it := item{"pk": S(fmt.Sprint("p", i)), "v": N(fmt.Sprint(i))}
		if i%2 == 0 {
			it["g"] = S(fmt.Sprint("g", i%3))
		}
		put(t, c, "online", it)
	}
	create := func(name string) types.GlobalSecondaryIndexUpdate {
		return types.GlobalSecondaryIndexUpdate{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String(name), KeySchema: ks("g", "v"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}
	}
	_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("online"), AttributeDefinitions: defs("g", "S", "v", "N"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{create("one"), create("two")}})
	wantErr(t, err, "LimitExceededException", "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table")
	out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("online"), AttributeDefinitions: defs("g", "S", "v", "N"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{create("byg")}})
	if err != nil {
		t.Fatal(err)
	}
	g := out.TableDescription.GlobalSecondaryIndexes[0]
	if g.IndexStatus != types.IndexStatusCreating || g.Backfilling == nil || !*g.Backfilling {
		t.Fatalf("UpdateTable answer: %+v", g)
	}
	if len(out.TableDescription.AttributeDefinitions) != 3 {
		t.Fatalf("definitions %+v", out.TableDescription.AttributeDefinitions)
	}
	d := waitIndexActive(t, c, "online")
	if n := *d.GlobalSecondaryIndexes[0].ItemCount; n != 750 {
		t.Fatalf("index holds %d items", n)
	}
	q, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("online"), IndexName: aws.String("byg"),
		KeyConditionExpression: aws.String("g = :g AND v < :v"), ExpressionAttributeValues: item{":g": S("g0"), ":v": N("12")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := sks(q.Items, "v"); !reflect.DeepEqual(got, []string{"0", "6"}) {
		t.Fatalf("query: %v", got)
	}
	_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("online"), AttributeDefinitions: defs("g", "S", "v", "N"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{create("byg")}})
	wantValidation(t, err, "Attempting to create an index which already exists")
	_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("online"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("nope")}}}})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Index: nope not found")
	out, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("online"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("byg")}}}})
	if err != nil {
		t.Fatal(err)
	}
	if out.TableDescription.GlobalSecondaryIndexes != nil || len(out.TableDescription.AttributeDefinitions) != 1 {
		t.Fatalf("after delete: %+v", out.TableDescription)
	}
	_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("online"), IndexName: aws.String("byg"),
		KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S("g0")}})
	wantValidation(t, err, "The table does not have the specified index: byg")
	// An LSI can be neither deleted nor updated.
	createIndexed(t, c)
	_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("idx"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("bylsk")}}}})
	wantValidation(t, err, "Cannot delete an index that is not a GlobalSecondaryIndex: bylsk")
}

// Switching the billing mode of a table with GSIs: to PROVISIONED needs
// each GSI's throughput in the same call; to PAY_PER_REQUEST drops it.
func TestIndexBillingSwitch(t *testing.T) {
	_, c := start(t)
	createIndexed(t, c)
	pt := &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(2), WriteCapacityUnits: aws.Int64(3)}
	_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("idx"), BillingMode: types.BillingModeProvisioned, ProvisionedThroughput: pt})
	wantValidation(t, err, "One or more parameter values were invalid: ProvisionedThroughput must be specified for index: byg,sparse")
	out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("idx"), BillingMode: types.BillingModeProvisioned, ProvisionedThroughput: pt,
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{
			{Update: &types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("byg"), ProvisionedThroughput: pt}},
			{Update: &types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("sparse"), ProvisionedThroughput: pt}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range out.TableDescription.GlobalSecondaryIndexes {
		if *g.ProvisionedThroughput.ReadCapacityUnits != 2 || *g.ProvisionedThroughput.WriteCapacityUnits != 3 {
			t.Fatalf("%s: %+v", *g.IndexName, g.ProvisionedThroughput)
		}
	}
	out, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("idx"), BillingMode: types.BillingModePayPerRequest})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range out.TableDescription.GlobalSecondaryIndexes {
		if *g.ProvisionedThroughput.ReadCapacityUnits != 0 {
			t.Fatalf("%s after PAY_PER_REQUEST: %+v", *g.IndexName, g.ProvisionedThroughput)
		}
	}
}

// A write to a table with an LSI reports its item collection with SIZE.
func TestIndexItemCollectionMetrics(t *testing.T) {
	_, c := start(t)
	createIndexed(t, c)
	out, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("idx"), Item: item{"pk": S("p"), "sk": S("1")},
		ReturnItemCollectionMetrics: types.ReturnItemCollectionMetricsSize})
	if err != nil {
		t.Fatal(err)
	}
	m := out.ItemCollectionMetrics
	if m == nil || !reflect.DeepEqual(m.ItemCollectionKey, item{"pk": S("p")}) || !reflect.DeepEqual(m.SizeEstimateRangeGB, []float64{0, 1}) {
		t.Fatalf("metrics %+v", m)
	}
	createHash(t, c, "nolsi", types.ScalarAttributeTypeS)
	out, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("nolsi"), Item: item{"pk": S("p")},
		ReturnItemCollectionMetrics: types.ReturnItemCollectionMetricsSize})
	if err != nil || out.ItemCollectionMetrics != nil {
		t.Fatalf("no LSI: %v %+v", err, out.ItemCollectionMetrics)
	}
}

// TestIndexKeySizeLimits: an index key value over the key size limits
// (2048 bytes for a partition key attribute, 1024 for a sort key one) is
// refused as DynamoDB refuses it, and nothing is written.
func TestIndexKeySizeLimits(t *testing.T) {
	_, c := start(t)
	createIndexed(t, c)
	_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("idx"), Item: item{"pk": S("p"), "sk": S("1"), "gpk": S(strings.Repeat("g", 2049)), "gsk": N("1")}})
	wantValidation(t, err, "One or more parameter values were invalid: Size limit exceeded for Index Key gpk Actual Size: 2049 bytes Max Size: 2048 bytes IndexName: byg")
	if got := get(t, c, "idx", item{"pk": S("p"), "sk": S("1")}); got != nil {
		t.Fatalf("refused put stored %v", got)
	}
	// Exactly at the limit is fine.
	put(t, c, "idx", item{"pk": S("p"), "sk": S("2"), "gpk": S(strings.Repeat("g", 2048)), "gsk": N("1")})
}
