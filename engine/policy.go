package engine

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/dynago/dynago/dynamo"
)

// Resource-based policies of tables and streams (PutResourcePolicy,
// GetResourcePolicy, DeleteResourcePolicy, and CreateTable's
// ResourcePolicy), kept in the table's catalog entry: a stream's policy
// under its label, the table's under "". They survive a restart and go
// with the table. A policy is validated when it is put; its Deny
// statements are compiled with the table (denyRule), for CheckAccess.
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutResourcePolicy.html

// policyMeta is one stored policy: its document as given, and its
// revision id.
type policyMeta struct {
	Document string `json:"document"`
	Revision string `json:"revision"`
}

// maxPolicyBytes is the largest policy document: 20 KB, whitespace
// counted (API_PutResourcePolicy).
const maxPolicyBytes = 20 << 10

// policyTarget is what a ResourceArn names: a table, or one of its
// streams.
type policyTarget struct {
	t *table
	// stream is the stream's label, "" for the table.
	stream string
	arn    string
}

// parsePolicyArn checks the form of a policy's ResourceArn, as the tag
// operations check theirs (msgArnNoPrefix and the texts after it), and
// returns the table name and, for a stream's ARN, the stream label.
func (db *DB) parsePolicyArn(arn string) (name, label string, err error) {
	if !strings.HasPrefix(arn, "arn:") {
		return "", "", dynamo.Validation(msgArnNoPrefix(arn))
	}
	f := strings.SplitN(arn, ":", 6)
	if len(f) != 6 || f[1] == "" || f[2] != "dynamodb" || f[3] == "" || f[4] == "" || !strings.HasPrefix(f[5], "table/") {
		return "", "", dynamo.Validation(msgArnNotDynamoDB(arn))
	}
	name, sub, hasSub := strings.Cut(strings.TrimPrefix(f[5], "table/"), "/")
	if hasSub {
		kind, rest, _ := strings.Cut(sub, "/")
		switch {
		case kind == "index":
			return "", "", dynamo.Validation(msgArnNotTableOrStream(arn))
		case kind == "stream" && rest != "":
			label = rest
		default:
			return "", "", dynamo.Validation(msgArnNotDynamoDB(arn))
		}
	}
	if f[3] != db.opts.Region {
		return "", "", dynamo.Validation(msgInvalidTableArn(arn))
	}
	if f[4] != db.opts.AccountID {
		return "", "", dynamo.AccessDenied(msgArnNotAllowed)
	}
	return name, label, nil
}

// policyTargetOf finds the table or stream a ResourceArn names. A table
// that does not exist is ResourceNotFoundException in the words of the
// table operations (moto's test_dynamodb_resource_policy.py, verified
// against AWS: "Requested resource not found: Table: <name> not found");
// a stream that does not exist, in the words of the Streams API
// (msgStreamNotFound).
func (db *DB) policyTargetOf(arn string) (policyTarget, error) {
	name, label, err := db.parsePolicyArn(arn)
	if err != nil {
		return policyTarget{}, err
	}
	t, err := db.lookupFresh(name)
	if err != nil {
		return policyTarget{}, err
	}
	if t == nil {
		return policyTarget{}, tableNotFound(name)
	}
	if label != "" {
		s, err := db.lookupStream(arn)
		if err != nil {
			return policyTarget{}, err
		}
		if s == nil || s.meta.TableName != t.meta.Name || s.meta.TableID != t.meta.ID {
			return policyTarget{}, streamNotFound(arn)
		}
	}
	return policyTarget{t: t, stream: label, arn: arn}, nil
}

// policyMembers checks the members the three operations share.
func policyMembers(c *constraints, arn, expected string) {
	c.resourceArn(arn)
	if len(expected) > 255 {
		c.add("Value '%s' at 'expectedRevisionId' failed to satisfy constraint: Member must have length less than or equal to 255", expected)
	}
}

// PutResourcePolicy attaches a resource-based policy to a table or a
// stream, or replaces the one it has.
func (db *DB) PutResourcePolicy(in *dynamo.PutResourcePolicyInput) (*dynamo.PutResourcePolicyOutput, error) {
	return run(db, opPutResourcePolicy, func() (*dynamo.PutResourcePolicyOutput, error) {
		return db.putResourcePolicy(in)
	})
}

