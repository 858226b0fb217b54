package retrofit

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// IndexClient is the part of the DynamoDB API CreateIndex uses.
type IndexClient interface {
	DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error)
}

// IndexSpec describes the GSI a retrofit prepares: partitioned by the
// derived attribute (a string), optionally sorted by another attribute.
type IndexSpec struct {
	Name     string
	HashKey  string                    // the derived attribute
	SortKey  string                    // "" for none
	SortType types.ScalarAttributeType // S, N or B; S if empty
	// Projection is ALL unless set.
	Projection *types.Projection
	// Poll is how often to check the backfill; 0 means a second.
	Poll time.Duration
	// OnStatus, if set, is called at each check with the index as
	// described.
	OnStatus func(types.GlobalSecondaryIndexDescription)
}

// CreateIndex adds the GSI to the table and waits until DynamoDB reports
// it ACTIVE, that is, until its backfill has indexed every existing item.
// An index of that name that already exists is waited for, not created
// again.
func CreateIndex(ctx context.Context, c IndexClient, table string, spec IndexSpec) error {
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return err
	}
	exists := false
	for _, g := range desc.Table.GlobalSecondaryIndexes {
		exists = exists || aws.ToString(g.IndexName) == spec.Name
	}
	if !exists {
		keys := []types.KeySchemaElement{{AttributeName: aws.String(spec.HashKey), KeyType: types.KeyTypeHash}}
		defs := []types.AttributeDefinition{{AttributeName: aws.String(spec.HashKey), AttributeType: types.ScalarAttributeTypeS}}
		if spec.SortKey != "" {
			typ := spec.SortType
			if typ == "" {
				typ = types.ScalarAttributeTypeS
			}
			keys = append(keys, types.KeySchemaElement{AttributeName: aws.String(spec.SortKey), KeyType: types.KeyTypeRange})
			defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(spec.SortKey), AttributeType: typ})
		}
		proj := spec.Projection
		if proj == nil {
			proj = &types.Projection{ProjectionType: types.ProjectionTypeAll}
		}
		create := &types.CreateGlobalSecondaryIndexAction{IndexName: aws.String(spec.Name), KeySchema: keys, Projection: proj}
		if desc.Table.BillingModeSummary == nil || desc.Table.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
			if pt := desc.Table.ProvisionedThroughput; pt != nil && aws.ToInt64(pt.ReadCapacityUnits) > 0 {
				create.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: pt.ReadCapacityUnits, WriteCapacityUnits: pt.WriteCapacityUnits}
			}
		}
		_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
			TableName:                   aws.String(table),
			AttributeDefinitions:        defs,
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: create}},
		})
		if err != nil {
			return fmt.Errorf("retrofit: create index %s: %w", spec.Name, err)
		}
	}
	poll := spec.Poll
	if poll <= 0 {
		poll = time.Second
	}
	for {
		desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		if err != nil {
			return err
		}
		for _, g := range desc.Table.GlobalSecondaryIndexes {
			if aws.ToString(g.IndexName) != spec.Name {
				continue
			}
			if spec.OnStatus != nil {
				spec.OnStatus(g)
			}
			if g.IndexStatus == types.IndexStatusActive {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}
