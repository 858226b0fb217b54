package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// policyDoc is a resource-based policy of one statement.
func policyDoc(effect, principal, action string, resources ...string) string {
	quoted := make([]string, len(resources))
	for i, r := range resources {
		quoted[i] = strconv.Quote(r)
	}
	return `{"Version":"2012-10-17","Statement":[{"Effect":"` + effect + `","Principal":{"AWS":"` + principal +
		`"},"Action":["` + action + `"],"Resource":[` + strings.Join(quoted, ",") + `]}]}`
}

// policyView is what a policy operation answers, in one comparable form.
type policyView struct {
	Policy, Revision string
}

func putPolicy(arn, doc, expected string) func(local.API) (policyView, error) {
	return func(c local.API) (policyView, error) {
		in := &dynamodb.PutResourcePolicyInput{ResourceArn: aws.String(arn), Policy: aws.String(doc)}
		if expected != "" {
			in.ExpectedRevisionId = aws.String(expected)
		}
		o, err := c.PutResourcePolicy(bg(), in)
		if err != nil {
			return policyView{}, err
		}
		return policyView{Revision: aws.ToString(o.RevisionId)}, nil
	}
}

func getPolicy(arn string) func(local.API) (policyView, error) {
	return func(c local.API) (policyView, error) {
		o, err := c.GetResourcePolicy(bg(), &dynamodb.GetResourcePolicyInput{ResourceArn: aws.String(arn)})
		if err != nil {
			return policyView{}, err
		}
		return policyView{Policy: aws.ToString(o.Policy), Revision: aws.ToString(o.RevisionId)}, nil
	}
}

func deletePolicy(arn, expected string) func(local.API) (policyView, error) {
	return func(c local.API) (policyView, error) {
		in := &dynamodb.DeleteResourcePolicyInput{ResourceArn: aws.String(arn)}
		if expected != "" {
			in.ExpectedRevisionId = aws.String(expected)
		}
		o, err := c.DeleteResourcePolicy(bg(), in)
		if err != nil {
			return policyView{}, err
		}
		return policyView{Revision: aws.ToString(o.RevisionId)}, nil
	}
}