func (db *DB) putResourcePolicy(in *dynamo.PutResourcePolicyInput) (*dynamo.PutResourcePolicyOutput, error) {
	var c constraints
	policyMembers(&c, in.ResourceArn, in.ExpectedRevisionId)
	if in.NoPolicy {
		c.notNull("policy")
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	_, label, err := db.parsePolicyArn(in.ResourceArn)
	if err != nil {
		return nil, err
	}
	if err := validatePolicy(in.Policy, in.ResourceArn, label != ""); err != nil {
		return nil, err
	}

	db.ddl.Lock()
	defer db.ddl.Unlock()
	p, err := db.policyTargetOf(in.ResourceArn)
	if err != nil {
		return nil, err
	}
	if err := db.inUse(p.t); err != nil {
		return nil, err
	}
	old, had := p.t.meta.Policies[p.stream]
	switch {
	case in.ExpectedRevisionId == dynamo.PolicyNoRevision && had:
		return nil, dynamo.PolicyNotFound(msgPolicyExpectedNone(p.t.meta.Name, old.Revision))
	case in.ExpectedRevisionId != "" && in.ExpectedRevisionId != dynamo.PolicyNoRevision && !had:
		return nil, dynamo.PolicyNotFound(msgPolicyNotFound(in.ResourceArn))
	case in.ExpectedRevisionId != "" && in.ExpectedRevisionId != dynamo.PolicyNoRevision && in.ExpectedRevisionId != old.Revision:
		return nil, dynamo.PolicyNotFound(msgPolicyRevisionMismatch(in.ExpectedRevisionId, p.t.meta.Name, old.Revision))
	}
	// The same document again is no change, and keeps its revision
	// (moto's test_put_resource_policy_multiple_times, verified against
	// AWS; API_PutResourcePolicy: "running it multiple times on the same
	// resource using the same policy document will return the same
	// revision ID").
	if had && old.Document == in.Policy {
		return &dynamo.PutResourcePolicyOutput{RevisionId: old.Revision}, nil
	}
	m := p.t.meta // copy; the old *table stays valid for readers holding it
	rev := db.nextPolicyRevision(&m)
	m.Policies = clonePolicies(m.Policies)
	m.Policies[p.stream] = policyMeta{Document: in.Policy, Revision: rev}
	if err := db.commitMeta(m); err != nil {
		return nil, err
	}
	return &dynamo.PutResourcePolicyOutput{RevisionId: rev}, nil
}

// nextPolicyRevision hands out m's next revision id: the time in Unix
// milliseconds, as DynamoDB's revision ids are (moto's
// test_put_resource_policy_multiple_times, verified against AWS, compares
// them as timestamps), above every one handed out before in the table.
func (db *DB) nextPolicyRevision(m *tableMeta) string {
	m.PolicyRevision = max(db.now().UnixMilli(), m.PolicyRevision+1)
	return strconv.FormatInt(m.PolicyRevision, 10)
}

func clonePolicies(p map[string]policyMeta) map[string]policyMeta {
	out := make(map[string]policyMeta, len(p)+1)
	for k, v := range p {
		out[k] = v
	}
	return out
}

// GetResourcePolicy returns the resource-based policy of a table or a
// stream.
func (db *DB) GetResourcePolicy(in *dynamo.GetResourcePolicyInput) (*dynamo.GetResourcePolicyOutput, error) {
	return run(db, opGetResourcePolicy, func() (*dynamo.GetResourcePolicyOutput, error) {
		return db.getResourcePolicy(in)
	})
}

func (db *DB) getResourcePolicy(in *dynamo.GetResourcePolicyInput) (*dynamo.GetResourcePolicyOutput, error) {
	var c constraints
	policyMembers(&c, in.ResourceArn, "")
	if err := c.err(); err != nil {
		return nil, err
	}
	p, err := db.policyTargetOf(in.ResourceArn)
	if err != nil {
		return nil, err
	}
	pm, ok := p.t.meta.Policies[p.stream]
	if !ok {
		return nil, dynamo.PolicyNotFound(msgPolicyNotFound(in.ResourceArn))
	}
	return &dynamo.GetResourcePolicyOutput{Policy: pm.Document, RevisionId: pm.Revision}, nil
}

// DeleteResourcePolicy removes the resource-based policy of a table or a
// stream. Without an ExpectedRevisionId, a resource without a policy is
// no error: the answer has no RevisionId (API_DeleteResourcePolicy).
func (db *DB) DeleteResourcePolicy(in *dynamo.DeleteResourcePolicyInput) (*dynamo.DeleteResourcePolicyOutput, error) {
	return run(db, opDeleteResourcePolicy, func() (*dynamo.DeleteResourcePolicyOutput, error) {
		return db.deleteResourcePolicy(in)
	})
}

func (db *DB) deleteResourcePolicy(in *dynamo.DeleteResourcePolicyInput) (*dynamo.DeleteResourcePolicyOutput, error) {
	var c constraints
	policyMembers(&c, in.ResourceArn, in.ExpectedRevisionId)
	if err := c.err(); err != nil {
		return nil, err
	}
	if _, _, err := db.parsePolicyArn(in.ResourceArn); err != nil {
		return nil, err
	}
	db.ddl.Lock()
	defer db.ddl.Unlock()
	p, err := db.policyTargetOf(in.ResourceArn)
	if err != nil {
		return nil, err
	}
	if err := db.inUse(p.t); err != nil {
		return nil, err
	}
	old, had := p.t.meta.Policies[p.stream]
	switch {
	case in.ExpectedRevisionId != "" && !had:
		return nil, dynamo.PolicyNotFound(msgPolicyNotFound(in.ResourceArn))
	case in.ExpectedRevisionId != "" && in.ExpectedRevisionId != old.Revision:
		return nil, dynamo.PolicyNotFound(msgPolicyRevisionMismatch(in.ExpectedRevisionId, p.t.meta.Name, old.Revision))
	case !had:
		return &dynamo.DeleteResourcePolicyOutput{}, nil
	}
	m := p.t.meta
	m.Policies = clonePolicies(m.Policies)
	delete(m.Policies, p.stream)
	if len(m.Policies) == 0 {
		m.Policies = nil
	}
	if err := db.commitMeta(m); err != nil {
		return nil, err
	}
	return &dynamo.DeleteResourcePolicyOutput{RevisionId: old.Revision}, nil
}

// The actions a policy may name: each operation of DynamoDB's API that
// acts on a table, the PartiQL actions and ConditionCheckItem; for a
// stream, the three Streams API operations on a stream. A table's policy
// that names a stream operation, or a stream's that names ListStreams, is
// refused (msgPolicyBadActions).
var (
	tablePolicyActions = lowerSet(
		"BatchGetItem", "BatchWriteItem", "ConditionCheckItem", "CreateBackup", "CreateGlobalTable",
		"CreateTable", "CreateTableReplica", "DeleteBackup", "DeleteItem", "DeleteResourcePolicy",
		"DeleteTable", "DeleteTableReplica", "DescribeBackup", "DescribeContinuousBackups",
		"DescribeContributorInsights", "DescribeExport", "DescribeGlobalTable",
		"DescribeGlobalTableSettings", "DescribeImport", "DescribeKinesisStreamingDestination",
		"DescribeTable", "DescribeTableReplicaAutoScaling", "DescribeTimeToLive",
		"DisableKinesisStreamingDestination", "EnableKinesisStreamingDestination",
		"ExportTableToPointInTime", "GetItem", "GetResourcePolicy", "ImportTable",
		"ListBackups", "ListExports", "ListImports", "ListTagsOfResource",
		"PartiQLDelete", "PartiQLInsert", "PartiQLSelect", "PartiQLUpdate", "PutItem",
		"PutResourcePolicy", "Query", "RestoreTableFromBackup", "RestoreTableToPointInTime",
		"Scan", "TagResource", "UntagResource", "UpdateContinuousBackups",
		"UpdateContributorInsights", "UpdateGlobalTable", "UpdateGlobalTableSettings",
		"UpdateItem", "UpdateKinesisStreamingDestination", "UpdateTable",
		"UpdateTableReplicaAutoScaling", "UpdateTimeToLive",
	)
	streamPolicyActions = lowerSet("DescribeStream", "GetRecords", "GetShardIterator")
)

func lowerSet(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m["dynamodb:"+strings.ToLower(n)] = true
	}
	return m
}

