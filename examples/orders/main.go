// Command orders runs scenario S2 of the seeds, "orders": a single table
// holding users, their orders and the orders' items under composite sort
// keys, read with key conditions and filters, with the bill of each read.
//
//	go run ./cmd/dynago serve --in-memory &
//	go run ./examples/orders --endpoint http://127.0.0.1:8000
//
// It shows:
//
//   - A1, a user's profile: PK = USER#alex AND begins_with(SK, PROFILE)
//   - A2, a user's orders:  PK = USER#alex AND begins_with(SK, ORDER#)
//   - A4 by filter: the user's SHIPPED orders, read with A2's key condition
//     and a FilterExpression on Status. The bill counts every order read,
//     shipped or not: a filter saves bandwidth, not capacity.
//   - A5 by filter: all PLACED orders of every user, by a filtered Scan.
//     Pages stop at 1 MB of data read, so with few matches some pages come
//     back empty but with a LastEvaluatedKey, and every page is billed.
//
// Then, on a second table (indexes.go), the index-based forms: A3 by a
// GSI on the order id, A4-A6 by a composite OrderStatusDate sort key
// through an LSI and a GSI, the bill of an LSI read that fetches from the
// table, and a sparse PlacedId index.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const table = "UsersAndOrders"

func main() {
	endpoint := flag.String("endpoint", "http://127.0.0.1:8000", "DynamoDB endpoint URL; dynago's by default")
	users := flag.Int("users", 40, "number of users to create")
	orders := flag.Int("orders", 30, "orders per user")
	flag.Parse()
	c := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(*endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("x", "x", ""),
	})
	if _, err := run(context.Background(), c, os.Stdout, *users, *orders); err != nil {
		fmt.Fprintln(os.Stderr, "orders:", err)
		os.Exit(1)
	}
	if _, err := runIndexes(context.Background(), c, os.Stdout, min(*users, 5), *orders); err != nil {
		fmt.Fprintln(os.Stderr, "orders (indexes):", err)
		os.Exit(1)
	}
}

// statuses cycles through order states. Orders still PLACED are rare: one
// in ten, and only for the first two users, so most pages of the A5 scan
// find none.
var statuses = []string{"SHIPPED", "DELIVERED", "SHIPPED", "CANCELLED", "SHIPPED", "DELIVERED", "SHIPPED", "DELIVERED", "SHIPPED", "PLACED"}

func statusOf(user, order int) string {
	st := statuses[order%len(statuses)]
	if st == "PLACED" && user >= 2 {
		st = "DELIVERED"
	}
	return st
}

// Result holds what run measured, for the test.
type Result struct {
	Profile                 map[string]types.AttributeValue
	Orders, Shipped         int
	ShippedScanned          int32
	ShippedUnits            float64
	Placed, Pages, Empty    int
	ScanUnits, ScannedItems float64
}

