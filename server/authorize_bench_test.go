package server

import (
	"testing"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// BenchmarkAuthorizeNoPolicy is what a signed GetItem on a table without
// a resource-based policy pays for the policy check (authorize.go): one
// catalog lookup. BenchmarkAuthorizeDenyMiss is the same on a table whose
// policy denies someone else.
func BenchmarkAuthorizeNoPolicy(b *testing.B) {
	s := benchServer(b)
	caller := &engine.Caller{AccountID: engine.DefaultAccountID, AccessKeyID: "AKIDBENCH"}
	in := &dynamo.GetItemInput{TableName: "bench"}
	b.ReportAllocs()
	for b.Loop() {
		if err := authorize(s.db, caller, in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAuthorizeDenyMiss(b *testing.B) {
	s := benchServer(b)
	arn := "arn:aws:dynamodb:" + engine.DefaultRegion + ":" + engine.DefaultAccountID + ":table/bench"
	if _, err := s.db.PutResourcePolicy(&dynamo.PutResourcePolicyInput{ResourceArn: arn,
		Policy: `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Principal":{"AWS":"arn:aws:iam::` + engine.DefaultAccountID +
			`:user/someone"},"Action":"dynamodb:*","Resource":"` + arn + `"}]}`}); err != nil {
		b.Fatal(err)
	}
	caller := &engine.Caller{AccountID: engine.DefaultAccountID, AccessKeyID: "AKIDBENCH"}
	in := &dynamo.GetItemInput{TableName: "bench"}
	b.ReportAllocs()
	for b.Loop() {
		if err := authorize(s.db, caller, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAuthorizeStatementNoPolicy is BenchmarkAuthorizeNoPolicy for
// a PartiQL SELECT: a hit in the statement cache, and the lookup.
func BenchmarkAuthorizeStatementNoPolicy(b *testing.B) {
	s := benchServer(b)
	caller := &engine.Caller{AccountID: engine.DefaultAccountID, AccessKeyID: "AKIDBENCH"}
	in := &dynamo.ExecuteStatementInput{Statement: `SELECT * FROM "bench" WHERE pk = 'key-1'`}
	b.ReportAllocs()
	for b.Loop() {
		if err := authorize(s.db, caller, in); err != nil {
			b.Fatal(err)
		}
	}
}
