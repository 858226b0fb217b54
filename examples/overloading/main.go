// Command overloading runs scenario S5 of the seeds, index overloading:
// one global secondary index whose sort key attribute, index1, holds
// values of several namespaces ("dog:command:sit",
// "cat:treeclimbed:elm", "parrot:words:000003", "vet:visit:2024-03-02"),
// queried per namespace with begins_with and, over zero-padded numbers
// and ISO-8601 dates, with BETWEEN. Items without index1 are not in the
// index at all (it is sparse).
//
// It then shows the limits DynamoDB enforces on indexes, with DynamoDB's
// errors: at most 5 local secondary indexes (and only at CreateTable:
// UpdateTable has no way to add one), at most 20 global secondary
// indexes, and key attributes of type S, N or B only.
//
//	go run ./cmd/dynago serve --in-memory &
//	go run ./examples/overloading --endpoint http://127.0.0.1:8000
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

const table = "Animals"

func main() {
	endpoint := flag.String("endpoint", "http://127.0.0.1:8000", "DynamoDB endpoint URL; dynago's by default")
	flag.Parse()
	c := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(*endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("x", "x", ""),
	})
	if _, err := run(context.Background(), c, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "overloading:", err)
		os.Exit(1)
	}
}

// values are the index1 values written, one item each.
var values = []string{
	"dog:command:roll over", "dog:command:sit", "dog:command:beg",
	"cat:treeclimbed:spruce", "cat:treeclimbed:elm", "cat:treeclimbed:oak",
	"parrot:words:000003", "parrot:words:000101", "parrot:words:000201",
	"vet:visit:2023-12-30", "vet:visit:2024-01-05", "vet:visit:2024-03-02", "vet:visit:2024-04-01",
}

// Result holds the answers, for the test: index1 values per question,
// and the messages of the refused definitions.
type Result struct {
	Answers map[string][]string
	Errors  map[string]string
	Indexed int64
}

func run(ctx context.Context, c *dynamodb.Client, w io.Writer) (*Result, error) {
	res := &Result{Answers: map[string][]string{}, Errors: map[string]string{}}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(table),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("kind"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("index1"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: aws.String("overloaded"),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("kind"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("index1"), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
	})
	if err != nil {
		return nil, err
	}
	defer c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	for i, v := range values {
		it := map[string]types.AttributeValue{"id": s(fmt.Sprint("animal-", i)), "kind": s("animal"), "index1": s(v)}
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			return nil, err
		}
	}
	// An item without index1 is not in the index.
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{"id": s("goldfish"), "kind": s("animal")}}); err != nil {
		return nil, err
	}

	ask := func(name, cond string, vals ...string) error {
		av := map[string]types.AttributeValue{":k": s("animal")}
		for i, v := range vals {
			av[fmt.Sprintf(":v%d", i)] = s(v)
		}
		out, err := c.Query(ctx, &dynamodb.QueryInput{
			TableName: aws.String(table), IndexName: aws.String("overloaded"),
			KeyConditionExpression: aws.String("kind = :k AND " + cond), ExpressionAttributeValues: av,
		})
		if err != nil {
			return err
		}
		var got []string
		for _, it := range out.Items {
			got = append(got, it["index1"].(*types.AttributeValueMemberS).Value)
		}
		res.Answers[name] = got
		fmt.Fprintf(w, "%-28s %v\n", name+":", got)
		return nil
	}
	for _, q := range []struct {
		name, cond string
		vals       []string
	}{
		{"dog commands", "begins_with(index1, :v0)", []string{"dog:command:"}},
		{"trees cats climbed", "begins_with(index1, :v0)", []string{"cat:treeclimbed:"}},
		{"parrots with 2-5 words", "index1 BETWEEN :v0 AND :v1", []string{"parrot:words:000002", "parrot:words:000005"}},
		{"parrots with over 5 words", "index1 BETWEEN :v0 AND :v1", []string{"parrot:words:000006", "parrot:words:999999"}},
		{"vet visits in Q1 2024", "index1 BETWEEN :v0 AND :v1", []string{"vet:visit:2024-01-01", "vet:visit:2024-03-31"}},
	} {
		if err := ask(q.name, q.cond, q.vals...); err != nil {
			return nil, err
		}
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return nil, err
	}
	res.Indexed = *d.Table.GlobalSecondaryIndexes[0].ItemCount
	fmt.Fprintf(w, "index holds %d of %d items\n", res.Indexed, len(values)+1)

	// The limits.
	refuse := func(name string, in *dynamodb.CreateTableInput) error {
		_, err := c.CreateTable(ctx, in)
		var ae smithy.APIError
		if !errors.As(err, &ae) {
			return fmt.Errorf("%s: got %v, want an error", name, err)
		}
		res.Errors[name] = ae.ErrorMessage()
		fmt.Fprintf(w, "%s: %s: %s\n", name, ae.ErrorCode(), ae.ErrorMessage())
		return nil
	}
	base := func() *dynamodb.CreateTableInput {
		return &dynamodb.CreateTableInput{
			TableName:   aws.String("Limits"),
			BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{
				{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
				{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
				{AttributeName: aws.String("a"), AttributeType: types.ScalarAttributeTypeS},
			},
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
			},
		}
	}
	in := base()
	for i := range 6 {
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
			IndexName: aws.String(fmt.Sprint("lsi", i)),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("a"), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		})
	}
	if err := refuse("six LSIs", in); err != nil {
		return nil, err
	}
	in = base()
	for i := range 21 {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName:  aws.String(fmt.Sprint("gsi", i)),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("a"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		})
	}
	if err := refuse("21 GSIs", in); err != nil {
		return nil, err
	}
	in = base()
	in.AttributeDefinitions[2].AttributeType = "BOOL"
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
		IndexName:  aws.String("byBool"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("a"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
	}}
	if err := refuse("BOOL key", in); err != nil {
		return nil, err
	}
	return res, nil
}
