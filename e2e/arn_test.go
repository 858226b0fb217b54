package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// TestTableNameARNs: since March 2024 DynamoDB accepts a table's ARN
// wherever an operation takes a TableName of an existing table (AWS's API
// reference for GetItem, Query, DescribeTable...: "You can also provide
// the Amazon Resource Name (ARN) of the table in this parameter"; the
// developer guide's "DynamoDB API operations supported by resource-based
// policies" speaks of table name overloading). The ARN names one table of
// one account in one region; before, dynago ignored all but the name.
//
//   - An ARN of this server's region and account works as the name does,
//     in single-item operations, batches, transactions and DDL.
//   - An ARN of another region or account names a table that is not on
//     this endpoint: ResourceNotFoundException, with each operation's own
//     message. (On AWS a cross-account request also needs a resource-based
//     policy, which dynago, having no IAM, does not model.)
//   - An index ARN, a stream ARN and a malformed ARN are refused with a
//     ValidationException (recorded from Amazon DynamoDB through the AWS
//     CLI in ExtendDB pull request 200). DynamoDB's message for these is
//     not recorded; dynago uses DynamoDB's words for the same mistake in a
//     ResourceArn, "Invalid TableArn: Invalid ResourceArn provided as
//     input ...", so only the type is pinned as DynamoDB's.
func TestTableNameARNs(t *testing.T) {
	s, c := start(t)
	createHash(t, c, "arnt", types.ScalarAttributeTypeS)
	arn := tableARN("arnt")

	// The table's own ARN works everywhere.
	put(t, c, arn, item{"pk": S("a"), "v": N("1")})
	if got := get(t, c, arn, item{"pk": S("a")}); render(got["v"]) != render(N("1")) {
		t.Fatalf("GetItem by ARN: %s", renderItem(got))
	}
	if d := describe(t, c, arn); aws.ToString(d.TableName) != "arnt" || aws.ToString(d.TableArn) != arn {
		t.Fatalf("DescribeTable by ARN: %s %s", aws.ToString(d.TableName), aws.ToString(d.TableArn))
	}
	if _, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		arn: {{PutRequest: &types.PutRequest{Item: item{"pk": S("b")}}}},
	}}); err != nil {
		t.Fatalf("BatchWriteItem by ARN: %v", err)
	}
	if _, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(arn), Item: item{"pk": S("c")}}},
	}}); err != nil {
		t.Fatalf("TransactWriteItems by ARN: %v", err)
	}
	// The same item named once by name and once by ARN is one item.
	_, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(arn), Item: item{"pk": S("d")}}},
		{Delete: &types.Delete{TableName: aws.String("arnt"), Key: item{"pk": S("d")}}},
	}})
	wantValidation(t, err, "Transaction request cannot include multiple operations on one item")

	// Another region or account: not a table of this endpoint.
	other := []string{
		"arn:aws:dynamodb:eu-west-1:" + testserver.AccountID + ":table/arnt",
		"arn:aws:dynamodb:" + testserver.Region + ":111122223333:table/arnt",
	}
	for _, a := range other {
		_, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String(a), Key: item{"pk": S("a")}})
		wantErr(t, err, "ResourceNotFoundException", "Requested resource not found")
		_, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String(a), Item: item{"pk": S("x")}})
		wantErr(t, err, "ResourceNotFoundException", "Requested resource not found")
		_, err = c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String(a)})
		wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Table: arnt not found")
		_, err = c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String(a)})
		wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Table: arnt not found")
		_, err = c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String(a), Item: item{"pk": S("x")}}},
		}})
		wantErr(t, err, "ResourceNotFoundException", "Requested resource not found")
	}
	if got := get(t, c, "arnt", item{"pk": S("x")}); got != nil {
		t.Fatalf("a write through a foreign ARN reached the table: %s", renderItem(got))
	}

	// Not a table's ARN.
	for _, a := range []string{
		arn + "/index/byX",
		arn + "/stream/2024-05-06T07:08:09.123",
		"arn:aws:dynamodb:" + testserver.Region + ":" + testserver.AccountID + ":arnt",
		"arn:aws:dynamodb:" + testserver.Region + ":" + testserver.AccountID + ":table/",
		"arn:aws:s3:::arnt",
		"arn:",
	} {
		msg := "Invalid TableArn: Invalid ResourceArn provided as input " + a
		_, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String(a), Key: item{"pk": S("a")}})
		wantValidation(t, err, msg)
		_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String(a), KeyConditionExpression: aws.String("pk = :p"),
			ExpressionAttributeValues: item{":p": S("a")}})
		wantValidation(t, err, msg)
		_, err = c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String(a)})
		wantValidation(t, err, msg)
		_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String(a), BillingMode: types.BillingModePayPerRequest})
		wantValidation(t, err, msg)
	}
	// Through raw HTTP too: a 400 with the type, never a 500.
	res := s.Raw(t, "Scan", `{"TableName":"`+arn+`/index/byX"}`)
	checkRaw(t, res, 400, "com.amazon.coral.validate#ValidationException", "Invalid TableArn: Invalid ResourceArn provided as input "+arn+"/index/byX")
}
