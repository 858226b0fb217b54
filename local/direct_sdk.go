package local

import (
	"context"
	"net/url"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// endpointHost is the Host header the SDK's client sdk sends: its base
// endpoint's host, "" when it has none (the address then comes from the
// SDK's endpoint resolution, which only its own path knows).
func endpointHost(sdk *dynamodb.Client) string {
	base := sdk.Options().BaseEndpoint
	if base == nil {
		return ""
	}
	u, err := url.Parse(*base)
	if err != nil {
		return ""
	}
	return u.Host
}

// DescribeEndpoints is (*dynamodb.Client).DescribeEndpoints on the
// engine. Its answer is the address the request is sent to, which for
// the direct client is its SDK client's base endpoint; without one, the
// request goes through the SDK.
func (c *Direct) DescribeEndpoints(ctx context.Context, in *dynamodb.DescribeEndpointsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeEndpointsOutput, error) {
	return call(&c.conn, ctx, "DescribeEndpoints", in, optFns, (*dynamodb.Client).DescribeEndpoints, func(*dynamodb.DescribeEndpointsInput) bool {
		return c.host != ""
	}, func() (*dynamodb.DescribeEndpointsOutput, error) {
		out, err := c.db.DescribeEndpoints(c.host)
		if err != nil {
			return nil, err
		}
		res := &dynamodb.DescribeEndpointsOutput{Endpoints: make([]types.Endpoint, len(out.Endpoints))}
		for i, e := range out.Endpoints {
			res.Endpoints[i] = types.Endpoint{Address: aws.String(e.Address), CachePeriodInMinutes: e.CachePeriodInMinutes}
		}
		return res, nil
	})
}
