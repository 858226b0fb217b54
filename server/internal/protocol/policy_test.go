package protocol

import (
	"reflect"
	"testing"

	"github.com/dynago/dynago/dynamo"
)

func init() {
	decoders["PutResourcePolicy"] = wrap(DecodePutResourcePolicy)
	decoders["GetResourcePolicy"] = wrap(DecodeGetResourcePolicy)
	decoders["DeleteResourcePolicy"] = wrap(DecodeDeleteResourcePolicy)
}

// The members of the API reference's request syntax
// (API_PutResourcePolicy, API_GetResourcePolicy, API_DeleteResourcePolicy).
func TestDecodeResourcePolicy(t *testing.T) {
	for _, tt := range []struct {
		op, body string
		want     any
	}{
		{"PutResourcePolicy", `{"ResourceArn":"a","Policy":"{}","ExpectedRevisionId":"1","ConfirmRemoveSelfResourceAccess":true}`,
			&dynamo.PutResourcePolicyInput{ResourceArn: "a", Policy: "{}", ExpectedRevisionId: "1", ConfirmRemoveSelfResourceAccess: true}},
		{"PutResourcePolicy", `{"ResourceArn":"a","Policy":null}`, &dynamo.PutResourcePolicyInput{ResourceArn: "a", NoPolicy: true}},
		{"GetResourcePolicy", `{"ResourceArn":"a"}`, &dynamo.GetResourcePolicyInput{ResourceArn: "a"}},
		{"DeleteResourcePolicy", `{"ResourceArn":"a","ExpectedRevisionId":"2"}`, &dynamo.DeleteResourcePolicyInput{ResourceArn: "a", ExpectedRevisionId: "2"}},
	} {
		got, err := decoders[tt.op]([]byte(tt.body))
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %s: %#v, %v; want %#v", tt.op, tt.body, got, err, tt.want)
		}
	}
	for _, tt := range []struct{ op, body, msg string }{
		{"PutResourcePolicy", `{"Policy":5}`, "NUMBER_VALUE cannot be converted to String"},
		{"GetResourcePolicy", `{"ResourceArn":true}`, "TRUE_VALUE cannot be converted to String"},
		{"DeleteResourcePolicy", `{"ExpectedRevisionId":[]}`, "Unrecognized collection type class java.lang.String"},
	} {
		_, err := decoders[tt.op]([]byte(tt.body))
		checkError(t, tt.op+" "+tt.body, err, dynamo.CodeSerialization, tt.msg)
	}
}

func TestEncodeResourcePolicy(t *testing.T) {
	jsonEqual(t, "Put", EncodePutResourcePolicy(nil, &dynamo.PutResourcePolicyOutput{RevisionId: "1"}), `{"RevisionId":"1"}`)
	jsonEqual(t, "Get", EncodeGetResourcePolicy(nil, &dynamo.GetResourcePolicyOutput{Policy: `{"Version":"2012-10-17"}`, RevisionId: "1"}),
		`{"Policy":"{\"Version\":\"2012-10-17\"}","RevisionId":"1"}`)
	jsonEqual(t, "Delete none", EncodeDeleteResourcePolicy(nil, &dynamo.DeleteResourcePolicyOutput{}), `{}`)
}
