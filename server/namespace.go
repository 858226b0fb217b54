package server

import (
	"context"
	"net/http"
	"strings"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/server/sigv4"
)

// Namespaces holds a database per access key and region, so that clients
// signing with different keys or regions see different tables, as
// DynamoDB Local keeps them unless started with -sharedDb:
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/DynamoDBLocal.UsageNotes.html
type Namespaces interface {
	// DB returns the database of the access key and region a request was
	// signed with, opening it if need be. An *engine.Error is answered
	// as it is (say, LimitExceededException past a bound).
	DB(accessKey, region string) (*engine.DB, error)
	// All returns the databases open now.
	All() []*engine.DB
}

// namespaceDB returns the database of the access key and region r is
// signed for: from the Credential of its Authorization header, or of its
// X-Amz-Credential query parameter. A request signed neither way gets
// DynamoDB's answer to an unsigned request.
func (s *Server) namespaceDB(r *http.Request) (*engine.DB, error) {
	key, region, ok := credentialScope(r)
	if !ok {
		return nil, sigv4.MissingToken()
	}
	return s.namespaces.DB(key, region)
}

// credentialScope reads the access key id and region of a SigV4
// credential, "AKID/20260101/us-east-1/dynamodb/aws4_request". It checks
// nothing else of the signature.
func credentialScope(r *http.Request) (key, region string, ok bool) {
	cred := r.URL.Query().Get("X-Amz-Credential")
	if h := r.Header.Get("Authorization"); h != "" {
		cred = ""
		_, params, _ := strings.Cut(h, " ")
		for _, p := range strings.FieldsFunc(params, func(c rune) bool { return c == ',' || c == ' ' }) {
			if v, found := strings.CutPrefix(p, "Credential="); found {
				cred = v
				break
			}
		}
	}
	parts := strings.Split(cred, "/")
	if len(parts) != 5 || parts[0] == "" || parts[2] == "" {
		return "", "", false
	}
	return parts[0], parts[2], true
}

// ping checks the store of the server's database, or of every namespace
// open.
func (s *Server) ping(ctx context.Context) error {
	if s.namespaces == nil {
		return s.db.Ping(ctx)
	}
	for _, db := range s.namespaces.All() {
		if err := db.Ping(ctx); err != nil {
			return err
		}
	}
	return nil
}

// sweepExpired runs one Time to Live sweep of the server's database, or
// of every namespace open, and returns how many items it deleted.
func (s *Server) sweepExpired() (int, error) {
	if s.namespaces == nil {
		return s.db.SweepExpired()
	}
	total := 0
	for _, db := range s.namespaces.All() {
		n, err := db.SweepExpired()
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// DBFor returns the database a request reaches: the server's own, or,
// with Namespaces, that of the access key and region the request is
// signed for. The console's endpoints use it to answer for the caller's
// tables.
func (s *Server) DBFor(r *http.Request) (*engine.DB, error) {
	if s.namespaces == nil {
		return s.db, nil
	}
	return s.namespaceDB(r)
}

// PerAccount reports whether the server keeps a database per access key
// and region (Config.Namespaces).
func (s *Server) PerAccount() bool { return s.namespaces != nil }

// DBs returns every database the server serves now: its own, or every
// namespace open.
func (s *Server) DBs() []*engine.DB {
	if s.namespaces == nil {
		return []*engine.DB{s.db}
	}
	return s.namespaces.All()
}