// run sets up the table, runs the access patterns, prints what each read
// and cost, and deletes the table.
func run(ctx context.Context, c *dynamodb.Client, out io.Writer, users, orders int) (*Result, error) {
	var res Result
	if err := setUp(ctx, c, users, orders); err != nil {
		return nil, err
	}
	defer c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)})

	// A1: the profile.
	q, err := c.Query(ctx, &dynamodb.QueryInput{
		TableName:              aws.String(table),
		KeyConditionExpression: aws.String("PK = :u AND begins_with(SK, :p)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":u": &types.AttributeValueMemberS{Value: "USER#user000"}, ":p": &types.AttributeValueMemberS{Value: "PROFILE"},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("A1: %w", err)
	}
	if len(q.Items) == 1 {
		res.Profile = q.Items[0]
	}
	fmt.Fprintf(out, "A1 profile of user000: %d item\n", len(q.Items))

	// A2: the orders, newest first (order ids grow with time).
	p := dynamodb.NewQueryPaginator(c, &dynamodb.QueryInput{
		TableName:              aws.String(table),
		KeyConditionExpression: aws.String("PK = :u AND begins_with(SK, :o)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":u": &types.AttributeValueMemberS{Value: "USER#user000"}, ":o": &types.AttributeValueMemberS{Value: "ORDER#"},
		},
		ScanIndexForward: aws.Bool(false),
		Limit:            aws.Int32(20),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("A2: %w", err)
		}
		res.Orders += len(page.Items)
	}
	fmt.Fprintf(out, "A2 orders of user000: %d, newest first in pages of 20\n", res.Orders)

	// A4 by filter: shipped orders of one user. Status is a reserved word.
	q, err = c.Query(ctx, &dynamodb.QueryInput{
		TableName:                aws.String(table),
		KeyConditionExpression:   aws.String("PK = :u AND begins_with(SK, :o)"),
		FilterExpression:         aws.String("#s = :shipped"),
		ExpressionAttributeNames: map[string]string{"#s": "Status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":u": &types.AttributeValueMemberS{Value: "USER#user000"}, ":o": &types.AttributeValueMemberS{Value: "ORDER#"},
			":shipped": &types.AttributeValueMemberS{Value: "SHIPPED"},
		},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		return nil, fmt.Errorf("A4: %w", err)
	}
	res.Shipped, res.ShippedScanned = int(q.Count), q.ScannedCount
	res.ShippedUnits = aws.ToFloat64(q.ConsumedCapacity.CapacityUnits)
	fmt.Fprintf(out, "A4 shipped orders of user000: %d returned of %d read, billed %.1f read units for all %d\n",
		q.Count, q.ScannedCount, res.ShippedUnits, q.ScannedCount)

	// A5 by filter: every PLACED order, by a filtered Scan of the table.
	var start map[string]types.AttributeValue
	for {
		s, err := c.Scan(ctx, &dynamodb.ScanInput{
			TableName:                aws.String(table),
			FilterExpression:         aws.String("#s = :placed"),
			ExpressionAttributeNames: map[string]string{"#s": "Status"},
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":placed": &types.AttributeValueMemberS{Value: "PLACED"},
			},
			ExclusiveStartKey:      start,
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		if err != nil {
			return nil, fmt.Errorf("A5: %w", err)
		}
		res.Pages++
		if s.Count == 0 {
			res.Empty++
		}
		res.Placed += int(s.Count)
		res.ScannedItems += float64(s.ScannedCount)
		res.ScanUnits += aws.ToFloat64(s.ConsumedCapacity.CapacityUnits)
		if s.LastEvaluatedKey == nil {
			break
		}
		start = s.LastEvaluatedKey
	}
	fmt.Fprintf(out, "A5 placed orders of all users: %d found in %.0f items read, %d pages of at most 1 MB (%d empty), billed %.1f read units\n",
		res.Placed, res.ScannedItems, res.Pages, res.Empty, res.ScanUnits)
	return &res, nil
}

// setUp creates the table and writes users, orders and order items. Orders
// carry a note large enough that the table spans several megabytes.
func setUp(ctx context.Context, c *dynamodb.Client, users, orders int) error {
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(table),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange},
		},
	})
	if err != nil {
		return fmt.Errorf("create table: %w", err)
	}
	note := strings.Repeat("gift wrap, leave at the door. ", 100) // ~3 KB
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
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for u := 0; u < users; u++ {
		user := fmt.Sprintf("user%03d", u)
		if err := add(map[string]types.AttributeValue{"PK": s("USER#" + user), "SK": s("PROFILE"), "Email": s(user + "@example.com")}); err != nil {
			return err
		}
		for o := 0; o < orders; o++ {
			id := fmt.Sprintf("%s-%05d", user, o)
			status := statusOf(u, o)
			date := fmt.Sprintf("2023-%02d-%02d", 1+o%12, 1+o%28)
			if err := add(map[string]types.AttributeValue{
				"PK": s("USER#" + user), "SK": s("ORDER#" + id), "Status": s(status), "CreatedAt": s(date),
				"OrderStatusDate": s(status + "#" + date), "Note": s(note),
			}); err != nil {
				return err
			}
		}
	}
	return flush()
}
