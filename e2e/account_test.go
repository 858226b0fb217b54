package e2e

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/testserver"
)

// TestAccountMadeUpARNs: dynago's default account is no account a test
// or an example makes up (the change request: "an ARN naming account
// 000000000000 for a table that does not exist is treated as dynago's
// own"). A tag operation on an ARN of 000000000000 or 123456789012 is one
// on another account's table, answered as DynamoDB answers it: the
// ack-api-quirks lab, DDB-TABLE-071 and its catalogue record
// AccessDeniedException "Access is denied" for another account's ARN
// (the same answer TestTagARNsExact checks), whether or not a table of
// that name exists here. Only the server's own account names its tables.
func TestAccountMadeUpARNs(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "mine", types.ScalarAttributeTypeS)
	d, err := c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("mine")})
	if err != nil {
		t.Fatal(err)
	}
	own := "arn:aws:dynamodb:" + testserver.Region + ":" + engine.DefaultAccountID + ":table/mine"
	if got := aws.ToString(d.Table.TableArn); got != own {
		t.Fatalf("TableArn %s, want %s", got, own)
	}
	arnOf := func(account, table string) string {
		return "arn:aws:dynamodb:" + testserver.Region + ":" + account + ":table/" + table
	}
	tagOps := map[string]func(arn string) error{
		"TagResource": func(arn string) error {
			_, err := c.TagResource(bg(), &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}})
			return err
		},
		"UntagResource": func(arn string) error {
			_, err := c.UntagResource(bg(), &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: []string{"k"}})
			return err
		},
		"ListTagsOfResource": func(arn string) error {
			_, err := c.ListTagsOfResource(bg(), &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn)})
			return err
		},
	}
	for _, tc := range []struct {
		name, arn, code, msg string
	}{
		// [DDB-TABLE-071]: another account's ARN, of a table name that
		// exists nowhere here and of one that exists here.
		{"000000000000, no such table", arnOf("000000000000", "nosuch"), "AccessDeniedException", "Access is denied"},
		{"000000000000, a table of ours", arnOf("000000000000", "mine"), "AccessDeniedException", "Access is denied"},
		{"123456789012, no such table", arnOf("123456789012", "nosuch"), "AccessDeniedException", "Access is denied"},
		// DDB-TABLE-070: the own account's ARN of a table that does not
		// exist.
		{"own account, no such table", arnOf(engine.DefaultAccountID, "nosuch"), "ResourceNotFoundException", "Requested resource not found: ResourceArn: " + arnOf(engine.DefaultAccountID, "nosuch") + " not found"},
		// The own account's ARN of its table works.
		{"own account, its table", own, "", ""},
	} {
		for op, call := range tagOps {
			t.Run(tc.name+"/"+op, func(t *testing.T) {
				err := call(tc.arn)
				if tc.code == "" {
					if err != nil {
						t.Fatal(err)
					}
					return
				}
				wantErr(t, err, tc.code, tc.msg)
			})
		}
	}
}

// TestAccountAcrossRestart: a data directory keeps its account across a
// restart, so the ARNs it handed out (its table's, and its stream's,
// which the stream's stored definition holds) still name its table and
// stream. A directory written before the account was stored, with the
// old default 000000000000, keeps that account: engine's
// TestAccountOfOldData opens one.
func TestAccountAcrossRestart(t *testing.T) {
	needsWire(t)
	dir := t.TempDir()
	p := testserver.StartProcess(t, "--data-dir", dir)
	c := testserver.NewClient(p.URL)
	streamARN := createStreamTable(t, c, "kept", types.StreamViewTypeNewImage)
	before := describe(t, c, "kept")
	p.Stop(t)

	p = testserver.StartProcess(t, "--data-dir", dir)
	c = testserver.NewClient(p.URL)
	after := describe(t, c, "kept")
	for _, tc := range []struct{ what, before, after string }{
		{"TableArn", aws.ToString(before.TableArn), aws.ToString(after.TableArn)},
		{"LatestStreamArn", streamARN, aws.ToString(after.LatestStreamArn)},
	} {
		if tc.before != tc.after || !strings.Contains(tc.after, ":"+engine.DefaultAccountID+":") {
			t.Errorf("%s %s after the restart, %s before; want it unchanged, of account %s", tc.what, tc.after, tc.before, engine.DefaultAccountID)
		}
	}
	sc := testserver.NewStreamsClient(p.URL)
	if _, err := sc.DescribeStream(bg(), &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(streamARN)}); err != nil {
		t.Fatalf("DescribeStream of the stream ARN from before the restart: %v", err)
	}
	if _, err := c.TagResource(bg(), &dynamodb.TagResourceInput{ResourceArn: before.TableArn, Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}}); err != nil {
		t.Fatalf("TagResource on the table ARN from before the restart: %v", err)
	}
}