// policyDoc is a policy document as JSON has it; a member that may be a
// string or a list of strings is kept raw until it is read.
type policyDoc struct {
	Version   *string         `json:"Version"`
	Statement json.RawMessage `json:"Statement"`
}

type policyStatement struct {
	Sid          *string         `json:"Sid"`
	Effect       *string         `json:"Effect"`
	Principal    json.RawMessage `json:"Principal"`
	NotPrincipal json.RawMessage `json:"NotPrincipal"`
	Action       json.RawMessage `json:"Action"`
	NotAction    json.RawMessage `json:"NotAction"`
	Resource     json.RawMessage `json:"Resource"`
	NotResource  json.RawMessage `json:"NotResource"`
	Condition    json.RawMessage `json:"Condition"`
}

// denyRule is one Deny statement, compiled: who, what and on which
// resources it denies. Actions are lower-cased (IAM compares them without
// case); principals and resources are kept as written. A list that is
// negated (NotPrincipal, NotAction, NotResource) matches what it does not
// name.
type denyRule struct {
	principals, actions, resources       []string
	notPrincipal, notAction, notResource bool
	anyPrincipal                         bool
}

// validatePolicy checks a policy document for the resource arn (a
// stream's when stream). The error is a ValidationException in the words
// of msgInvalidPolicy.
func validatePolicy(doc, arn string, stream bool) error {
	if len(doc) > maxPolicyBytes {
		return dynamo.Validation(msgPolicyTooLarge)
	}
	bad := func(detail string) error {
		return dynamo.Validation(msgInvalidPolicy(detail))
	}
	var d policyDoc
	dec := json.NewDecoder(strings.NewReader(doc))
	if err := dec.Decode(&d); err != nil || dec.More() {
		return bad(msgPolicySyntax)
	}
	if d.Version != nil && *d.Version != "2012-10-17" && *d.Version != "2008-10-17" {
		return bad(msgPolicyVersion(*d.Version))
	}
	var stmts []policyStatement
	switch raw := bytes.TrimSpace(d.Statement); {
	case len(raw) == 0 || string(raw) == "null":
		return bad(msgPolicyNoStatement)
	case raw[0] == '{':
		var s policyStatement
		if json.Unmarshal(raw, &s) != nil {
			return bad(msgPolicySyntax)
		}
		stmts = []policyStatement{s}
	default:
		if json.Unmarshal(raw, &stmts) != nil {
			return bad(msgPolicySyntax)
		}
	}
	if len(stmts) == 0 {
		return bad(msgPolicyNoStatement)
	}
	var badActions []string
	for _, s := range stmts {
		if s.Effect == nil || (*s.Effect != "Allow" && *s.Effect != "Deny") {
			return bad(msgPolicyEffect)
		}
		var r denyRule
		var err error
		switch {
		case s.Principal != nil && s.NotPrincipal != nil, s.Principal == nil && s.NotPrincipal == nil:
			return bad(msgPolicyPrincipal)
		case s.Principal != nil:
			r.principals, r.anyPrincipal, err = readPrincipal(s.Principal)
		default:
			r.principals, r.anyPrincipal, err = readPrincipal(s.NotPrincipal)
			r.notPrincipal = true
		}
		if err != nil {
			return err
		}
		switch {
		case (s.Action != nil) == (s.NotAction != nil):
			return bad(msgPolicyAction)
		case s.Action != nil:
			r.actions, err = readStrings(s.Action)
		default:
			r.actions, err = readStrings(s.NotAction)
			r.notAction = true
		}
		if err != nil || len(r.actions) == 0 {
			return bad(msgPolicyAction)
		}
		valid := tablePolicyActions
		if stream {
			valid = streamPolicyActions
		}
		for i, a := range r.actions {
			l := strings.ToLower(a)
			r.actions[i] = l
			if l == "*" || strings.HasPrefix(l, "dynamodb:") && (strings.ContainsAny(l, "*?") || valid[l]) {
				continue
			}
			badActions = append(badActions, a)
		}
		switch {
		case (s.Resource != nil) == (s.NotResource != nil):
			return bad(msgPolicyResource)
		case s.Resource != nil:
			r.resources, err = readStrings(s.Resource)
		default:
			r.resources, err = readStrings(s.NotResource)
			r.notResource = true
		}
		if err != nil || len(r.resources) == 0 {
			return bad(msgPolicyResource)
		}
		for _, res := range r.resources {
			if !policyResourceFits(res, arn, stream) {
				return bad(msgPolicyForeignResource(res, arn))
			}
		}
	}
	if len(badActions) > 0 {
		quoted := make([]string, len(badActions))
		for i, a := range badActions {
			quoted[i] = `"` + a + `"`
		}
		return bad(msgPolicyBadActions(strings.Join(quoted, ", ")))
	}
	return nil
}

