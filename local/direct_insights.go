package local

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/dynamo"
)

// Contributor Insights on the direct path, converted as the protocol
// decoder reads the SDK's JSON for them
// (server/internal/protocol/insights.go).

// DescribeContributorInsights is
// (*dynamodb.Client).DescribeContributorInsights on the engine.
func (c *Direct) DescribeContributorInsights(ctx context.Context, in *dynamodb.DescribeContributorInsightsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeContributorInsightsOutput, error) {
	var req dynamo.DescribeContributorInsightsInput
	return call(&c.conn, ctx, "DescribeContributorInsights", in, optFns, (*dynamodb.Client).DescribeContributorInsights, func(in *dynamodb.DescribeContributorInsightsInput) bool {
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		req.IndexName, _ = str(in.IndexName)
		return validInput(in, c.limit)
	}, func() (*dynamodb.DescribeContributorInsightsOutput, error) {
		out, err := c.db.DescribeContributorInsights(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.DescribeContributorInsightsOutput{
			TableName:                   optString(out.TableName),
			IndexName:                   optString(out.IndexName),
			ContributorInsightsRuleList: out.ContributorInsightsRuleList,
			ContributorInsightsStatus:   types.ContributorInsightsStatus(out.ContributorInsightsStatus),
			ContributorInsightsMode:     types.ContributorInsightsMode(out.ContributorInsightsMode),
			LastUpdateDateTime:          fromTime(out.LastUpdateDateTime),
		}, nil
	})
}

// UpdateContributorInsights is
// (*dynamodb.Client).UpdateContributorInsights on the engine.
func (c *Direct) UpdateContributorInsights(ctx context.Context, in *dynamodb.UpdateContributorInsightsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateContributorInsightsOutput, error) {
	var req dynamo.UpdateContributorInsightsInput
	return call(&c.conn, ctx, "UpdateContributorInsights", in, optFns, (*dynamodb.Client).UpdateContributorInsights, func(in *dynamodb.UpdateContributorInsightsInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		req.IndexName, _ = str(in.IndexName)
		req.ContributorInsightsAction = string(in.ContributorInsightsAction)
		req.ContributorInsightsMode = string(in.ContributorInsightsMode)
		return true
	}, func() (*dynamodb.UpdateContributorInsightsOutput, error) {
		out, err := c.db.UpdateContributorInsights(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.UpdateContributorInsightsOutput{
			TableName:                 optString(out.TableName),
			IndexName:                 optString(out.IndexName),
			ContributorInsightsStatus: types.ContributorInsightsStatus(out.ContributorInsightsStatus),
			ContributorInsightsMode:   types.ContributorInsightsMode(out.ContributorInsightsMode),
		}, nil
	})
}

// ListContributorInsights is (*dynamodb.Client).ListContributorInsights
// on the engine.
func (c *Direct) ListContributorInsights(ctx context.Context, in *dynamodb.ListContributorInsightsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ListContributorInsightsOutput, error) {
	var req dynamo.ListContributorInsightsInput
	return call(&c.conn, ctx, "ListContributorInsights", in, optFns, (*dynamodb.Client).ListContributorInsights, func(in *dynamodb.ListContributorInsightsInput) bool {
		req.TableName, _ = str(in.TableName)
		req.NextToken, _ = str(in.NextToken)
		if in.MaxResults != 0 {
			n := in.MaxResults
			req.MaxResults = &n
		}
		return validInput(in, c.limit)
	}, func() (*dynamodb.ListContributorInsightsOutput, error) {
		out, err := c.db.ListContributorInsights(&req)
		if err != nil {
			return nil, err
		}
		res := &dynamodb.ListContributorInsightsOutput{NextToken: optString(out.NextToken),
			ContributorInsightsSummaries: make([]types.ContributorInsightsSummary, len(out.ContributorInsightsSummaries))}
		for i, s := range out.ContributorInsightsSummaries {
			res.ContributorInsightsSummaries[i] = types.ContributorInsightsSummary{
				TableName:                 optString(s.TableName),
				IndexName:                 optString(s.IndexName),
				ContributorInsightsStatus: types.ContributorInsightsStatus(s.ContributorInsightsStatus),
				ContributorInsightsMode:   types.ContributorInsightsMode(s.ContributorInsightsMode),
			}
		}
		return res, nil
	})
}
