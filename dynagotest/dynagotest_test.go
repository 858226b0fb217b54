package dynagotest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/dynagotest"
)

const ordersTable = `{"TableName":"Orders",
 "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
 "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
 "BillingMode":"PAY_PER_REQUEST"}`

// TestNewIsolatedInParallel gives 32 parallel subtests a database each,
// all with a table of the same name: each sees its own item only.
func TestNewIsolatedInParallel(t *testing.T) {
	for i := range 32 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			c := dynagotest.New(t)
			dynagotest.CreateTables(t, c, ordersTable)
			ctx := context.Background()
			mine := fmt.Sprint("item-", i)
			if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Orders"),
				Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: mine}}}); err != nil {
				t.Fatal(err)
			}
			out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("Orders")})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Items) != 1 || out.Items[0]["pk"].(*types.AttributeValueMemberS).Value != mine {
				t.Fatalf("subtest %d sees %v", i, out.Items)
			}
		})
	}
}

// TestCreateTablesCreateTableJSON creates a table from a file in the
// CreateTable request's JSON and checks what DescribeTable says of it.
func TestCreateTablesCreateTableJSON(t *testing.T) {
	t.Parallel()
	c := dynagotest.New(t)
	dynagotest.CreateTables(t, c, "testdata/orders.json", `[`+strings.ReplaceAll(ordersTable, "Orders", "Carts")+`,
		`+strings.ReplaceAll(ordersTable, "Orders", "Wishes")+`]`)
	ctx := context.Background()
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Orders")})
	if err != nil {
		t.Fatal(err)
	}
	tb := d.Table
	if tb.TableStatus != types.TableStatusActive || len(tb.KeySchema) != 2 || aws.ToString(tb.KeySchema[1].AttributeName) != "orderId" {
		t.Fatalf("Orders: status %s, key schema %+v", tb.TableStatus, tb.KeySchema)
	}
	if len(tb.GlobalSecondaryIndexes) != 1 || aws.ToString(tb.GlobalSecondaryIndexes[0].IndexName) != "byStatus" ||
		tb.GlobalSecondaryIndexes[0].Projection.ProjectionType != types.ProjectionTypeInclude ||
		len(tb.LocalSecondaryIndexes) != 1 || aws.ToString(tb.LocalSecondaryIndexes[0].IndexName) != "byPlacedAt" {
		t.Fatalf("Orders indexes: %+v, %+v", tb.GlobalSecondaryIndexes, tb.LocalSecondaryIndexes)
	}
	if tb.StreamSpecification == nil || !aws.ToBool(tb.StreamSpecification.StreamEnabled) || tb.LatestStreamArn == nil {
		t.Fatalf("Orders stream: %+v", tb.StreamSpecification)
	}
	tags, err := c.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: tb.TableArn})
	if err != nil || len(tags.Tags) != 1 || aws.ToString(tags.Tags[0].Value) != "checkout" {
		t.Fatalf("Orders tags: %+v, %v", tags, err)
	}
	list, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil || strings.Join(list.TableNames, ",") != "Carts,Orders,Wishes" {
		t.Fatalf("ListTables: %v, %v", list, err)
	}
}

// TestCreateTablesWorkbench creates the tables of a NoSQL Workbench
// model with their sample data and reads it through the indexes.
func TestCreateTablesWorkbench(t *testing.T) {
	t.Parallel()
	c := dynagotest.New(t)
	dynagotest.CreateTables(t, c, "testdata/library.workbench.json")
	ctx := context.Background()

	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("Books"), IndexName: aws.String("byAuthor"),
		KeyConditionExpression:    aws.String("author = :a"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":a": &types.AttributeValueMemberS{Value: "Ng"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Items) != 2 || q.Items[0]["title"].(*types.AttributeValueMemberS).Value != "Gears" {
		t.Fatalf("byAuthor Ng: %v", q.Items)
	}
	if _, ok := q.Items[0]["pages"]; ok {
		t.Fatal("a KEYS_ONLY index returned a non-key attribute")
	}

	// Every attribute type of the sample data arrived as written.
	g, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Books"), Key: map[string]types.AttributeValue{
		"shelf": &types.AttributeValueMemberS{Value: "A1"}, "isbn": &types.AttributeValueMemberS{Value: "978-0"}}})
	if err != nil {
		t.Fatal(err)
	}
	it := g.Item
	ed := it["editions"].(*types.AttributeValueMemberL).Value
	if it["pages"].(*types.AttributeValueMemberN).Value != "212" ||
		!bytes.Equal(it["scan"].(*types.AttributeValueMemberB).Value, []byte{0, 1, 2}) ||
		it["lent"].(*types.AttributeValueMemberBOOL).Value ||
		!it["note"].(*types.AttributeValueMemberNULL).Value ||
		len(it["tags"].(*types.AttributeValueMemberSS).Value) != 2 ||
		len(it["sizes"].(*types.AttributeValueMemberNS).Value) != 2 ||
		!bytes.Equal(it["covers"].(*types.AttributeValueMemberBS).Value[1], []byte{2}) ||
		len(ed) != 2 || !ed[1].(*types.AttributeValueMemberM).Value["revised"].(*types.AttributeValueMemberBOOL).Value {
		t.Fatalf("Books A1/978-0 read back as %#v", it)
	}

	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Loans")})
	if err != nil {
		t.Fatal(err)
	}
	if pt := d.Table.ProvisionedThroughput; pt == nil || aws.ToInt64(pt.ReadCapacityUnits) != 7 || aws.ToInt64(pt.WriteCapacityUnits) != 3 {
		t.Fatalf("Loans throughput %+v", d.Table.ProvisionedThroughput)
	}
	// The index's key types come from NonKeyAttributes.
	q, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("Loans"), IndexName: aws.String("byDue"),
		KeyConditionExpression:    aws.String("branch = :b"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":b": &types.AttributeValueMemberS{Value: "north"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Items) != 2 || q.Items[0]["member"].(*types.AttributeValueMemberS).Value != "m2" {
		t.Fatalf("byDue north (earliest due first): %v", q.Items)
	}
}

