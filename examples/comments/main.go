// Command comments runs scenario S3 of the seeds: product comments read
// through four global secondary indexes, each projecting a few attributes
// (INCLUDE) and sorted by the comment's date, newest first, 20 at a time.
//
//	go run ./cmd/dynago serve --in-memory &
//	go run ./examples/comments --endpoint http://127.0.0.1:8000
//
// The indexes, and the access patterns they serve:
//
//   - all (GSI4PK = PRODUCT#42): AP1, every comment of a product;
//   - byLang (GSI2PK = PRODUCT#42/en): AP2, one language;
//   - byLangAndRating (GSI1PK = PRODUCT#42/en/5): AP3a, one language and
//     some ratings, one query per rating run in parallel and merged;
//   - byRating (GSI3PK = PRODUCT#42/5): AP3b and AP3c, any language, one
//     or several ratings.
//
// AP4 reads a comment by its key, AP5 deletes one (it leaves the table
// and all four indexes in the same write), AP6 pages through AP1 with
// LastEvaluatedKey. The bill of a 20-comment Query is compared with a
// BatchGetItem of the same 20 comments.
//
// Finally toolkit/planner replaces the hand-written choice of index: the
// model below declares the dimensions and indexes once; the planner picks
// the index and keys for a language and a set of ratings (all five
// ratings need no rating index at all), explains its choice, merges the
// parallel queries newest first, and pages through them with a cursor
// that returns every comment once. Per-key counters, kept with atomic ADD
// as comments are written and deleted, let it skip empty keys.
package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/toolkit/planner"
)

const (
	table    = "ProductComments"
	product  = "PRODUCT#42"
	pageSize = 20
)

var languages = []string{"en", "fr", "de"}

func main() {
	endpoint := flag.String("endpoint", "http://127.0.0.1:8000", "DynamoDB endpoint URL; dynago's by default")
	n := flag.Int("comments", 150, "comments to write for the product")
	flag.Parse()
	c := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(*endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("x", "x", ""),
	})
	if _, err := run(context.Background(), c, os.Stdout, *n); err != nil {
		fmt.Fprintln(os.Stderr, "comments:", err)
		os.Exit(1)
	}
}

// Comment is one comment as written.
type Comment struct {
	ID       string
	Language string
	Rating   int
	Date     string
}

// comments returns n comments, one a minute, languages and ratings
// cycling at different rates so every combination occurs.
func comments(n int) []Comment {
	out := make([]Comment, n)
	for i := range out {
		out[i] = Comment{
			ID:       fmt.Sprintf("%06d", 100000+i),
			Language: languages[i%len(languages)],
			Rating:   1 + (i*7)%5,
			Date:     fmt.Sprintf("2024-05-%02dT%02d:%02d:00Z", 1+i/1440, (i/60)%24, i%60),
		}
	}
	return out
}

// Result holds what run read, as comment ids, for the test.
type Result struct {
	Written []Comment
	// Plans are the planner's explanations; PlannedAP3a is every page of
	// "en, rated 2, 3 or 5" through the planner's cursor, PlannedPages
	// their number, and EmptyPlan the plan for a language nobody wrote in.
	Plans                     []string
	PlannedAP3a               []string
	PlannedPages              int
	EmptyPlan                 string
	AP1, AP2, AP3a, AP3b      []string
	AP3c                      []string
	AP4                       string
	AP5Left                   int // index entries left for the deleted comment
	AP6                       []string
	AP6Pages                  int
	QueryUnits, BatchGetUnits float64
}

