package local

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynago/dynago/dynamo"
)

// Resource-based policies on the direct path, converted as the protocol
// decoder reads the SDK's JSON for them
// (server/internal/protocol/policy.go).

// PutResourcePolicy is (*dynamodb.Client).PutResourcePolicy on the
// engine.
func (c *Direct) PutResourcePolicy(ctx context.Context, in *dynamodb.PutResourcePolicyInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutResourcePolicyOutput, error) {
	var req dynamo.PutResourcePolicyInput
	return call(&c.conn, ctx, "PutResourcePolicy", in, optFns, (*dynamodb.Client).PutResourcePolicy, func(in *dynamodb.PutResourcePolicyInput) bool {
		var ok bool
		req.ResourceArn, _ = str(in.ResourceArn)
		req.Policy, ok = str(in.Policy)
		req.NoPolicy = !ok
		req.ExpectedRevisionId, _ = str(in.ExpectedRevisionId)
		req.ConfirmRemoveSelfResourceAccess = in.ConfirmRemoveSelfResourceAccess
		return validInput(in, c.limit)
	}, func() (*dynamodb.PutResourcePolicyOutput, error) {
		out, err := c.db.PutResourcePolicy(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.PutResourcePolicyOutput{RevisionId: optString(out.RevisionId)}, nil
	})
}

// GetResourcePolicy is (*dynamodb.Client).GetResourcePolicy on the
// engine.
func (c *Direct) GetResourcePolicy(ctx context.Context, in *dynamodb.GetResourcePolicyInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetResourcePolicyOutput, error) {
	var req dynamo.GetResourcePolicyInput
	return call(&c.conn, ctx, "GetResourcePolicy", in, optFns, (*dynamodb.Client).GetResourcePolicy, func(in *dynamodb.GetResourcePolicyInput) bool {
		req.ResourceArn, _ = str(in.ResourceArn)
		return validInput(in, c.limit)
	}, func() (*dynamodb.GetResourcePolicyOutput, error) {
		out, err := c.db.GetResourcePolicy(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.GetResourcePolicyOutput{Policy: optString(out.Policy), RevisionId: optString(out.RevisionId)}, nil
	})
}

// DeleteResourcePolicy is (*dynamodb.Client).DeleteResourcePolicy on the
// engine.
func (c *Direct) DeleteResourcePolicy(ctx context.Context, in *dynamodb.DeleteResourcePolicyInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteResourcePolicyOutput, error) {
	var req dynamo.DeleteResourcePolicyInput
	return call(&c.conn, ctx, "DeleteResourcePolicy", in, optFns, (*dynamodb.Client).DeleteResourcePolicy, func(in *dynamodb.DeleteResourcePolicyInput) bool {
		req.ResourceArn, _ = str(in.ResourceArn)
		req.ExpectedRevisionId, _ = str(in.ExpectedRevisionId)
		return validInput(in, c.limit)
	}, func() (*dynamodb.DeleteResourcePolicyOutput, error) {
		out, err := c.db.DeleteResourcePolicy(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.DeleteResourcePolicyOutput{RevisionId: optString(out.RevisionId)}, nil
	})
}
