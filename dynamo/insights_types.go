package dynamo

import "time"

// CloudWatch Contributor Insights for DynamoDB: DescribeContributorInsights,
// UpdateContributorInsights and ListContributorInsights, member for member
// as AWS's API reference has them.

// Contributor Insights' statuses, actions and modes.
const (
	ContributorInsightsEnabling  = "ENABLING"
	ContributorInsightsEnabled   = "ENABLED"
	ContributorInsightsDisabling = "DISABLING"
	ContributorInsightsDisabled  = "DISABLED"

	ContributorInsightsActionEnable  = "ENABLE"
	ContributorInsightsActionDisable = "DISABLE"

	ContributorInsightsModeAccessedAndThrottled = "ACCESSED_AND_THROTTLED_KEYS"
	ContributorInsightsModeThrottled            = "THROTTLED_KEYS"
)

// DescribeContributorInsightsInput is DescribeContributorInsights' request.
type DescribeContributorInsightsInput struct {
	// NoTableName records that the request had no TableName member, or a
	// null one. The zero value means present.
	NoTableName bool
	TableName   string
	IndexName   string
}

// DescribeContributorInsightsOutput is DescribeContributorInsights'
// response.
type DescribeContributorInsightsOutput struct {
	TableName                   string
	IndexName                   string
	ContributorInsightsRuleList []string
	ContributorInsightsStatus   string
	ContributorInsightsMode     string
	LastUpdateDateTime          time.Time
}

// UpdateContributorInsightsInput is UpdateContributorInsights' request.
type UpdateContributorInsightsInput struct {
	NoTableName               bool
	TableName                 string
	IndexName                 string
	ContributorInsightsAction string
	ContributorInsightsMode   string
}

// UpdateContributorInsightsOutput is UpdateContributorInsights' response.
type UpdateContributorInsightsOutput struct {
	TableName                 string
	IndexName                 string
	ContributorInsightsStatus string
	ContributorInsightsMode   string
}

// ListContributorInsightsInput is ListContributorInsights' request.
type ListContributorInsightsInput struct {
	TableName  string
	NextToken  string
	MaxResults *int32
}

// ContributorInsightsSummary is one table's or index's entry in
// ListContributorInsights' answer.
type ContributorInsightsSummary struct {
	TableName                 string
	IndexName                 string
	ContributorInsightsStatus string
	ContributorInsightsMode   string
}

// ListContributorInsightsOutput is ListContributorInsights' response.
type ListContributorInsightsOutput struct {
	ContributorInsightsSummaries []ContributorInsightsSummary
	NextToken                    string
}
