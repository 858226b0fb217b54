package local

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// DescribeEndpoints is the one operation the direct client leaves to the
// SDK's client on the in-process Transport: its answer is the address the
// request was sent to (its Host), which only an HTTP request has.

// DescribeEndpoints is (*dynamodb.Client).DescribeEndpoints.
func (c *Direct) DescribeEndpoints(ctx context.Context, in *dynamodb.DescribeEndpointsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeEndpointsOutput, error) {
	return c.sdk.DescribeEndpoints(ctx, in, optFns...)
}
