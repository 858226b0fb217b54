package cli

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

func TestDistinctKeysVerb(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	_, err := s.Client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String("events"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("device"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("at"), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("device"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("at"), KeyType: types.KeyTypeRange},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for d := 0; d < 40; d++ {
		dev := fmt.Sprintf("dev-%02d", d)
		want = append(want, dev)
		for i := 0; i < 1+d%6; i++ {
			_, err := s.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("events"), Item: map[string]types.AttributeValue{
				"device": &types.AttributeValueMemberS{Value: dev}, "at": &types.AttributeValueMemberN{Value: fmt.Sprint(i)},
			}})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	var out, errb bytes.Buffer
	code := Main([]string{"distinct-keys", "--endpoint", s.URL, "--table", "events", "--segments", "3"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := strings.Fields(out.String())
	sort.Strings(got)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("printed %v", got)
	}
	if !strings.Contains(errb.String(), "40 partitions") || !strings.Contains(errb.String(), "read units") {
		t.Fatalf("summary: %s", errb.String())
	}

	errb.Reset()
	if code := Main([]string{"distinct-keys", "--endpoint", s.URL}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--table is required") {
		t.Fatalf("without --table: exit %d, %s", code, errb.String())
	}
	errb.Reset()
	if code := Main([]string{"distinct-keys", "--help"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "largest sort key") {
		t.Fatalf("--help: exit %d, %s", code, out.String())
	}
}
