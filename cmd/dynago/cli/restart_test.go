package cli

import (
	"context"
	"fmt"
	"reflect"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// TestRestartReadsEverythingBack writes tables and items of every kind
// through a server with --data-dir, stops it with SIGTERM, starts a new
// one on the same directory and reads all of it back: every item
// attribute for attribute, and every table description and tag list
// unchanged.
func TestRestartReadsEverythingBack(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	p := testserver.StartProcess(t, "--data-dir", dir)
	c := p.Client()

	createTable(t, c, "plain")
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("ranged"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("h"), AttributeType: types.ScalarAttributeTypeB},
			{AttributeName: aws.String("r"), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("h"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("r"), KeyType: types.KeyTypeRange},
		},
		ProvisionedThroughput:     &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(2)},
		StreamSpecification:       &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
		DeletionProtectionEnabled: aws.Bool(true),
		Tags:                      []types.Tag{{Key: aws.String("env"), Value: aws.String("test")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	// A deleted table stays deleted, and its name's new table stays empty.
	createTable(t, c, "dropped")
	put := func(table string, it map[string]types.AttributeValue) {
		t.Helper()
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	put("dropped", map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "old"}})
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("dropped")}); err != nil {
		t.Fatal(err)
	}

	written := map[string][]map[string]types.AttributeValue{}
	for i := range 50 {
		it := map[string]types.AttributeValue{
			"pk":  &types.AttributeValueMemberS{Value: fmt.Sprintf("item-%03d", i)},
			"n":   &types.AttributeValueMemberN{Value: fmt.Sprintf("-%d.5", i)},
			"b":   &types.AttributeValueMemberB{Value: []byte{0, byte(i), 0xFF}},
			"ok":  &types.AttributeValueMemberBOOL{Value: i%2 == 0},
			"nil": &types.AttributeValueMemberNULL{Value: true},
			"ss":  &types.AttributeValueMemberSS{Value: []string{fmt.Sprint(i), "x"}}, // sets come back sorted
			"ns":  &types.AttributeValueMemberNS{Value: []string{"1", fmt.Sprint(i + 2)}},
			"bs":  &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, byte(i)}}},
			"l":   &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "e"}, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}}},
			"m":   &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"in": &types.AttributeValueMemberN{Value: fmt.Sprint(i)}}},
		}
		put("plain", it)
		written["plain"] = append(written["plain"], it)
		rt := map[string]types.AttributeValue{
			"h": &types.AttributeValueMemberB{Value: []byte{byte(i % 3)}},
			"r": &types.AttributeValueMemberN{Value: fmt.Sprint(i)},
			"v": &types.AttributeValueMemberS{Value: fmt.Sprint("value ", i)},
		}
		put("ranged", rt)
		written["ranged"] = append(written["ranged"], rt)
	}
	// Overwrites and deletes must survive too.
	over := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "item-007"}, "v": &types.AttributeValueMemberS{Value: "replaced"}}
	put("plain", over)
	written["plain"][7] = over
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("plain"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "item-013"}}}); err != nil {
		t.Fatal(err)
	}
	deleted := written["plain"][13]
	written["plain"] = append(written["plain"][:13:13], written["plain"][14:]...)

	before := map[string]*types.TableDescription{}
	for _, name := range []string{"plain", "ranged"} {
		out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil {
			t.Fatal(err)
		}
		before[name] = out.Table
	}

	if err := p.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(t); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.Log())
	}

	p2 := testserver.StartProcess(t, "--data-dir", dir)
	c2 := p2.Client()
	list, err := c2.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(list.TableNames, []string{"plain", "ranged"}) {
		t.Fatalf("tables after restart: %v", list.TableNames)
	}
	for name, want := range before {
		out, err := c2.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out.Table, want) {
			t.Errorf("%s description changed across the restart:\nbefore %+v\nafter  %+v", name, want, out.Table)
		}
	}
	tags, err := c2.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: before["ranged"].TableArn})
	if err != nil || len(tags.Tags) != 1 || aws.ToString(tags.Tags[0].Key) != "env" {
		t.Fatalf("tags after restart: %+v %v", tags, err)
	}
	for name, items := range written {
		keyNames := []string{"pk"}
		if name == "ranged" {
			keyNames = []string{"h", "r"}
		}
		for _, it := range items {
			key := map[string]types.AttributeValue{}
			for _, k := range keyNames {
				key[k] = it[k]
			}
			out, err := c2.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(name), Key: key, ConsistentRead: aws.Bool(true)})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(out.Item, it) {
				t.Fatalf("%s item changed across the restart:\nwrote %+v\nread  %+v", name, it, out.Item)
			}
		}
	}
	out, err := c2.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("plain"), Key: map[string]types.AttributeValue{"pk": deleted["pk"]}})
	if err != nil || out.Item != nil {
		t.Fatalf("deleted item back after restart: %+v %v", out.Item, err)
	}
	createTable(t, c2, "dropped")
	out, err = c2.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("dropped"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "old"}}})
	if err != nil || out.Item != nil {
		t.Fatalf("a re-created table sees its predecessor's item after restart: %+v %v", out.Item, err)
	}
}
