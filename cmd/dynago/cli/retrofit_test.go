package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

func TestRetrofitVerb(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	_, err := s.Client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("audit"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		_, err := s.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("audit"), Item: map[string]types.AttributeValue{
			"id": &types.AttributeValueMemberS{Value: fmt.Sprint(i)}, "r": &types.AttributeValueMemberS{Value: "res"}, "n": &types.AttributeValueMemberN{Value: fmt.Sprint(i)},
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"retrofit", "--endpoint", s.URL, "--table", "audit", "--attribute", "rn", "--template", "{r}#{n}"}
	var out, errb bytes.Buffer
	if code := Main(append(args, "--dry-run"), nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "50 to write") {
		t.Fatalf("dry run: exit %d\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := Main(args, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "50 written") {
		t.Fatalf("run: exit %d\n%s%s", code, out.String(), errb.String())
	}
	got, err := s.Client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("audit"), Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "7"}}})
	if err != nil || got.Item["rn"].(*types.AttributeValueMemberS).Value != "res#7" {
		t.Fatalf("item 7: %v %v", got.Item, err)
	}
	errb.Reset()
	if code := Main([]string{"retrofit", "--table", "audit"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "required") {
		t.Fatalf("missing flags: exit %d %s", code, errb.String())
	}
}
