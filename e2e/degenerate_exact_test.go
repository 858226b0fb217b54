package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dynago/dynago/testserver"
)

// TestDegenerateInputs sends the empty strings, empty structures and
// zeros that DynamoDB answered in the ack-api-quirks catalogue's entry
// DDB-TABLE-457 (82 degenerate requests, recorded 2026-10-09), and checks
// dynago's answer is DynamoDB's word for word. The label of each case is
// the catalogue's. A member sent as "" is not a member left out: DynamoDB
// checks it against its enum or its length.
func TestDegenerateInputs(t *testing.T) {
	s := testserver.Start(t)
	r := s.Raw(t, "CreateTable", `{"TableName":"bad","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
	if r.Status != 200 {
		t.Fatalf("CreateTable: %d %s", r.Status, r.Body)
	}
	arn := tableARN("bad")
	const newTable = `"TableName":"fresh","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]`
	cases := []struct{ label, op, body, msg string }{
		{"ct_billing_empty", "CreateTable", `{` + newTable + `,"BillingMode":""}`,
			"1 validation error detected: Value '' at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]"},
		{"ct_stream_viewtype_empty", "CreateTable", `{` + newTable + `,"BillingMode":"PAY_PER_REQUEST","StreamSpecification":{"StreamEnabled":true,"StreamViewType":""}}`,
			"1 validation error detected: Value '' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum value set: [OLD_IMAGE, KEYS_ONLY, NEW_AND_OLD_IMAGES, NEW_IMAGE]"},
		{"ut_stream_viewtype_empty", "UpdateTable", `{"TableName":"bad","StreamSpecification":{"StreamEnabled":true,"StreamViewType":""}}`,
			"1 validation error detected: Value '' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum value set: [OLD_IMAGE, KEYS_ONLY, NEW_AND_OLD_IMAGES, NEW_IMAGE]"},
		{"ct_sse_kms_key_empty", "CreateTable", `{` + newTable + `,"BillingMode":"PAY_PER_REQUEST","SSESpecification":{"Enabled":true,"SSEType":"KMS","KMSMasterKeyId":""}}`,
			"1 validation error detected: Value '' at 'sSESpecification.kMSMasterKeyId' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"ut_sse_kms_key_empty", "UpdateTable", `{"TableName":"bad","SSESpecification":{"Enabled":true,"SSEType":"KMS","KMSMasterKeyId":""}}`,
			"1 validation error detected: Value '' at 'sSESpecification.kMSMasterKeyId' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"ct_gsi_projection_empty", "CreateTable", `{"TableName":"fresh","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST","GlobalSecondaryIndexes":[{"IndexName":"gsi","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{}}]}`,
			"One or more parameter values were invalid: Unknown ProjectionType: null"},
		{"ut_attrdefs_type_empty_plus_dp", "UpdateTable", `{"TableName":"bad","AttributeDefinitions":[{"AttributeName":"x","AttributeType":""}],"DeletionProtectionEnabled":false}`,
			"1 validation error detected: Value '' at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]"},
		{"ut_attrdefs_empty_entry_plus_dp", "UpdateTable", `{"TableName":"bad","AttributeDefinitions":[{}],"DeletionProtectionEnabled":false}`,
			"2 validation errors detected: Value null at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member must not be null; Value null at 'attributeDefinitions.1.member.attributeName' failed to satisfy constraint: Member must not be null"},
		{"untag_empty_key", "UntagResource", `{"ResourceArn":"` + arn + `","TagKeys":[""]}`, "The Tag Key provided is invalid, Key: "},
		{"untag_empty_list", "UntagResource", `{"ResourceArn":"` + arn + `","TagKeys":[]}`, "Atleast one Tag Key needs to be provided as Input."},
		{"tag_empty_entry", "TagResource", `{"ResourceArn":"` + arn + `","Tags":[{}]}`, "The Tag Key provided is invalid, Key: null"},
		{"tag_key_only", "TagResource", `{"ResourceArn":"` + arn + `","Tags":[{"Key":"k"}]}`, "The Tag Value provided is invalid, Value: null"},
		{"tag_value_only", "TagResource", `{"ResourceArn":"` + arn + `","Tags":[{"Value":"v"}]}`, "The Tag Key provided is invalid, Key: null"},
		{"ttl_attr_only", "UpdateTimeToLive", `{"TableName":"bad","TimeToLiveSpecification":{"AttributeName":"x"}}`,
			"1 validation error detected: Value null at 'timeToLiveSpecification.enabled' failed to satisfy constraint: Member must not be null"},
		{"ttl_enabled_only", "UpdateTimeToLive", `{"TableName":"bad","TimeToLiveSpecification":{"Enabled":true}}`,
			"1 validation error detected: Value null at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must not be null"},
		{"list_tables_limit0", "ListTables", `{"Limit":0}`,
			"1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
	}
	for _, c := range cases {
		t.Run(c.label, func(t *testing.T) {
			r := s.Raw(t, c.op, c.body)
			var e struct {
				Type string `json:"__type"`
				Msg  string `json:"message"`
			}
			if err := json.Unmarshal(r.Body, &e); err != nil {
				t.Fatalf("body %q: %v", r.Body, err)
			}
			if r.Status != 400 || !strings.HasSuffix(e.Type, "#ValidationException") || e.Msg != c.msg {
				t.Errorf("%d %s %q\nwant 400 ValidationException %q", r.Status, e.Type, e.Msg, c.msg)
			}
		})
	}
	// Nothing was created or changed on the way.
	if d := describe(t, s.API, "bad"); d.StreamSpecification != nil || d.SSEDescription != nil {
		t.Errorf("the refused updates changed the table: %+v", d)
	}
}
