package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// dynago serve --transient-delay: CreateTable answers CREATING, as
// DynamoDB does (AWS's API reference, TableDescription.TableStatus), and
// the SDK's TableExistsWaiter waits until the table is ACTIVE. The poll
// delays are short and the deadline a minute, so only a broken server
// fails this, never a slow machine.
func TestServeTransientDelay(t *testing.T) {
	p := testserver.StartProcess(t, "--in-memory", "--transient-delay", "300ms")
	c := p.Client()
	ctx := context.Background()
	out, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("waited"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if s := out.TableDescription.TableStatus; s != types.TableStatusCreating {
		t.Fatalf("CreateTable: TableStatus %s, want CREATING", s)
	}
	w := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay, o.MaxDelay = 20*time.Millisecond, 100*time.Millisecond
	})
	d, err := w.WaitForOutput(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("waited")}, time.Minute)
	if err != nil {
		t.Fatalf("TableExistsWaiter: %v\n%s", err, p.Log())
	}
	if s := d.Table.TableStatus; s != types.TableStatusActive {
		t.Fatalf("after the waiter: %s", s)
	}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("waited"),
		Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}}}); err != nil {
		t.Fatalf("PutItem once ACTIVE: %v", err)
	}
}

func TestServeTransientDelayFlag(t *testing.T) {
	var out, errb strings.Builder
	if code := Main([]string{"serve", "--help"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"-transient-delay", "CREATING", "as DynamoDB does", "0, the default"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("serve --help does not mention %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	errb.Reset()
	code := Main([]string{"serve", "--in-memory", "--port", "0", "--transient-delay", "-1s"}, strings.NewReader(""), &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "--transient-delay") {
		t.Fatalf("a negative delay: exit %d, stderr %q", code, errb.String())
	}
}
