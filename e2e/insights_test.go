package e2e

import (
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// insightsView is what a Contributor Insights answer says, in one
// comparable form: Describe's, Update's, or one List entry per line.
type insightsView struct {
	Table, Index, Status, Mode string
	Rules                      []string
	Updated                    string
	List                       []string
	Next                       string
}

func viewDescribe(o *dynamodb.DescribeContributorInsightsOutput) insightsView {
	v := insightsView{Table: aws.ToString(o.TableName), Index: aws.ToString(o.IndexName), Status: string(o.ContributorInsightsStatus),
		Mode: string(o.ContributorInsightsMode), Rules: o.ContributorInsightsRuleList}
	if o.LastUpdateDateTime != nil {
		v.Updated = strconv.FormatInt(o.LastUpdateDateTime.UnixMilli(), 10)
	}
	return v
}

func viewList(o *dynamodb.ListContributorInsightsOutput) insightsView {
	v := insightsView{List: []string{}, Next: aws.ToString(o.NextToken)}
	for _, s := range o.ContributorInsightsSummaries {
		v.List = append(v.List, aws.ToString(s.TableName)+"/"+aws.ToString(s.IndexName)+" "+string(s.ContributorInsightsStatus)+" "+string(s.ContributorInsightsMode))
	}
	return v
}

// TestContributorInsights walks a table and its global secondary index
// through Contributor Insights: never enabled (DISABLED), enabled
// (ENABLING, then ENABLED with its rules), listed, disabled (DISABLING,
// then DISABLED), and the refusals. Sources of each answer are next to
// its step; the server runs without a transient delay, so each change is
// done by the next request.
func TestContributorInsights(t *testing.T) {
	_, c := startFixed(t)
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:   aws.String("Music"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("album"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("Album-index"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("album"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	createHash(t, c, "Other", types.ScalarAttributeTypeS)

	ms := strconv.FormatInt(fixedNow.UnixMilli(), 10)
	describeCI := func(table, index string) func(local.API) (insightsView, error) {
		return func(c local.API) (insightsView, error) {
			in := &dynamodb.DescribeContributorInsightsInput{TableName: aws.String(table)}
			if index != "" {
				in.IndexName = aws.String(index)
			}
			o, err := c.DescribeContributorInsights(bg(), in)
			if err != nil {
				return insightsView{}, err
			}
			return viewDescribe(o), nil
		}
	}
	updateCI := func(table, index string, action types.ContributorInsightsAction, mode types.ContributorInsightsMode) func(local.API) (insightsView, error) {
		return func(c local.API) (insightsView, error) {
			in := &dynamodb.UpdateContributorInsightsInput{TableName: aws.String(table), ContributorInsightsAction: action, ContributorInsightsMode: mode}
			if index != "" {
				in.IndexName = aws.String(index)
			}
			o, err := c.UpdateContributorInsights(bg(), in)
			if err != nil {
				return insightsView{}, err
			}
			return insightsView{Table: aws.ToString(o.TableName), Index: aws.ToString(o.IndexName), Status: string(o.ContributorInsightsStatus), Mode: string(o.ContributorInsightsMode)}, nil
		}
	}
	listCI := func(table, next string, max int32) func(local.API) (insightsView, error) {
		return func(c local.API) (insightsView, error) {
			in := &dynamodb.ListContributorInsightsInput{MaxResults: max}
			if table != "" {
				in.TableName = aws.String(table)
			}
			if next != "" {
				in.NextToken = aws.String(next)
			}
			o, err := c.ListContributorInsights(bg(), in)
			if err != nil {
				return insightsView{}, err
			}
			return viewList(o), nil
		}
	}
	rules := func(kinds ...string) []string {
		out := make([]string, len(kinds))
		for i, k := range kinds {
			out[i] = "DynamoDBContributorInsights-" + k + "-Music-" + ms
		}
		return out
	}

	for _, tc := range []struct {
		name      string
		run       func(local.API) (insightsView, error)
		want      insightsView
		code, msg string
	}{
		// A table never enabled is DISABLED (the API reference's
		// ContributorInsightsStatus; Terraform's
		// aws_dynamodb_contributor_insights reads DISABLED as absent).
		{name: "describe never enabled", run: describeCI("Music", ""), want: insightsView{Table: "Music", Status: "DISABLED"}},
		{name: "list never enabled", run: listCI("", "", 0), want: insightsView{List: []string{}}},
		// update-contributor-insights ENABLE answers ENABLING, and a
		// later describe-contributor-insights ENABLED with the rules
		// DynamoDBContributorInsights-{PKC,SKC,PKT,SKT}-<table>-<epoch
		// ms> and LastUpdateDateTime (the AWS CLI's examples,
		// awscli/examples/dynamodb/update-contributor-insights.rst and
		// describe-contributor-insights.rst). The mode defaults to
		// ACCESSED_AND_THROTTLED_KEYS (API_UpdateContributorInsights).
		{name: "enable table", run: updateCI("Music", "", types.ContributorInsightsActionEnable, ""),
			want: insightsView{Table: "Music", Status: "ENABLING", Mode: "ACCESSED_AND_THROTTLED_KEYS"}},
		{name: "describe enabled table", run: describeCI("Music", ""),
			want: insightsView{Table: "Music", Status: "ENABLED", Mode: "ACCESSED_AND_THROTTLED_KEYS", Rules: rules("PKC", "SKC", "PKT", "SKT"), Updated: ms}},
		{name: "describe by ARN", run: describeCI(tableARN("Music"), ""),
			want: insightsView{Table: "Music", Status: "ENABLED", Mode: "ACCESSED_AND_THROTTLED_KEYS", Rules: rules("PKC", "SKC", "PKT", "SKT"), Updated: ms}},
		// The index's rules are named after its table (the CLI's
		// example for AlbumTitle-index); a key without a sort key has no
		// sort key rules.
		{name: "enable index", run: updateCI("Music", "Album-index", types.ContributorInsightsActionEnable, types.ContributorInsightsModeThrottledKeys),
			want: insightsView{Table: "Music", Index: "Album-index", Status: "ENABLING", Mode: "THROTTLED_KEYS"}},
		{name: "describe enabled index", run: describeCI("Music", "Album-index"),
			want: insightsView{Table: "Music", Index: "Album-index", Status: "ENABLED", Mode: "THROTTLED_KEYS", Rules: rules("PKC", "PKT"), Updated: ms}},
		// list-contributor-insights: one summary per table and index,
		// with its status (the CLI's example), for a table and all its
		// global secondary indexes (API_ListContributorInsights).
		{name: "list all", run: listCI("", "", 0), want: insightsView{List: []string{
			"Music/ ENABLED ACCESSED_AND_THROTTLED_KEYS", "Music/Album-index ENABLED THROTTLED_KEYS"}}},
		{name: "list one table", run: listCI("Other", "", 0), want: insightsView{List: []string{"Other/ DISABLED "}}},
		{name: "list page 1", run: listCI("Music", "", 1), want: insightsView{List: []string{"Music/ ENABLED ACCESSED_AND_THROTTLED_KEYS"}, Next: "Music/"}},
		{name: "list page 2", run: listCI("Music", "Music/", 1), want: insightsView{List: []string{"Music/Album-index ENABLED THROTTLED_KEYS"}}},
		// Disabling answers DISABLING, then DISABLED, without rules.
		{name: "disable table", run: updateCI("Music", "", types.ContributorInsightsActionDisable, ""),
			want: insightsView{Table: "Music", Status: "DISABLING"}},
		{name: "describe disabled table", run: describeCI("Music", ""), want: insightsView{Table: "Music", Status: "DISABLED", Updated: ms}},
		{name: "list after disable", run: listCI("", "", 0), want: insightsView{List: []string{
			"Music/ DISABLED ", "Music/Album-index ENABLED THROTTLED_KEYS"}}},
		// Refusals: ResourceNotFoundException, "Requested resource not
		// found: Table: <table> not found" for a missing table and
		// "Requested resource not found: Index: <name> not found for
		// table: <table>" for a missing index (the ack-api-quirks lab,
		// DDB-TABLE-446, DescribeContributorInsights with a ghost index,
		// recorded 2026-10-09).
		{name: "no table", run: describeCI("Nope", ""), code: "ResourceNotFoundException", msg: "Requested resource not found: Table: Nope not found"},
		{name: "update no table", run: updateCI("Nope", "", types.ContributorInsightsActionEnable, ""),
			code: "ResourceNotFoundException", msg: "Requested resource not found: Table: Nope not found"},
		{name: "no index", run: describeCI("Music", "nope-index"), code: "ResourceNotFoundException",
			msg: "Requested resource not found: Index: nope-index not found for table: Music"},
		// Member constraints, in DynamoDB's words for them
		// (ContributorInsightsAction's enum and ListContributorInsights'
		// MaxResults of at most 100, from the API reference).
		{name: "bad action", run: updateCI("Music", "", "ON", ""), code: "ValidationException",
			msg: "1 validation error detected: Value 'ON' at 'contributorInsightsAction' failed to satisfy constraint: Member must satisfy enum value set: [ENABLE, DISABLE]"},
		{name: "bad mode", run: updateCI("Music", "", types.ContributorInsightsActionEnable, "ALL"), code: "ValidationException",
			msg: "1 validation error detected: Value 'ALL' at 'contributorInsightsMode' failed to satisfy constraint: Member must satisfy enum value set: [ACCESSED_AND_THROTTLED_KEYS, THROTTLED_KEYS]"},
		{name: "max results", run: listCI("", "", 101), code: "ValidationException",
			msg: "1 validation error detected: Value '101' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.run(c)
			if tc.code != "" {
				wantErr(t, err, tc.code, tc.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			deepEqual(t, tc.name, got, tc.want)
		})
	}
}