// readStrings reads a member that is a string or a list of strings.
func readStrings(raw json.RawMessage) ([]string, error) {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, err
	}
	return many, nil
}

// readPrincipal reads a Principal: "*", or an object whose "AWS" member
// names accounts (twelve digits), IAM ARNs or "*"; "Service",
// "Federated" and "CanonicalUser" are accepted and never match a signer.
func readPrincipal(raw json.RawMessage) (aws []string, any bool, err error) {
	var star string
	if json.Unmarshal(raw, &star) == nil {
		if star != "*" {
			return nil, false, dynamo.Validation(msgInvalidPolicy(msgPolicyBadPrincipal(star)))
		}
		return nil, true, nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || len(m) == 0 {
		return nil, false, dynamo.Validation(msgInvalidPolicy(msgPolicyPrincipal))
	}
	for k, v := range m {
		names, err := readStrings(v)
		if err != nil || len(names) == 0 {
			return nil, false, dynamo.Validation(msgInvalidPolicy(msgPolicyPrincipal))
		}
		switch k {
		case "AWS":
			for _, n := range names {
				if n == "*" {
					any = true
					continue
				}
				if !validAWSPrincipal(n) {
					return nil, false, dynamo.Validation(msgInvalidPolicy(msgPolicyBadPrincipal(n)))
				}
				aws = append(aws, n)
			}
		case "Service", "Federated", "CanonicalUser":
		default:
			return nil, false, dynamo.Validation(msgInvalidPolicy(msgPolicyPrincipal))
		}
	}
	return aws, any, nil
}

// validAWSPrincipal reports whether n names an AWS principal: an account
// id, or an IAM or STS ARN of an account.
func validAWSPrincipal(n string) bool {
	if isAccountID(n) {
		return true
	}
	f := strings.SplitN(n, ":", 6)
	return len(f) == 6 && f[0] == "arn" && f[1] != "" && (f[2] == "iam" || f[2] == "sts") &&
		f[3] == "" && isAccountID(f[4]) && f[5] != ""
}

func isAccountID(s string) bool {
	if len(s) != 12 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// policyResourceFits reports whether a policy's Resource entry names the
// resource the policy is attached to: a table's policy may name the table
// and its indexes (API_PutResourcePolicy: "You can control index
// permissions using the base table's policy"), a stream's the stream;
// "*" and IAM wildcards that match them are allowed.
func policyResourceFits(res, arn string, stream bool) bool {
	if wildMatch(res, arn) {
		return true
	}
	if stream {
		return false
	}
	return strings.HasPrefix(res, arn+"/index/") || wildMatch(res, arn+"/index/*")
}

// wildMatch reports whether s matches pattern, in which '*' stands for
// any run of characters and '?' for any one, as in IAM policies.
func wildMatch(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == s[i]):
			p++
			i++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// compilePolicies compiles the Deny statements of a table's stored
// policies; nil when it has none. A stored policy was validated when it
// was put; the resource it names does not change what it denies, so it
// is compiled without it.
func compilePolicies(ps map[string]policyMeta) map[string][]denyRule {
	if len(ps) == 0 {
		return nil
	}
	out := make(map[string][]denyRule, len(ps))
	for k, p := range ps {
		rules, _ := compileDenies(p.Document)
		out[k] = rules
	}
	return out
}

// compileDenies reads the Deny statements of a validated document.
func compileDenies(doc string) ([]denyRule, error) {
	var d policyDoc
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		return nil, err
	}
	var stmts []policyStatement
	if raw := bytes.TrimSpace(d.Statement); len(raw) > 0 && raw[0] == '{' {
		var s policyStatement
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		stmts = []policyStatement{s}
	} else if err := json.Unmarshal(raw, &stmts); err != nil {
		return nil, err
	}
	var rules []denyRule
	for _, s := range stmts {
		// A statement with a Condition is stored, not enforced: dynago
		// evaluates no condition keys (docs/AUTH.md).
		if s.Effect == nil || *s.Effect != "Deny" || s.Condition != nil {
			continue
		}
		var r denyRule
		praw := s.Principal
		if praw == nil {
			praw, r.notPrincipal = s.NotPrincipal, true
		}
		r.principals, r.anyPrincipal, _ = readPrincipal(praw)
		araw := s.Action
		if araw == nil {
			araw, r.notAction = s.NotAction, true
		}
		r.actions, _ = readStrings(araw)
		for i, a := range r.actions {
			r.actions[i] = strings.ToLower(a)
		}
		rraw := s.Resource
		if rraw == nil {
			rraw, r.notResource = s.NotResource, true
		}
		r.resources, _ = readStrings(rraw)
		rules = append(rules, r)
	}
	return rules, nil
}

// Caller is who signed a request, as the server's credentials know it:
// an access key of an account. A policy names it by its account (the
// twelve digits, or arn:aws:iam::<account>:root: every key of the
// account), by its ARN (Caller.ARN), or by "*".
type Caller struct {
	AccountID   string
	AccessKeyID string
}

// ARN is the principal a caller is: the IAM user named after its access
// key in its account, arn:aws:iam::<account>:user/<access key id>.
func (c *Caller) ARN() string { return "arn:aws:iam::" + c.AccountID + ":user/" + c.AccessKeyID }

// CheckAccess answers AccessDeniedException when a Deny statement of the
// resource-based policy of table (a name or an ARN) denies caller the
// action (an operation's name, "GetItem") on the table, or on its index
// when index is set. A table without a policy, or one this node does not
// know, costs one catalog lookup and allows: the operation then answers
// as it would (dynago has no identity-based policies, so whatever no
// policy denies is allowed; docs/AUTH.md).
func (db *DB) CheckAccess(caller *Caller, action, table, index string) error {
	t := db.lookupCached(table)
	if t == nil || t.denies == nil {
		return nil
	}
	rules := t.denies[""]
	if len(rules) == 0 {
		return nil
	}
	resource := t.arn(db)
	if index != "" {
		resource += "/index/" + index
	}
	return denied(rules, caller, action, resource)
}

// CheckStreamAccess is CheckAccess for an action on a stream, named by
// its ARN, under the stream's own policy.
func (db *DB) CheckStreamAccess(caller *Caller, action, streamArn string) error {
	_, rest, ok := strings.Cut(streamArn, ":table/")
	if !ok {
		return nil
	}
	name, label, ok := strings.Cut(rest, "/stream/")
	if !ok {
		return nil
	}
	t := db.lookupCached(name)
	if t == nil || t.denies == nil {
		return nil
	}
	rules := t.denies[label]
	if len(rules) == 0 || streamArn != t.arn(db)+"/stream/"+label {
		return nil
	}
	return denied(rules, caller, action, streamArn)
}

// denied applies rules to one request.
func denied(rules []denyRule, caller *Caller, action, resource string) error {
	act := "dynamodb:" + strings.ToLower(action)
	arn := caller.ARN()
	for i := range rules {
		r := &rules[i]
		if r.matchesPrincipal(caller, arn) && r.matchesAction(act) && r.matchesResource(resource) {
			return dynamo.AccessDenied(msgExplicitDeny(arn, action, resource))
		}
	}
	return nil
}

func (r *denyRule) matchesPrincipal(c *Caller, arn string) bool {
	m := r.anyPrincipal
	for _, p := range r.principals {
		if m {
			break
		}
		m = p == arn || p == c.AccountID || p == "arn:aws:iam::"+c.AccountID+":root"
	}
	return m != r.notPrincipal
}

func (r *denyRule) matchesAction(act string) bool {
	m := false
	for _, a := range r.actions {
		if m = a == "*" || wildMatch(a, act); m {
			break
		}
	}
	return m != r.notAction
}

func (r *denyRule) matchesResource(res string) bool {
	m := false
	for _, p := range r.resources {
		if m = wildMatch(p, res); m {
			break
		}
	}
	return m != r.notResource
}