// TestServer talks to a loopback server with an SDK client over TCP, with
// plain HTTP, and with the AWS CLI when it is installed.
func TestServer(t *testing.T) {
	t.Parallel()
	url := dynagotest.Server(t)
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("URL %q", url)
	}
	c := dynamodb.New(dynamodb.Options{Region: "eu-west-1", BaseEndpoint: aws.String(url),
		Credentials: credentials.NewStaticCredentialsProvider("any", "any", "")})
	dynagotest.CreateTables(t, c, ordersTable)
	ctx := context.Background()
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Orders"),
		Item:                map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "p"}},
		ConditionExpression: aws.String("attribute_not_exists(pk)")}); err != nil {
		t.Fatal(err)
	}
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Orders"),
		Item:                map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "p"}},
		ConditionExpression: aws.String("attribute_not_exists(pk)")})
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		t.Fatalf("second conditional put: %v", err)
	}

	res, err := http.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.HasPrefix(string(body), "healthy: ") {
		t.Fatalf("GET /: %d %q", res.StatusCode, body)
	}

	if _, err := exec.LookPath("aws"); err != nil {
		t.Log("no AWS CLI on this machine: skipped its part")
		return
	}
	cmd := exec.Command("aws", "dynamodb", "get-item", "--endpoint-url", url, "--table-name", "Orders",
		"--key", `{"pk":{"S":"p"}}`, "--output", "json")
	cmd.Env = append(cmd.Environ(), "AWS_ACCESS_KEY_ID=any", "AWS_SECRET_ACCESS_KEY=any", "AWS_DEFAULT_REGION=us-east-1",
		"AWS_PAGER=", "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"S": "p"`) {
		t.Fatalf("aws dynamodb get-item: %v\n%s", err, out)
	}
}

// TestDirect creates tables with CreateTables through a direct client and
// reads back the item it wrote, which a second direct client on another
// database does not see.
func TestDirect(t *testing.T) {
	c := dynagotest.Direct(t)
	dynagotest.CreateTables(t, c, ordersTable)
	ctx := context.Background()
	key := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "o1"}}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Orders"), Item: key}); err != nil {
		t.Fatal(err)
	}
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Orders"), Key: key})
	if err != nil || out.Item == nil {
		t.Fatalf("GetItem: %v, %v", out, err)
	}
	other := dynagotest.Direct(t)
	_, err = other.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Orders"), Key: key})
	var rnf *types.ResourceNotFoundException
	if !errors.As(err, &rnf) {
		t.Fatalf("another database has the table: %v", err)
	}
}

// TestCreateTablesWorkbenchFacets: sample items kept in the facets'
// TableData, where NoSQL Workbench's exports keep each entity type's
// items (aws-samples/amazon-dynamodb-design-patterns,
// examples/an-online-shop/json/AnOnlineShop_facets.json), are written
// too. The fixture is toolkit/workbench's, in that layout.
func TestCreateTablesWorkbenchFacets(t *testing.T) {
	t.Parallel()
	c := dynagotest.New(t)
	dynagotest.CreateTables(t, c, "../toolkit/workbench/testdata/bakery.workbench.json")
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, tc := range []struct {
		name  string
		in    *dynamodb.QueryInput
		field string
		want  []string
	}{
		{"customer c#1's partition", &dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :v"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":v": s("c#1")}}, "SK", []string{"c#1", "o#7"}},
		{"byDay, by total", &dynamodb.QueryInput{IndexName: aws.String("byDay"), KeyConditionExpression: aws.String("#d = :v"),
			ExpressionAttributeNames:  map[string]string{"#d": "Day"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":v": s("2026-12-01")}}, "Total", []string{"3", "12.5"}},
	} {
		tc.in.TableName = aws.String("Bakery")
		out, err := c.Query(ctx, tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []string
		for _, it := range out.Items {
			switch v := it[tc.field].(type) {
			case *types.AttributeValueMemberS:
				got = append(got, v.Value)
			case *types.AttributeValueMemberN:
				got = append(got, v.Value)
			}
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