// TestResourcePolicy walks a table's and a stream's resource-based
// policies through put, get and delete, with their revision ids, and the
// refusals. Each case cites its source; the server's clock is stopped, so
// revision ids (Unix milliseconds, one above the last where the clock has
// not moved) are known in advance.
func TestResourcePolicy(t *testing.T) {
	_, c := startFixed(t)
	createHash(t, c, "Music", types.ScalarAttributeTypeS)
	streamArn := createStreamTable(t, c, "Feed", types.StreamViewTypeKeysOnly)
	music := tableARN("Music")
	rev := func(n int64) string { return strconv.FormatInt(fixedNow.UnixMilli()+n, 10) }
	acct := testserver.AccountID
	all := policyDoc("Allow", acct, "dynamodb:*", music)
	puts := policyDoc("Allow", acct, "dynamodb:PutItem", music, music+"/index/*")
	gets := policyDoc("Deny", "arn:aws:iam::"+acct+":user/reader", "dynamodb:GetItem", "*")
	streamDoc := policyDoc("Allow", acct, "dynamodb:GetRecords", streamArn)

	for _, tc := range []struct {
		name      string
		run       func(local.API) (policyView, error)
		want      policyView
		code, msg string
	}{
		// A table without a policy: PolicyNotFoundException (moto's
		// test_get_resource_policy_from_resource_without, verified
		// against AWS).
		{name: "get none", run: getPolicy(music), code: "PolicyNotFoundException",
			msg: "Resource-based policy not found for the provided ResourceArn: " + music},
		// Delete without a policy is no error, and answers no RevisionId
		// (API_DeleteResourcePolicy: idempotent; the output's RevisionId
		// "will be empty if you make a request against a resource without
		// a policy").
		{name: "delete none", run: deletePolicy(music, ""), want: policyView{}},
		// NO_POLICY puts only where there is none
		// (API_PutResourcePolicy; moto's
		// test_put_resource_policy_against_norevision, verified).
		{name: "put NO_POLICY", run: putPolicy(music, all, "NO_POLICY"), want: policyView{Revision: rev(0)}},
		{name: "get", run: getPolicy(music), want: policyView{Policy: all, Revision: rev(0)}},
		// The same document again keeps its revision (moto's
		// test_put_resource_policy_multiple_times, verified; the API
		// reference: idempotent).
		{name: "put same", run: putPolicy(music, all, ""), want: policyView{Revision: rev(0)}},
		{name: "put NO_POLICY again", run: putPolicy(music, puts, "NO_POLICY"), code: "PolicyNotFoundException",
			msg: "Resource-based policy not found for the provided ResourceArn: Requested policy update expecting none to be present for table Music, but a policy exists with revision id " + rev(0) + "."},
		// Another document with the current revision: a new, greater
		// revision (moto's test_put_resource_policy_against_current_revision
		// and _multiple_times, verified: revision ids are timestamps).
		{name: "put current", run: putPolicy(music, puts, rev(0)), want: policyView{Revision: rev(1)}},
		{name: "get new", run: getPolicy(music), want: policyView{Policy: puts, Revision: rev(1)}},
		// A stale revision (moto's
		// test_put_resource_policy_against_previous_revision and
		// test_delete_resource_policy_from_former_revision, verified).
		{name: "put stale", run: putPolicy(music, gets, rev(0)), code: "PolicyNotFoundException",
			msg: "Resource-based policy not found for the provided ResourceArn: Requested update for policy with revision id " + rev(0) + ", but the policy associated to target table Music has revision id " + rev(1) + "."},
		{name: "delete stale", run: deletePolicy(music, "unknown"), code: "PolicyNotFoundException",
			msg: "Resource-based policy not found for the provided ResourceArn: Requested update for policy with revision id unknown, but the policy associated to target table Music has revision id " + rev(1) + "."},
		// Delete with the current revision; then it is gone (moto's
		// test_delete_resource_policy_with_revision, verified), and its
		// revision is answered (API_DeleteResourcePolicy's RevisionId).
		{name: "delete", run: deletePolicy(music, rev(1)), want: policyView{Revision: rev(1)}},
		{name: "get deleted", run: getPolicy(music), code: "PolicyNotFoundException",
			msg: "Resource-based policy not found for the provided ResourceArn: " + music},
		// An ExpectedRevisionId where there is no policy:
		// PolicyNotFoundException (API_DeleteResourcePolicy,
		// API_PutResourcePolicy); the text has no recording (dynago
		// answers GetResourcePolicy's).
		{name: "delete expected none", run: deletePolicy(music, rev(1)), code: "PolicyNotFoundException",
			msg: "Resource-based policy not found for the provided ResourceArn: " + music},
		{name: "put expected none", run: putPolicy(music, all, rev(1)), code: "PolicyNotFoundException",
			msg: "Resource-based policy not found for the provided ResourceArn: " + music},
		// A later put gets a revision above every earlier one.
		{name: "put after delete", run: putPolicy(music, gets, ""), want: policyView{Revision: rev(2)}},
		// A stream's policy (API_PutResourcePolicy: "tables and streams";
		// its actions are the stream's, rbac examples).
		{name: "stream put", run: putPolicy(streamArn, streamDoc, ""), want: policyView{Revision: rev(0)}},
		{name: "stream get", run: getPolicy(streamArn), want: policyView{Policy: streamDoc, Revision: rev(0)}},
		{name: "stream table none", run: getPolicy(tableARN("Feed")), code: "PolicyNotFoundException",
			msg: "Resource-based policy not found for the provided ResourceArn: " + tableARN("Feed")},

		// A table that does not exist (moto's
		// test_put_resource_policy_unknown_resource,
		// test_get_resource_policy_from_unknown_resource and
		// test_delete_resource_policy_from_unknown_resource, verified).
		{name: "put no table", run: putPolicy(music+"_", policyDoc("Allow", acct, "dynamodb:*", music+"_"), ""), code: "ResourceNotFoundException",
			msg: "Requested resource not found: Table: Music_ not found"},
		{name: "get no table", run: getPolicy(music + "unknown"), code: "ResourceNotFoundException",
			msg: "Requested resource not found: Table: Musicunknown not found"},
		{name: "delete no table", run: deletePolicy(music+"unknown", ""), code: "ResourceNotFoundException",
			msg: "Requested resource not found: Table: Musicunknown not found"},
		// A stream that does not exist, in the Streams API's words for
		// one (no recording for this operation).
		{name: "get no stream", run: getPolicy(tableARN("Feed") + "/stream/2000-01-01T00:00:00.000"), code: "ResourceNotFoundException",
			msg: "Requested resource not found: Stream: " + tableARN("Feed") + "/stream/2000-01-01T00:00:00.000 not found"},
		// ResourceArns that name no table or stream: the tag operations'
		// answers (ScyllaDB Alternator's test_tag.py, the ack-api-quirks
		// catalogue); not recorded for these operations.
		{name: "index arn", run: getPolicy(music + "/index/g"), code: "ValidationException",
			msg: "One or more parameter values were invalid: Invalid resource arn provided, only table or stream is accepted. Provided resource arn: " + music + "/index/g"},
		{name: "not an arn", run: getPolicy("Music"), code: "ValidationException",
			msg: "One or more parameter values were invalid: ARNs must start with 'arn:': Music"},

		// Invalid documents. The invalid actions' text is recorded:
		// a stream's policy naming dynamodb:ListStreams
		// (aws-controllers-k8s/dynamodb-controller pull request 176) and
		// a table's naming the stream actions (aws/aws-cdk pull request
		// 36194, issue 32230).
		{name: "stream ListStreams", run: putPolicy(streamArn, policyDoc("Allow", acct, "dynamodb:ListStreams", streamArn), ""), code: "ValidationException",
			msg: `One or more parameter values were invalid: Invalid policy document: The following action names are invalid: "dynamodb:ListStreams"`},
		{name: "table GetRecords", run: putPolicy(music, policyDoc("Allow", acct, "dynamodb:GetRecords", music), ""), code: "ValidationException",
			msg: `One or more parameter values were invalid: Invalid policy document: The following action names are invalid: "dynamodb:GetRecords"`},
		// The other refusals have no recording; the texts are dynago's
		// (engine/messages.go): not JSON (IAM's words for it), a
		// resource of another table, no principal, a bad effect, over
		// 20 KB (API_PutResourcePolicy's limit, whitespace counted).
		{name: "not json", run: putPolicy(music, "{", ""), code: "ValidationException",
			msg: "One or more parameter values were invalid: Invalid policy document: Syntax errors in policy."},
		{name: "foreign resource", run: putPolicy(music, policyDoc("Allow", acct, "dynamodb:GetItem", tableARN("Other")), ""), code: "ValidationException",
			msg: "One or more parameter values were invalid: Invalid policy document: Policy resource " + tableARN("Other") + " does not match the resource the policy is attached to: " + music},
		{name: "no principal", run: putPolicy(music, `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"dynamodb:*","Resource":"*"}}`, ""), code: "ValidationException",
			msg: "One or more parameter values were invalid: Invalid policy document: Each statement must have one Principal or NotPrincipal naming AWS principals"},
		{name: "bad effect", run: putPolicy(music, policyDoc("Permit", acct, "dynamodb:*", music), ""), code: "ValidationException",
			msg: "One or more parameter values were invalid: Invalid policy document: Each statement's Effect must be Allow or Deny"},
		{name: "bad version", run: putPolicy(music, `{"Version":"2020-01-01","Statement":[]}`, ""), code: "ValidationException",
			msg: "One or more parameter values were invalid: Invalid policy document: Invalid Version 2020-01-01: the policy language version must be 2012-10-17 or 2008-10-17"},
		{name: "too large", run: putPolicy(music, policyDoc("Allow", acct, "dynamodb:*", music)+strings.Repeat(" ", 20<<10), ""), code: "ValidationException",
			msg: "One or more parameter values were invalid: Policy document size exceeds the maximum allowed size of 20 KB"},
		// Member constraints (AWS's service model: ResourceArn of 1 to
		// 1283 characters, ExpectedRevisionId of 1 to 255), in
		// DynamoDB's words for them.
		{name: "long revision", run: deletePolicy(music, strings.Repeat("9", 256)), code: "ValidationException",
			msg: "1 validation error detected: Value '" + strings.Repeat("9", 256) + "' at 'expectedRevisionId' failed to satisfy constraint: Member must have length less than or equal to 255"},
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

// TestResourcePolicyTableLife: CreateTable's ResourcePolicy is the
// table's policy (API_CreateTable: "attached to the table", strongly
// consistent); a policy goes with its table, so a table made again
// under the name has none; a CREATING table refuses a put with
// ResourceInUseException (the operation's errors in AWS's service
// model), in the words of the other table changes.
func TestResourcePolicyTableLife(t *testing.T) {
	_, c := startFixed(t)
	arn := tableARN("Life")
	doc := policyDoc("Deny", "arn:aws:iam::"+testserver.AccountID+":user/x", "dynamodb:DeleteTable", arn)
	create := func(policy *string) {
		t.Helper()
		_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
			TableName: aws.String("Life"), BillingMode: types.BillingModePayPerRequest, ResourcePolicy: policy,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	create(aws.String(doc))
	got, err := getPolicy(arn)(c)
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "policy from CreateTable", got, policyView{Policy: doc, Revision: strconv.FormatInt(fixedNow.UnixMilli(), 10)})
	if _, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("Life")}); err != nil {
		t.Fatal(err)
	}
	create(nil)
	_, err = getPolicy(arn)(c)
	wantErr(t, err, "PolicyNotFoundException", "Resource-based policy not found for the provided ResourceArn: "+arn)

	// CreateTable refuses an invalid policy as PutResourcePolicy does.
	_, err = c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName: aws.String("Bad"), BillingMode: types.BillingModePayPerRequest, ResourcePolicy: aws.String("{"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	})
	wantErr(t, err, "ValidationException", "One or more parameter values were invalid: Invalid policy document: Syntax errors in policy.")
}

