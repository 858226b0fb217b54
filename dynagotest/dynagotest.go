// Package dynagotest gives each Go test a DynamoDB of its own: a fresh
// in-memory dynago behind the AWS SDK's unmodified *dynamodb.Client,
// in the test's process (package local), closed when the test ends.
//
//	func TestOrders(t *testing.T) {
//		t.Parallel()
//		client := dynagotest.New(t)
//		dynagotest.CreateTables(t, client, "testdata/tables.json")
//		// ... the code under test, given client ...
//	}
//
// A database costs well under a millisecond and a few hundred KiB to
// open, so every test and subtest can have its own, and tests that run in
// parallel never see each other's tables. Direct gives package local's
// direct client instead of the SDK's (the same methods, without HTTP),
// for code that takes a local.API. Server starts a real server on a
// loopback port instead, for the AWS CLI or code in other languages.
package dynagotest

import (
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/server"
)

// New returns a DynamoDB client on a fresh, empty in-memory database of
// the test's own, closed by t.Cleanup. opts are package local's.
func New(t testing.TB, opts ...local.Option) *dynamodb.Client {
	t.Helper()
	return Open(t, opts...).Client()
}

// Direct is New with the direct client of package local: the
// *dynamodb.Client method set (local.API) calling the database's engine
// without the SDK's HTTP stack, several times faster. Code under test
// that takes a local.API (or an interface of its own with the methods it
// calls) can be given either.
func Direct(t testing.TB, opts ...local.Option) *local.Direct {
	t.Helper()
	return Open(t, opts...).Direct()
}

// Open is New for a test that wants more than one client: it returns the
// database, whose Client, StreamsClient and Config give the SDK's clients
// for it. It is closed by t.Cleanup.
func Open(t testing.TB, opts ...local.Option) *local.DB {
	t.Helper()
	db, err := local.Open(opts...)
	if err != nil {
		t.Fatalf("dynagotest: open a database: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("dynagotest: close the database: %v", err)
		}
	})
	return db
}

// Server starts a real dynago server on a free loopback port, over a
// fresh in-memory database, and returns its URL (http://127.0.0.1:PORT),
// the endpoint to give the AWS CLI (--endpoint-url), another language's
// SDK, or anything else that must speak HTTP. Any access key and region
// are accepted. The server and its database stop when the test ends.
// As with dynago serve on loopback, requests whose Host is not a loopback
// name are refused.
func Server(t testing.TB, opts ...local.Option) string {
	t.Helper()
	opts = append([]local.Option{local.WithServerConfig(func(c *server.Config) { c.CheckHost = true })}, opts...)
	db := Open(t, opts...)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("dynagotest: listen on loopback: %v", err)
	}
	hs := &http.Server{
		Handler:           db.Handler(),
		MaxHeaderBytes:    server.MaxHeaderBytes,
		ReadHeaderTimeout: 10 * time.Second,
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(server.Listener(l)) }()
	// Registered after Open's cleanup, so it runs first: the server
	// stops before its database closes.
	t.Cleanup(func() {
		hs.Close()
		if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("dynagotest: server: %v", err)
		}
	})
	return "http://" + l.Addr().String()
}
