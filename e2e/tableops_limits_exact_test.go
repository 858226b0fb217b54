package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// TestTableOpsCapacityCaps: a table's provisioned throughput and each
// global secondary index's are held to DescribeLimits' per-table maximum
// of 40000 apart, with LimitExceededException naming the account's
// region (the ack-api-quirks lab, DDB-TABLE-170, recorded 2026-10-08:
// 40001 refused in CreateTable for the table and for an index, and in
// UpdateTable for the table; table 39900 with an index of 200, and table
// 1 with an index of 40000, accepted).
func TestTableOpsCapacityCaps(t *testing.T) {
	_, c := start(t)
	const tail = " Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits."
	pt := func(r, w int64) *types.ProvisionedThroughput {
		return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(r), WriteCapacityUnits: aws.Int64(w)}
	}
	create := func(name string, table, index *types.ProvisionedThroughput) error {
		_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String(name),
			AttributeDefinitions: defs("pk", "S", "g", "S"), KeySchema: ks("pk"), ProvisionedThroughput: table,
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi1"), KeySchema: ks("g"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}, ProvisionedThroughput: index}}})
		return err
	}
	region := testserver.Region
	wantErr(t, create("capt", pt(40001, 1), pt(1, 1)), "LimitExceededException",
		"The requested ReadCapacityUnits, 40001, is above the per table maximum for the account in "+region+". Per table maximum: 40000."+tail)
	wantErr(t, create("capt", pt(1, 40001), pt(1, 1)), "LimitExceededException",
		"The requested WriteCapacityUnits, 40001, is above the per table maximum for the account in "+region+". Per table maximum: 40000."+tail)
	wantErr(t, create("capt", pt(1, 1), pt(40001, 1)), "LimitExceededException",
		"The requested ReadCapacityUnits for index gsi1, 40001, is above the per index maximum for the account in "+region+". Per table maximum: 40000."+tail)
	if _, err := c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("capt")}); err == nil {
		t.Fatal("a refused CreateTable created its table")
	}
	if err := create("sum", pt(39900, 1), pt(200, 1)); err != nil {
		t.Fatalf("table 39900 with an index of 200: %v", err)
	}
	if err := create("full", pt(40000, 40000), pt(40000, 40000)); err != nil {
		t.Fatalf("table and index at the cap: %v", err)
	}

	_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("full"), ProvisionedThroughput: pt(40001, 40000)})
	wantErr(t, err, "LimitExceededException",
		"The requested ReadCapacityUnits, 40001, is above the per table maximum for the account in "+region+". Per table maximum: 40000."+tail)
	if d := describe(t, c, "full"); aws.ToInt64(d.ProvisionedThroughput.ReadCapacityUnits) != 40000 || d.TableStatus != types.TableStatusActive {
		t.Fatalf("after the refused update: %s, %+v", d.TableStatus, d.ProvisionedThroughput)
	}
	_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("sum"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
			IndexName: aws.String("gsi1"), ProvisionedThroughput: pt(200, 40001)}}}})
	wantErr(t, err, "LimitExceededException",
		"The requested WriteCapacityUnits for index gsi1, 40001, is above the per index maximum for the account in "+region+". Per table maximum: 40000."+tail)
}