func run(ctx context.Context, c *dynamodb.Client, w io.Writer, n int) (*Result, error) {
	if err := createTable(ctx, c); err != nil {
		return nil, err
	}
	defer c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	res := &Result{Written: comments(n)}
	counters, err := createCounters(ctx, c)
	if err != nil {
		return nil, err
	}
	defer c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(counters.Table)})
	// The product's counters start at zero for every language the site
	// offers, Spanish included, which nobody has written in yet.
	for _, lang := range append(languages, "es") {
		for r := 1; r <= 5; r++ {
			if err := counters.Add(ctx, fmt.Sprintf("%s/%s/%d", product, lang, r), 0); err != nil {
				return nil, err
			}
		}
	}
	for _, cm := range res.Written {
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: commentItem(cm)}); err != nil {
			return nil, err
		}
		if err := counters.Add(ctx, fmt.Sprintf("%s/%s/%d", product, cm.Language, cm.Rating), 1); err != nil {
			return nil, err
		}
	}
	fmt.Fprintf(w, "%d comments written for %s\n", n, product)

	q := func(index, attr, key string, start map[string]types.AttributeValue, capacity bool) (*dynamodb.QueryOutput, error) {
		in := &dynamodb.QueryInput{
			TableName: aws.String(table), IndexName: aws.String(index),
			KeyConditionExpression:    aws.String(attr + " = :k"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":k": &types.AttributeValueMemberS{Value: key}},
			ScanIndexForward:          aws.Bool(false),
			Limit:                     aws.Int32(pageSize),
			ExclusiveStartKey:         start,
		}
		if capacity {
			in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		}
		return c.Query(ctx, in)
	}
	ids := func(items []map[string]types.AttributeValue) []string {
		var s []string
		for _, it := range items {
			s = append(s, it["id"].(*types.AttributeValueMemberS).Value)
		}
		return s
	}
	// merged runs one query per key in parallel and keeps the newest
	// pageSize comments of all of them.
	merged := func(index, attr string, keys []string) ([]string, error) {
		var mu sync.Mutex
		var all []map[string]types.AttributeValue
		var first error
		var wg sync.WaitGroup
		for _, k := range keys {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, err := q(index, attr, k, nil, false)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					first = err
					return
				}
				all = append(all, out.Items...)
			}()
		}
		wg.Wait()
		if first != nil {
			return nil, first
		}
		sort.Slice(all, func(i, j int) bool {
			return all[i]["GSISK"].(*types.AttributeValueMemberS).Value > all[j]["GSISK"].(*types.AttributeValueMemberS).Value
		})
		if len(all) > pageSize {
			all = all[:pageSize]
		}
		return ids(all), nil
	}

	out, err := q("all", "GSI4PK", product, nil, true)
	if err != nil {
		return nil, err
	}
	res.AP1, res.QueryUnits = ids(out.Items), *out.ConsumedCapacity.CapacityUnits
	fmt.Fprintf(w, "AP1 newest %d comments: %v ... (%.1f read units)\n", len(res.AP1), res.AP1[:3], res.QueryUnits)
	if out, err = q("byLang", "GSI2PK", product+"/en", nil, false); err != nil {
		return nil, err
	}
	res.AP2 = ids(out.Items)
	fmt.Fprintf(w, "AP2 newest in en: %v ...\n", res.AP2[:3])
	if res.AP3a, err = merged("byLangAndRating", "GSI1PK", []string{product + "/en/2", product + "/en/3", product + "/en/5"}); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "AP3a en rated 2, 3 or 5: %v ...\n", res.AP3a[:3])
	if out, err = q("byRating", "GSI3PK", product+"/2", nil, false); err != nil {
		return nil, err
	}
	res.AP3b = ids(out.Items)
	fmt.Fprintf(w, "AP3b rated 2: %v ...\n", res.AP3b[:3])
	if res.AP3c, err = merged("byRating", "GSI3PK", []string{product + "/3", product + "/5"}); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "AP3c rated 3 or 5: %v ...\n", res.AP3c[:3])

	// The same 20 comments read one by one cost at least a unit each.
	var keys []map[string]types.AttributeValue
	for _, id := range res.AP1 {
		keys = append(keys, key(id))
	}
	bg, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
		RequestItems:           map[string]types.KeysAndAttributes{table: {Keys: keys}},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		return nil, err
	}
	res.BatchGetUnits = *bg.ConsumedCapacity[0].CapacityUnits
	fmt.Fprintf(w, "the same %d comments by BatchGetItem: %.1f read units\n", len(keys), res.BatchGetUnits)

	victim := res.AP1[0]
	get, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key(victim)})
	if err != nil {
		return nil, err
	}
	res.AP4 = get.Item["id"].(*types.AttributeValueMemberS).Value
	fmt.Fprintf(w, "AP4 comment %s: %q\n", res.AP4, get.Item["title"].(*types.AttributeValueMemberS).Value)
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key(victim)}); err != nil {
		return nil, err
	}
	it := get.Item
	if err := counters.Add(ctx, it["GSI1PK"].(*types.AttributeValueMemberS).Value, -1); err != nil {
		return nil, err
	}
	for index, attr := range map[string]string{"all": "GSI4PK", "byLang": "GSI2PK", "byRating": "GSI3PK", "byLangAndRating": "GSI1PK"} {
		out, err := c.Query(ctx, &dynamodb.QueryInput{
			TableName: aws.String(table), IndexName: aws.String(index),
			KeyConditionExpression:    aws.String(attr + " = :k AND GSISK = :d"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":k": it[attr], ":d": it["GSISK"]},
		})
		if err != nil {
			return nil, err
		}
		res.AP5Left += int(out.Count)
	}
	fmt.Fprintf(w, "AP5 deleted %s: %d index entries left\n", victim, res.AP5Left)

	var start map[string]types.AttributeValue
	for {
		out, err := q("all", "GSI4PK", product, start, false)
		if err != nil {
			return nil, err
		}
		res.AP6 = append(res.AP6, ids(out.Items)...)
		res.AP6Pages++
		if out.LastEvaluatedKey == nil {
			break
		}
		start = out.LastEvaluatedKey
	}
	fmt.Fprintf(w, "AP6 %d comments in %d pages of %d\n", len(res.AP6), res.AP6Pages, pageSize)

	if err := planned(ctx, c, w, counters, res); err != nil {
		return nil, err
	}
	return res, nil
}

