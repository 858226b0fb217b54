package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/toolkit/retrofit"
)

// TestRetrofitDryRunBillsAsTheRun checks that a retrofit's dry run
// estimates the write units its run then consumes (the sum of its
// UpdateItems' ConsumedCapacity, TOTAL), on tables whose secondary indexes
// the update touches in each of the ways DynamoDB bills
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes,
// and LSI.html#LSI.ThroughputConsiderations.Writes for local indexes): an
// entry added when the derived attribute is an index's key (a put), an
// entry re-keyed when an item held an older value (a delete and a put),
// an entry whose projected attributes change (one write of the larger
// entry), and indexes the update does not touch (nothing). The table's
// own write is the larger of the item before and after, each rounded up
// to a KB: the items are of many sizes, some crossing a KB as the
// attribute is added, and hold numbers, maps and sets.
func TestRetrofitDryRunBillsAsTheRun(t *testing.T) {
	const derived = "ab"
	tmpl, err := retrofit.ParseTemplate("{a}#{b}")
	if err != nil {
		t.Fatal(err)
	}
	gsi := func(name, key string, p types.ProjectionType, include ...string) types.GlobalSecondaryIndex {
		proj := &types.Projection{ProjectionType: p}
		if len(include) > 0 {
			proj.NonKeyAttributes = include
		}
		return types.GlobalSecondaryIndex{IndexName: aws.String(name), Projection: proj,
			KeySchema: []types.KeySchemaElement{{AttributeName: aws.String(key), KeyType: types.KeyTypeHash}}}
	}
	lsi := func(name, key string, p types.ProjectionType, include ...string) types.LocalSecondaryIndex {
		proj := &types.Projection{ProjectionType: p}
		if len(include) > 0 {
			proj.NonKeyAttributes = include
		}
		return types.LocalSecondaryIndex{IndexName: aws.String(name), Projection: proj, KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(key), KeyType: types.KeyTypeRange}}}
	}
	for _, tc := range []struct {
		name string
		gsis []types.GlobalSecondaryIndex
		lsis []types.LocalSecondaryIndex
	}{
		{name: "no index"},
		{name: "GSI keyed on the derived attribute, keys only", gsis: []types.GlobalSecondaryIndex{gsi("byAB", derived, types.ProjectionTypeKeysOnly)}},
		{name: "GSI keyed on the derived attribute, all", gsis: []types.GlobalSecondaryIndex{gsi("byAB", derived, types.ProjectionTypeAll)}},
		{name: "GSI on another attribute, all", gsis: []types.GlobalSecondaryIndex{gsi("byA", "a", types.ProjectionTypeAll)}},
		{name: "GSI on another attribute, including the derived one", gsis: []types.GlobalSecondaryIndex{gsi("byA", "a", types.ProjectionTypeInclude, derived, "n")}},
		{name: "GSIs the update does not touch", gsis: []types.GlobalSecondaryIndex{
			gsi("byA", "a", types.ProjectionTypeKeysOnly), gsi("byB", "b", types.ProjectionTypeInclude, "n")}},
		{name: "LSI, all", lsis: []types.LocalSecondaryIndex{lsi("lsiA", "a", types.ProjectionTypeAll)}},
		{name: "LSI keyed on the derived attribute", lsis: []types.LocalSecondaryIndex{lsi("lsiAB", derived, types.ProjectionTypeInclude, "b")}},
		{name: "every kind at once", gsis: []types.GlobalSecondaryIndex{
			gsi("byAB", derived, types.ProjectionTypeKeysOnly), gsi("byA", "a", types.ProjectionTypeAll), gsi("byB", "b", types.ProjectionTypeKeysOnly)},
			lsis: []types.LocalSecondaryIndex{lsi("lsiA", "a", types.ProjectionTypeInclude, derived)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, c := start(t)
			defs := []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
				{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}}
			for _, name := range []string{derived, "a", "b"} {
				defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS})
			}
			in := &dynamodb.CreateTableInput{TableName: aws.String("Retro"), BillingMode: types.BillingModePayPerRequest,
				KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
					{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
				GlobalSecondaryIndexes: tc.gsis, LocalSecondaryIndexes: tc.lsis}
			// Only the attributes some key uses may be defined.
			used := map[string]bool{"pk": true, "sk": true}
			for _, g := range tc.gsis {
				used[aws.ToString(g.KeySchema[0].AttributeName)] = true
			}
			for _, l := range tc.lsis {
				used[aws.ToString(l.KeySchema[1].AttributeName)] = true
			}
			for _, d := range defs {
				if used[aws.ToString(d.AttributeName)] {
					in.AttributeDefinitions = append(in.AttributeDefinitions, d)
				}
			}
			if _, err := c.CreateTable(bg(), in); err != nil {
				t.Fatal(err)
			}
			for i := range 60 {
				it := item{"pk": S(fmt.Sprintf("p%d", i%4)), "sk": S(fmt.Sprintf("s%03d", i)),
					"a": S(fmt.Sprintf("res%d", i%7)), "n": N(fmt.Sprintf("%d.%d", i*1234567, i)),
					// 0 to 2,950 bytes: items on both sides of 1 and 2 KB.
					"pad": S(strings.Repeat("x", i*50)),
					"m":   M(map[string]types.AttributeValue{"k": N("-0.5"), "l": L(S("x"), BOOL(true), NULL())}),
					"ss":  SS("a", "bb", fmt.Sprint(i)),
				}
				if i%10 != 3 { // a source missing: skipped
					it["b"] = S(fmt.Sprintf("act%d", i%3))
				}
				switch i % 6 {
				case 1: // an older value: rewritten, re-keyed where it is a key
					it[derived] = S("stale")
				case 4: // already right: not written
					if b, ok := it["b"]; ok {
						it[derived] = S(it["a"].(*types.AttributeValueMemberS).Value + "#" + b.(*types.AttributeValueMemberS).Value)
					}
				}
				put(t, c, "Retro", it)
			}
			opts := retrofit.Options{Table: "Retro", Attribute: derived, Template: tmpl, Segments: 2, PageSize: 7}
			dry := opts
			dry.DryRun = true
			estimate, err := retrofit.Run(bg(), c, dry)
			if err != nil {
				t.Fatal(err)
			}
			got, err := retrofit.Run(bg(), c, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got.Retried != 0 || got.Written != estimate.Written || got.Written != 44 {
				t.Fatalf("run wrote %d (retried %d), the dry run counted %d; want 44 each", got.Written, got.Retried, estimate.Written)
			}
			if estimate.WriteUnits != got.WriteUnits {
				t.Errorf("dry run estimates %v write units; the run consumed %v", estimate.WriteUnits, got.WriteUnits)
			}
			t.Logf("%v write units for %d items", got.WriteUnits, got.Written)
		})
	}
}
