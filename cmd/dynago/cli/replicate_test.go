package cli

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

func TestReplicateVerb(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	_, err := s.Client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("orders"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		t.Fatal(err)
	}
	put := func(i int) {
		t.Helper()
		_, err := s.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: map[string]types.AttributeValue{
			"id": &types.AttributeValueMemberS{Value: fmt.Sprint(i)}, "c": &types.AttributeValueMemberS{Value: "cust"}, "n": &types.AttributeValueMemberN{Value: fmt.Sprint(i)},
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 50; i++ {
		put(i)
	}
	var out, errb bytes.Buffer
	// Without a stream, and without --enable-stream: a clear refusal.
	if code := Main([]string{"replicate", "--endpoint-url", s.URL, "--source", "orders", "--target", "orders2"}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "--enable-stream") {
		t.Fatalf("no stream: exit %d\n%s%s", code, out.String(), errb.String())
	}
	cp := filepath.Join(t.TempDir(), "cp.json")
	args := []string{"replicate", "--endpoint-url", s.URL, "--source", "orders", "--target", "orders2", "--enable-stream",
		"--set", "cn={c}#{n}", "--checkpoint", cp, "--verify"}
	out.Reset()
	errb.Reset()
	if code := Main(args, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "50 copied") || !strings.Contains(out.String(), "50 match, 0 missing") {
		t.Fatalf("run: exit %d\n%s%s", code, out.String(), errb.String())
	}
	got, err := s.Client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders2"), Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "7"}}})
	if err != nil || got.Item["cn"].(*types.AttributeValueMemberS).Value != "cust#7" {
		t.Fatalf("item 7: %v %v", got.Item, err)
	}
	// Changes since: the same command catches up from the checkpoint.
	for i := 50; i < 60; i++ {
		put(i)
	}
	if _, err := s.Client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("orders"), Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "3"}}}); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := Main(args, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "resumed") || !strings.Contains(out.String(), "11 records applied") ||
		!strings.Contains(out.String(), "59 match, 0 missing") {
		t.Fatalf("catch-up: exit %d\n%s%s", code, out.String(), errb.String())
	}
	// A tampered target: verification fails with exit status 1 and says
	// where.
	if _, err := s.Client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("orders2"), Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "8"}}}); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if code := Main(args, nil, &out, &errb); code != 1 || !strings.Contains(out.String(), `missing id="8"`) || !strings.Contains(errb.String(), "differ in 1 item(s)") {
		t.Fatalf("tampered: exit %d\n%s%s", code, out.String(), errb.String())
	}
	if testing.Verbose() {
		t.Logf("%s%s", out.String(), errb.String())
	}
	errb.Reset()
	if code := Main([]string{"replicate", "--source", "orders"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "required") {
		t.Fatalf("missing flags: exit %d %s", code, errb.String())
	}
	errb.Reset()
	if code := Main([]string{"replicate", "--help"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "catch-up") {
		t.Fatalf("help: exit %d %s", code, out.String())
	}
}
