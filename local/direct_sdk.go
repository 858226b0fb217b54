package local

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// The operations the direct client leaves to the SDK's client on the
// in-process Transport: tables, Time to Live, tags, limits and endpoints.
// They are the control plane: what the SDK's stack costs them matters
// little, and their answers are the server's exactly.

// CreateTable is (*dynamodb.Client).CreateTable.
func (c *Direct) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	return c.sdk.CreateTable(ctx, in, optFns...)
}

// DescribeTable is (*dynamodb.Client).DescribeTable.
func (c *Direct) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	return c.sdk.DescribeTable(ctx, in, optFns...)
}

// UpdateTable is (*dynamodb.Client).UpdateTable.
func (c *Direct) UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error) {
	return c.sdk.UpdateTable(ctx, in, optFns...)
}

// DeleteTable is (*dynamodb.Client).DeleteTable.
func (c *Direct) DeleteTable(ctx context.Context, in *dynamodb.DeleteTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error) {
	return c.sdk.DeleteTable(ctx, in, optFns...)
}

// ListTables is (*dynamodb.Client).ListTables.
func (c *Direct) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	return c.sdk.ListTables(ctx, in, optFns...)
}

// UpdateTimeToLive is (*dynamodb.Client).UpdateTimeToLive.
func (c *Direct) UpdateTimeToLive(ctx context.Context, in *dynamodb.UpdateTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error) {
	return c.sdk.UpdateTimeToLive(ctx, in, optFns...)
}

// DescribeTimeToLive is (*dynamodb.Client).DescribeTimeToLive.
func (c *Direct) DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	return c.sdk.DescribeTimeToLive(ctx, in, optFns...)
}

// TagResource is (*dynamodb.Client).TagResource.
func (c *Direct) TagResource(ctx context.Context, in *dynamodb.TagResourceInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TagResourceOutput, error) {
	return c.sdk.TagResource(ctx, in, optFns...)
}

// UntagResource is (*dynamodb.Client).UntagResource.
func (c *Direct) UntagResource(ctx context.Context, in *dynamodb.UntagResourceInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UntagResourceOutput, error) {
	return c.sdk.UntagResource(ctx, in, optFns...)
}

// ListTagsOfResource is (*dynamodb.Client).ListTagsOfResource.
func (c *Direct) ListTagsOfResource(ctx context.Context, in *dynamodb.ListTagsOfResourceInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ListTagsOfResourceOutput, error) {
	return c.sdk.ListTagsOfResource(ctx, in, optFns...)
}

// DescribeLimits is (*dynamodb.Client).DescribeLimits.
func (c *Direct) DescribeLimits(ctx context.Context, in *dynamodb.DescribeLimitsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeLimitsOutput, error) {
	return c.sdk.DescribeLimits(ctx, in, optFns...)
}

// DescribeEndpoints is (*dynamodb.Client).DescribeEndpoints.
func (c *Direct) DescribeEndpoints(ctx context.Context, in *dynamodb.DescribeEndpointsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeEndpointsOutput, error) {
	return c.sdk.DescribeEndpoints(ctx, in, optFns...)
}
