// Command auditlog runs the index part of scenario S1 of the seeds, an
// audit log of who did what to which resource, and answers "every time
// joe1 viewed 123bbb" (and the same within one month) through a global
// secondary index added to the populated table, in two designs side by
// side:
//
//   - a concatenated attribute, resourceId-Action-AccessedBy = "123bbb#view#joe1",
//     as the GSI's partition key and timestamp as its sort key. Only items
//     that carry the attribute are indexed (a sparse index): the items
//     written before it existed are missing until a retrofit adds it,
//     which toolkit/retrofit does here: a parallel scan feeding writes
//     conditional on the values read, paced, with progress;
//   - a native multi-attribute GSI key (DynamoDB, November 2025):
//     resourceId, action and accessedBy as three HASH attributes and
//     timestamp as the RANGE attribute. No new attribute and no retrofit:
//     the backfill indexes every existing item.
//
// Both indexes are created with UpdateTable on the populated table, are
// CREATING while dynago backfills them, and answer once ACTIVE.
//
//	go run ./cmd/dynago serve --in-memory &
//	go run ./examples/auditlog --endpoint http://127.0.0.1:8000
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/toolkit/retrofit"
)

const (
	table  = "ResourceAccessAudit"
	concat = "resourceId-Action-AccessedBy"
)

func main() {
	endpoint := flag.String("endpoint", "http://127.0.0.1:8000", "DynamoDB endpoint URL; dynago's by default")
	flag.Parse()
	c := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(*endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("x", "x", ""),
	})
	if _, err := run(context.Background(), c, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "auditlog:", err)
		os.Exit(1)
	}
}

// Result holds what run found, for the test.
type Result struct {
	// Concat* are the answers through the concatenated-attribute GSI,
	// Native* through the multi-attribute GSI: the timestamps of joe1's
	// views of 123bbb, all of them and those of March 2024.
	ConcatAll, ConcatMarch []string
	NativeAll, NativeMarch []string
	// ConcatIndexed and NativeIndexed are the indexes' item counts.
	ConcatIndexed, NativeIndexed int64
	// Legacy is the number of items written without the concatenated
	// attribute.
	Legacy int
	// Retrofitted is how many items the retrofit gave the attribute;
	// ConcatAfter is joe1's views of 123bbb through the concatenated GSI
	// afterwards, and JaneEdited123ccc the answer to "jane edited 123ccc"
	// before and after.
	Retrofitted           int64
	ConcatAfter           []string
	JaneBefore, JaneAfter int
}

type event struct{ resource, action, user, ts string }

// events is the log. The first half was written by an application that
// did not yet set the concatenated attribute.
var events = []event{
	{"123bbb", "view", "joe1", "2024-02-27T10:00:00Z"},
	{"123bbb", "edit", "jane", "2024-03-01T08:30:00Z"},
	{"123bbb", "view", "joe1", "2024-03-02T09:15:00Z"},
	{"123ccc", "edit", "jane", "2024-03-03T11:00:00Z"},
	{"123bbb", "view", "ann", "2024-03-04T12:00:00Z"},
	{"123bbb", "view", "joe1", "2024-03-20T16:45:00Z"},
	{"123ccc", "view", "joe1", "2024-03-21T07:00:00Z"},
	{"123bbb", "view", "joe1", "2024-04-02T13:00:00Z"},
	{"123bbb", "delete", "joe1", "2024-04-03T13:00:00Z"},
	{"123bbb", "view", "joe1", "2024-04-09T10:10:00Z"},
}