// model declares the table's dimensions and indexes for the planner. It
// is the file "dynago plan --model examples/comments/model.json" reads.
//
//go:embed model.json
var model string

// planned runs the access patterns through toolkit/planner.
func planned(ctx context.Context, c *dynamodb.Client, w io.Writer, counters *planner.Counters, res *Result) error {
	m, err := planner.ParseModel([]byte(model))
	if err != nil {
		return err
	}
	pl := &planner.Planner{Model: m, Client: c, Counts: counters.Counts}
	for _, where := range []map[string][]string{
		{"product": {product}},
		{"product": {product}, "language": {"en"}, "rating": {"1", "2", "3", "4", "5"}},
		{"product": {product}, "rating": {"3", "5"}},
	} {
		p, err := pl.Plan(ctx, planner.Request{Where: where, PageSize: pageSize})
		if err != nil {
			return err
		}
		res.Plans = append(res.Plans, p.String())
		fmt.Fprintln(w, "plan:", p)
	}
	req := planner.Request{Where: map[string][]string{"product": {product}, "language": {"en"}, "rating": {"2", "3", "5"}}, PageSize: pageSize}
	for {
		page, err := pl.Run(ctx, req)
		if err != nil {
			return err
		}
		if res.PlannedPages == 0 {
			fmt.Fprintln(w, "plan:", page.Plan)
		}
		res.PlannedPages++
		for _, it := range page.Items {
			res.PlannedAP3a = append(res.PlannedAP3a, it["id"].(*types.AttributeValueMemberS).Value)
		}
		fmt.Fprintf(w, "  page %d: %d comments, read %d items in %d queries\n", res.PlannedPages, len(page.Items), page.Read, page.Queries)
		if page.Cursor == "" {
			break
		}
		req.Cursor = page.Cursor
	}
	p, err := pl.Plan(ctx, planner.Request{Where: map[string][]string{"product": {product}, "language": {"es"}, "rating": {"4", "5"}}, PageSize: pageSize})
	if err != nil {
		return err
	}
	res.EmptyPlan = p.String()
	fmt.Fprintln(w, "plan:", p)
	return nil
}

// createCounters creates the table of per-key comment counts.
func createCounters(ctx context.Context, c *dynamodb.Client) (*planner.Counters, error) {
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("ProductCommentCounts"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("key"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("key"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		return nil, err
	}
	return &planner.Counters{Client: c, Table: "ProductCommentCounts", KeyAttr: "key", CountAttr: "comments"}, nil
}

func key(id string) map[string]types.AttributeValue {
	k := &types.AttributeValueMemberS{Value: "COMMENT#" + id}
	return map[string]types.AttributeValue{"PK": k, "SK": k}
}

func commentItem(cm Comment) map[string]types.AttributeValue {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	it := key(cm.ID)
	it["id"] = s(cm.ID)
	it["language"] = s(cm.Language)
	it["rating"] = &types.AttributeValueMemberN{Value: fmt.Sprint(cm.Rating)}
	it["title"] = s("Comment " + cm.ID)
	it["username"] = s(fmt.Sprint("user", cm.ID[4:]))
	it["text"] = s("A comment long enough that projecting it into every index would cost real storage and read capacity.")
	it["GSI1PK"] = s(fmt.Sprintf("%s/%s/%d", product, cm.Language, cm.Rating))
	it["GSI2PK"] = s(product + "/" + cm.Language)
	it["GSI3PK"] = s(fmt.Sprintf("%s/%d", product, cm.Rating))
	it["GSI4PK"] = s(product)
	it["GSISK"] = s(cm.Date)
	return it
}

func createTable(ctx context.Context, c *dynamodb.Client) error {
	str := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	gsi := func(name, pk string) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{
			IndexName: aws.String(name),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("GSISK"), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"id", "language", "rating", "title", "username"}},
		}
	}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{str("PK"), str("SK"), str("GSI1PK"), str("GSI2PK"), str("GSI3PK"), str("GSI4PK"), str("GSISK")},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			gsi("byLangAndRating", "GSI1PK"), gsi("byLang", "GSI2PK"), gsi("byRating", "GSI3PK"), gsi("all", "GSI4PK"),
		},
	})
	return err
}