// TestResourcePolicyInUse: while a table is CREATING, a put is refused
// with ResourceInUseException (API_PutResourcePolicy's errors), in the
// words dynago gives every table change then.
func TestResourcePolicyInUse(t *testing.T) {
	s := testserver.Start(t, testserver.WithEngineOptions(func(o *engine.Options) { o.TransientDelay = time.Hour }))
	c := client(t, s)
	createHash(t, c, "Slow", types.ScalarAttributeTypeS)
	arn := tableARN("Slow")
	_, err := putPolicy(arn, policyDoc("Allow", testserver.AccountID, "dynamodb:*", arn), "")(c)
	wantErr(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being created: Slow")
}

// TestResourcePolicyAcrossRestart: a policy is kept in the table's
// catalog entry, so it survives a restart with its revision.
func TestResourcePolicyAcrossRestart(t *testing.T) {
	needsWire(t)
	dir := t.TempDir()
	p := testserver.StartProcess(t, "--data-dir", dir)
	c := testserver.NewClient(p.URL)
	createHash(t, c, "Kept", types.ScalarAttributeTypeS)
	arn := tableARN("Kept")
	doc := policyDoc("Allow", testserver.AccountID, "dynamodb:*", arn)
	put, err := putPolicy(arn, doc, "")(c)
	if err != nil {
		t.Fatal(err)
	}
	p.Stop(t)
	p = testserver.StartProcess(t, "--data-dir", dir)
	got, err := getPolicy(arn)(testserver.NewClient(p.URL))
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "policy after a restart", got, policyView{Policy: doc, Revision: put.Revision})
}
