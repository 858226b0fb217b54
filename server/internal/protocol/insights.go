package protocol

import "github.com/dynago/dynago/dynamo"

// Contributor Insights requests and responses (DescribeContributorInsights,
// UpdateContributorInsights, ListContributorInsights), with the members of
// AWS's API reference; a response's members in alphabetical order, as
// DynamoDB writes them. A required TableName left out or null is recorded
// apart from an empty one, as for the other table operations.

// DecodeDescribeContributorInsights decodes a DescribeContributorInsights
// request body.
func DecodeDescribeContributorInsights(body []byte) (*dynamo.DescribeContributorInsightsInput, error) {
	in := &dynamo.DescribeContributorInsightsInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("DescribeContributorInsightsInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "IndexName":
			return d.str(&in.IndexName)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeUpdateContributorInsights decodes an UpdateContributorInsights
// request body.
func DecodeUpdateContributorInsights(body []byte) (*dynamo.UpdateContributorInsightsInput, error) {
	in := &dynamo.UpdateContributorInsightsInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("UpdateContributorInsightsInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "IndexName":
			return d.str(&in.IndexName)
		case "ContributorInsightsAction":
			return d.str(&in.ContributorInsightsAction)
		case "ContributorInsightsMode":
			return d.str(&in.ContributorInsightsMode)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeListContributorInsights decodes a ListContributorInsights request
// body.
func DecodeListContributorInsights(body []byte) (*dynamo.ListContributorInsightsInput, error) {
	in := &dynamo.ListContributorInsightsInput{}
	d := &decoder{data: body}
	err := d.root("ListContributorInsightsInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			return d.str(&in.TableName)
		case "NextToken":
			return d.str(&in.NextToken)
		case "MaxResults":
			return d.int32Ptr(&in.MaxResults)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// EncodeDescribeContributorInsights appends DescribeContributorInsights'
// response body to dst.
func EncodeDescribeContributorInsights(dst []byte, out *dynamo.DescribeContributorInsightsOutput) []byte {
	if out == nil {
		out = &dynamo.DescribeContributorInsightsOutput{}
	}
	dst = append(dst, '{')
	dst = strMember(dst, "ContributorInsightsMode", out.ContributorInsightsMode)
	dst = stringsMember(dst, "ContributorInsightsRuleList", out.ContributorInsightsRuleList)
	dst = strMember(dst, "ContributorInsightsStatus", out.ContributorInsightsStatus)
	dst = strMember(dst, "IndexName", out.IndexName)
	dst = timeMember(dst, "LastUpdateDateTime", out.LastUpdateDateTime)
	dst = strMember(dst, "TableName", out.TableName)
	return append(dst, '}')
}

// EncodeUpdateContributorInsights appends UpdateContributorInsights'
// response body to dst.
func EncodeUpdateContributorInsights(dst []byte, out *dynamo.UpdateContributorInsightsOutput) []byte {
	if out == nil {
		out = &dynamo.UpdateContributorInsightsOutput{}
	}
	dst = append(dst, '{')
	dst = strMember(dst, "ContributorInsightsMode", out.ContributorInsightsMode)
	dst = strMember(dst, "ContributorInsightsStatus", out.ContributorInsightsStatus)
	dst = strMember(dst, "IndexName", out.IndexName)
	dst = strMember(dst, "TableName", out.TableName)
	return append(dst, '}')
}

// EncodeListContributorInsights appends ListContributorInsights' response
// body to dst.
func EncodeListContributorInsights(dst []byte, out *dynamo.ListContributorInsightsOutput) []byte {
	if out == nil {
		out = &dynamo.ListContributorInsightsOutput{}
	}
	dst = append(dst, '{')
	dst = append(member(dst, "ContributorInsightsSummaries"), '[')
	for i := range out.ContributorInsightsSummaries {
		s := &out.ContributorInsightsSummaries[i]
		dst = append(comma(dst), '{')
		dst = strMember(dst, "ContributorInsightsMode", s.ContributorInsightsMode)
		dst = strMember(dst, "ContributorInsightsStatus", s.ContributorInsightsStatus)
		dst = strMember(dst, "IndexName", s.IndexName)
		dst = strMember(dst, "TableName", s.TableName)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	dst = strMember(dst, "NextToken", out.NextToken)
	return append(dst, '}')
}