func run(ctx context.Context, c *dynamodb.Client, w io.Writer) (*Result, error) {
	res := &Result{}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		return nil, err
	}
	defer c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	for i, e := range events {
		it := map[string]types.AttributeValue{
			"id":           &types.AttributeValueMemberS{Value: fmt.Sprintf("evt-%04d", i)},
			"resourceId":   &types.AttributeValueMemberS{Value: e.resource},
			"resourceName": &types.AttributeValueMemberS{Value: "document " + e.resource},
			"action":       &types.AttributeValueMemberS{Value: e.action},
			"accessedBy":   &types.AttributeValueMemberS{Value: e.user},
			"timestamp":    &types.AttributeValueMemberS{Value: e.ts},
		}
		if i >= len(events)/2 {
			it[concat] = &types.AttributeValueMemberS{Value: e.resource + "#" + e.action + "#" + e.user}
		} else {
			res.Legacy++
		}
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			return nil, err
		}
	}
	fmt.Fprintf(w, "%d events written, %d of them before the application set %s\n", len(events), res.Legacy, concat)

	// Design 1: a GSI on the concatenated attribute.
	if err := createIndex(ctx, c, w, "byConcat", []types.KeySchemaElement{
		{AttributeName: aws.String(concat), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String("timestamp"), KeyType: types.KeyTypeRange},
	}, concat); err != nil {
		return nil, err
	}
	q := func(index, cond string, vals map[string]types.AttributeValue) ([]string, error) {
		out, err := c.Query(ctx, &dynamodb.QueryInput{
			TableName: aws.String(table), IndexName: aws.String(index),
			KeyConditionExpression:    aws.String(cond),
			ExpressionAttributeNames:  names(cond),
			ExpressionAttributeValues: vals,
		})
		if err != nil {
			return nil, err
		}
		var ts []string
		for _, it := range out.Items {
			ts = append(ts, it["timestamp"].(*types.AttributeValueMemberS).Value)
		}
		return ts, nil
	}
	key := &types.AttributeValueMemberS{Value: "123bbb#view#joe1"}
	march := &types.AttributeValueMemberS{Value: "2024-03"}
	if res.ConcatAll, err = q("byConcat", "#k = :k", map[string]types.AttributeValue{":k": key}); err != nil {
		return nil, err
	}
	if res.ConcatMarch, err = q("byConcat", "#k = :k AND begins_with(#ts, :m)", map[string]types.AttributeValue{":k": key, ":m": march}); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "concatenated key: joe1 viewed 123bbb at %v; in March at %v (older events are not indexed)\n", res.ConcatAll, res.ConcatMarch)
	jane := map[string]types.AttributeValue{":k": &types.AttributeValueMemberS{Value: "123ccc#edit#jane"}}
	before, err := q("byConcat", "#k = :k", jane)
	if err != nil {
		return nil, err
	}
	res.JaneBefore = len(before)

	// The retrofit: give every older item the attribute, without
	// overwriting anything a live application changes meanwhile.
	tmpl, err := retrofit.ParseTemplate("{resourceId}#{action}#{accessedBy}")
	if err != nil {
		return nil, err
	}
	p, err := retrofit.Run(ctx, c, retrofit.Options{
		Table: table, Attribute: concat, Template: tmpl, Segments: 4, WriteUnitsPerSecond: 100,
		Progress: func(p retrofit.Progress) {
			fmt.Fprintf(w, "retrofit: %d scanned, %d written, %d already set\n", p.Scanned, p.Written, p.Unchanged)
		},
	})
	if err != nil {
		return nil, err
	}
	res.Retrofitted = p.Written
	// The GSI follows the table: the retrofitted items are in it now.
	if res.ConcatAfter, err = q("byConcat", "#k = :k", map[string]types.AttributeValue{":k": key}); err != nil {
		return nil, err
	}
	after, err := q("byConcat", "#k = :k", jane)
	if err != nil {
		return nil, err
	}
	res.JaneAfter = len(after)
	fmt.Fprintf(w, "after the retrofit of %d items: joe1 viewed 123bbb at %v; jane edited 123ccc: %d event(s) (before: %d)\n",
		res.Retrofitted, res.ConcatAfter, res.JaneAfter, res.JaneBefore)

	// Design 2: a native multi-attribute key over the existing attributes.
	if err := createIndex(ctx, c, w, "byResourceActionUser", []types.KeySchemaElement{
		{AttributeName: aws.String("resourceId"), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String("action"), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String("accessedBy"), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String("timestamp"), KeyType: types.KeyTypeRange},
	}, "resourceId", "action", "accessedBy"); err != nil {
		return nil, err
	}
	vals := map[string]types.AttributeValue{
		":r": &types.AttributeValueMemberS{Value: "123bbb"},
		":a": &types.AttributeValueMemberS{Value: "view"},
		":u": &types.AttributeValueMemberS{Value: "joe1"},
	}
	cond := "resourceId = :r AND #a = :a AND accessedBy = :u"
	if res.NativeAll, err = q("byResourceActionUser", cond, vals); err != nil {
		return nil, err
	}
	vals[":m"] = march
	if res.NativeMarch, err = q("byResourceActionUser", cond+" AND begins_with(#ts, :m)", vals); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "multi-attribute key: joe1 viewed 123bbb at %v; in March at %v\n", res.NativeAll, res.NativeMarch)

	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return nil, err
	}
	for _, g := range d.Table.GlobalSecondaryIndexes {
		fmt.Fprintf(w, "index %s: %d items, %d bytes\n", *g.IndexName, *g.ItemCount, *g.IndexSizeBytes)
		if *g.IndexName == "byConcat" {
			res.ConcatIndexed = *g.ItemCount
		} else {
			res.NativeIndexed = *g.ItemCount
		}
	}
	return res, nil
}

// names returns the ExpressionAttributeNames a condition uses: DynamoDB
// refuses unused ones. timestamp and action are reserved words, and the
// concatenated attribute's name has dashes.
func names(cond string) map[string]string {
	m := map[string]string{}
	for p, n := range map[string]string{"#k": concat, "#ts": "timestamp", "#a": "action"} {
		if strings.Contains(cond, p) {
			m[p] = n
		}
	}
	return m
}

// createIndex adds a KEYS_ONLY-plus-timestamp GSI with UpdateTable and
// waits until its backfill is done.
func createIndex(ctx context.Context, c *dynamodb.Client, w io.Writer, name string, ks []types.KeySchemaElement, stringAttrs ...string) error {
	defs := []types.AttributeDefinition{{AttributeName: aws.String("timestamp"), AttributeType: types.ScalarAttributeTypeS}}
	for _, a := range stringAttrs {
		defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: types.ScalarAttributeTypeS})
	}
	out, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName:            aws.String(table),
		AttributeDefinitions: defs,
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName:  aws.String(name),
			KeySchema:  ks,
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"resourceName"}},
		}}},
	})
	if err != nil {
		return err
	}
	for _, g := range out.TableDescription.GlobalSecondaryIndexes {
		if *g.IndexName == name {
			fmt.Fprintf(w, "index %s: %s\n", name, g.IndexStatus)
		}
	}
	for range 6000 {
		d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		if err != nil {
			return err
		}
		for _, g := range d.Table.GlobalSecondaryIndexes {
			if *g.IndexName == name && g.IndexStatus == types.IndexStatusActive {
				fmt.Fprintf(w, "index %s: ACTIVE\n", name)
				return nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return errors.New("index " + name + " did not become ACTIVE")
}
