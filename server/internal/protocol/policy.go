package protocol

import "github.com/dynago/dynago/dynamo"

// Resource-based policy requests and responses (PutResourcePolicy,
// GetResourcePolicy, DeleteResourcePolicy), with the members of AWS's API
// reference; a response's members in alphabetical order, as DynamoDB
// writes them. A required Policy left out or null is recorded apart from
// an empty one.

// DecodePutResourcePolicy decodes a PutResourcePolicy request body.
func DecodePutResourcePolicy(body []byte) (*dynamo.PutResourcePolicyInput, error) {
	in := &dynamo.PutResourcePolicyInput{NoPolicy: true}
	d := &decoder{data: body}
	err := d.root("PutResourcePolicyInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "ResourceArn":
			return d.str(&in.ResourceArn)
		case "Policy":
			present, err := d.strPresent(&in.Policy)
			in.NoPolicy = !present
			return err
		case "ExpectedRevisionId":
			return d.str(&in.ExpectedRevisionId)
		case "ConfirmRemoveSelfResourceAccess":
			_, err := d.boolean(&in.ConfirmRemoveSelfResourceAccess)
			return err
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeGetResourcePolicy decodes a GetResourcePolicy request body.
func DecodeGetResourcePolicy(body []byte) (*dynamo.GetResourcePolicyInput, error) {
	in := &dynamo.GetResourcePolicyInput{}
	d := &decoder{data: body}
	err := d.root("GetResourcePolicyInput", func(key []byte) *dynamo.Error {
		if string(key) == "ResourceArn" {
			return d.str(&in.ResourceArn)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeDeleteResourcePolicy decodes a DeleteResourcePolicy request body.
func DecodeDeleteResourcePolicy(body []byte) (*dynamo.DeleteResourcePolicyInput, error) {
	in := &dynamo.DeleteResourcePolicyInput{}
	d := &decoder{data: body}
	err := d.root("DeleteResourcePolicyInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "ResourceArn":
			return d.str(&in.ResourceArn)
		case "ExpectedRevisionId":
			return d.str(&in.ExpectedRevisionId)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// EncodePutResourcePolicy appends PutResourcePolicy's response body to dst.
func EncodePutResourcePolicy(dst []byte, out *dynamo.PutResourcePolicyOutput) []byte {
	if out == nil {
		out = &dynamo.PutResourcePolicyOutput{}
	}
	dst = append(dst, '{')
	dst = strMember(dst, "RevisionId", out.RevisionId)
	return append(dst, '}')
}

// EncodeGetResourcePolicy appends GetResourcePolicy's response body to dst.
func EncodeGetResourcePolicy(dst []byte, out *dynamo.GetResourcePolicyOutput) []byte {
	if out == nil {
		out = &dynamo.GetResourcePolicyOutput{}
	}
	dst = append(dst, '{')
	dst = strMember(dst, "Policy", out.Policy)
	dst = strMember(dst, "RevisionId", out.RevisionId)
	return append(dst, '}')
}

// EncodeDeleteResourcePolicy appends DeleteResourcePolicy's response body
// to dst; without a policy deleted it has no RevisionId.
func EncodeDeleteResourcePolicy(dst []byte, out *dynamo.DeleteResourcePolicyOutput) []byte {
	if out == nil {
		out = &dynamo.DeleteResourcePolicyOutput{}
	}
	dst = append(dst, '{')
	dst = strMember(dst, "RevisionId", out.RevisionId)
	return append(dst, '}')
}
