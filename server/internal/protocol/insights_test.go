package protocol

import (
	"reflect"
	"testing"
	"time"

	"github.com/dynago/dynago/dynamo"
)

func init() {
	decoders["DescribeContributorInsights"] = wrap(DecodeDescribeContributorInsights)
	decoders["UpdateContributorInsights"] = wrap(DecodeUpdateContributorInsights)
	decoders["ListContributorInsights"] = wrap(DecodeListContributorInsights)
}

// The members of the API reference's request syntax
// (API_DescribeContributorInsights, API_UpdateContributorInsights,
// API_ListContributorInsights).
func TestDecodeContributorInsights(t *testing.T) {
	for _, tt := range []struct {
		op, body string
		want     any
	}{
		{"DescribeContributorInsights", `{"TableName":"t","IndexName":"g"}`, &dynamo.DescribeContributorInsightsInput{TableName: "t", IndexName: "g"}},
		{"DescribeContributorInsights", `{"TableName":null}`, &dynamo.DescribeContributorInsightsInput{NoTableName: true}},
		{"UpdateContributorInsights", `{"TableName":"t","ContributorInsightsAction":"ENABLE","ContributorInsightsMode":"THROTTLED_KEYS"}`,
			&dynamo.UpdateContributorInsightsInput{TableName: "t", ContributorInsightsAction: "ENABLE", ContributorInsightsMode: "THROTTLED_KEYS"}},
		{"UpdateContributorInsights", `{}`, &dynamo.UpdateContributorInsightsInput{NoTableName: true}},
		{"ListContributorInsights", `{"TableName":"t","NextToken":"n","MaxResults":3}`, &dynamo.ListContributorInsightsInput{TableName: "t", NextToken: "n", MaxResults: ptr[int32](3)}},
	} {
		got, err := decoders[tt.op]([]byte(tt.body))
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %s: %#v, %v; want %#v", tt.op, tt.body, got, err, tt.want)
		}
	}
	for _, tt := range []struct{ op, body, msg string }{
		{"DescribeContributorInsights", `{"TableName":5}`, "NUMBER_VALUE cannot be converted to String"},
		{"UpdateContributorInsights", `{"ContributorInsightsAction":true}`, "TRUE_VALUE cannot be converted to String"},
		{"ListContributorInsights", `{"MaxResults":"5"}`, "STRING_VALUE cannot be converted to Integer"},
	} {
		_, err := decoders[tt.op]([]byte(tt.body))
		checkError(t, tt.op+" "+tt.body, err, dynamo.CodeSerialization, tt.msg)
	}
}

func TestEncodeContributorInsights(t *testing.T) {
	at := time.Unix(1576629654, 780e6)
	jsonEqual(t, "Describe", EncodeDescribeContributorInsights(nil, &dynamo.DescribeContributorInsightsOutput{
		TableName: "T", IndexName: "g", ContributorInsightsRuleList: []string{"r1", "r2"}, ContributorInsightsStatus: "ENABLED",
		ContributorInsightsMode: "THROTTLED_KEYS", LastUpdateDateTime: at}),
		`{"ContributorInsightsMode":"THROTTLED_KEYS","ContributorInsightsRuleList":["r1","r2"],"ContributorInsightsStatus":"ENABLED","IndexName":"g","LastUpdateDateTime":1576629654.78,"TableName":"T"}`)
	jsonEqual(t, "Describe disabled", EncodeDescribeContributorInsights(nil, &dynamo.DescribeContributorInsightsOutput{TableName: "T", ContributorInsightsStatus: "DISABLED"}),
		`{"ContributorInsightsStatus":"DISABLED","TableName":"T"}`)
	jsonEqual(t, "Update", EncodeUpdateContributorInsights(nil, &dynamo.UpdateContributorInsightsOutput{TableName: "T", ContributorInsightsStatus: "ENABLING"}),
		`{"ContributorInsightsStatus":"ENABLING","TableName":"T"}`)
	jsonEqual(t, "List", EncodeListContributorInsights(nil, &dynamo.ListContributorInsightsOutput{ContributorInsightsSummaries: []dynamo.ContributorInsightsSummary{
		{TableName: "T", ContributorInsightsStatus: "ENABLED", ContributorInsightsMode: "ACCESSED_AND_THROTTLED_KEYS"}}, NextToken: "x"}),
		`{"ContributorInsightsSummaries":[{"ContributorInsightsMode":"ACCESSED_AND_THROTTLED_KEYS","ContributorInsightsStatus":"ENABLED","TableName":"T"}],"NextToken":"x"}`)
	jsonEqual(t, "List empty", EncodeListContributorInsights(nil, &dynamo.ListContributorInsightsOutput{}), `{"ContributorInsightsSummaries":[]}`)
}
