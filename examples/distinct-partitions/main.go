// Command distinct-partitions runs scenario S4 of the seeds: listing the
// distinct partition keys of a table whose partitions hold many items,
// without reading every item, by the two methods of seed 003, each over
// parallel scan segments, and compares their bills with a full Scan's.
//
//		go run ./cmd/dynago serve --in-memory &
//		go run ./examples/distinct-partitions --endpoint http://127.0.0.1:8000
//
//	  - The skip-scan (toolkit/distinct.List): a Scan page of one item, then
//	    a resume from the item's partition key with the largest sort key of
//	    its type, which lands on the next partition.
//	  - The marker index (toolkit/distinct.ListFromIndex): each collection
//	    has one "#static" item carrying an attribute no other item has; a
//	    KEYS_ONLY GSI on it holds one small entry per collection.
//
// distinct_pks.py, next to this file, is the skip-scan in Python (boto3).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/toolkit/distinct"
)

const table = "Collections"

func main() {
	endpoint := flag.String("endpoint", "http://127.0.0.1:8000", "DynamoDB endpoint URL; dynago's by default")
	collections := flag.Int("collections", 200, "collections (partitions) to create")
	items := flag.Int("items", 50, "items per collection, at most")
	flag.Parse()
	c := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(*endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("x", "x", ""),
	})
	if _, err := run(context.Background(), c, os.Stdout, *collections, *items); err != nil {
		fmt.Fprintln(os.Stderr, "distinct-partitions:", err)
		os.Exit(1)
	}
}

// Result is what each method found and cost, for the test.
type Result struct {
	SkipScan, Marker         map[string]int // collection -> times listed
	SkipUnits, MarkerUnits   float64
	FullScanUnits            float64
	SkipPages, MarkerEntries int
}

func run(ctx context.Context, c *dynamodb.Client, w io.Writer, collections, items int) (*Result, error) {
	if err := setUp(ctx, c, collections, items); err != nil {
		return nil, err
	}
	defer c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	res := &Result{SkipScan: map[string]int{}, Marker: map[string]int{}}
	var mu sync.Mutex
	collect := func(into map[string]int) func(types.AttributeValue) {
		return func(pk types.AttributeValue) {
			mu.Lock()
			into[pk.(*types.AttributeValueMemberS).Value]++
			mu.Unlock()
		}
	}
	st, err := distinct.List(ctx, c, table, distinct.Options{Segments: 4, OnKey: collect(res.SkipScan)})
	if err != nil {
		return nil, err
	}
	res.SkipUnits, res.FullScanUnits, res.SkipPages = st.ReadUnits, st.FullScanUnits, st.Pages
	fmt.Fprintf(w, "skip-scan: %d collections in %d one-item pages, %.1f read units (a full Scan: about %.1f)\n",
		st.Partitions, st.Pages, st.ReadUnits, st.FullScanUnits)
	st, err = distinct.ListFromIndex(ctx, c, table, "markers", distinct.Options{Segments: 4, OnKey: collect(res.Marker)})
	if err != nil {
		return nil, err
	}
	res.MarkerUnits, res.MarkerEntries = st.ReadUnits, st.Partitions
	fmt.Fprintf(w, "marker index: %d collections, %.1f read units\n", st.Partitions, st.ReadUnits)
	return res, nil
}

// setUp creates the table with its marker index and fills it: collection
// i holds 1 + i mod items items of about 400 bytes, and one marker.
func setUp(ctx context.Context, c *dynamodb.Client, collections, items int) error {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(table),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("collection"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("markers"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("collection"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
	})
	if err != nil {
		return err
	}
	body := s(strings.Repeat("payload ", 50))
	var batch []types.WriteRequest
	flush := func() error {
		for len(batch) > 0 {
			out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: batch}})
			if err != nil {
				return err
			}
			batch = out.UnprocessedItems[table]
		}
		return nil
	}
	add := func(it map[string]types.AttributeValue) error {
		batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		if len(batch) == 25 {
			return flush()
		}
		return nil
	}
	for i := 0; i < collections; i++ {
		pk := fmt.Sprintf("collection-%04d", i)
		if err := add(map[string]types.AttributeValue{"pk": s(pk), "sk": s("#static"), "collection": s(pk)}); err != nil {
			return err
		}
		for j := 0; j < 1+i%items; j++ {
			if err := add(map[string]types.AttributeValue{"pk": s(pk), "sk": s(fmt.Sprintf("item-%05d", j)), "body": body}); err != nil {
				return err
			}
		}
	}
	return flush()
}
