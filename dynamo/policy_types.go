package dynamo

// Resource-based policies of tables and streams: PutResourcePolicy,
// GetResourcePolicy and DeleteResourcePolicy, member for member as AWS's
// API reference has them.

// PolicyNoRevision is the ExpectedRevisionId that puts a policy only
// where the resource has none (API_PutResourcePolicy).
const PolicyNoRevision = "NO_POLICY"

// PutResourcePolicyInput is PutResourcePolicy's request.
type PutResourcePolicyInput struct {
	ResourceArn string
	// NoPolicy records that the request had no Policy member, or a null
	// one. The zero value means present.
	NoPolicy                        bool
	Policy                          string
	ExpectedRevisionId              string
	ConfirmRemoveSelfResourceAccess bool
}

// PutResourcePolicyOutput is PutResourcePolicy's response.
type PutResourcePolicyOutput struct {
	RevisionId string
}

// GetResourcePolicyInput is GetResourcePolicy's request.
type GetResourcePolicyInput struct {
	ResourceArn string
}

// GetResourcePolicyOutput is GetResourcePolicy's response.
type GetResourcePolicyOutput struct {
	Policy     string
	RevisionId string
}

// DeleteResourcePolicyInput is DeleteResourcePolicy's request.
type DeleteResourcePolicyInput struct {
	ResourceArn        string
	ExpectedRevisionId string
}

// DeleteResourcePolicyOutput is DeleteResourcePolicy's response: the
// revision of the policy deleted, empty when the resource had none.
type DeleteResourcePolicyOutput struct {
	RevisionId string
}
