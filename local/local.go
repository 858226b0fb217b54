// Package local runs dynago inside a Go program and gives it the AWS
// SDK's own clients: an unmodified *dynamodb.Client and
// *dynamodbstreams.Client (with their paginators, waiters, attributevalue
// and the expression builder) whose requests go straight into dynago's
// HTTP handler in the same process, with no socket and no port.
//
//	db, err := local.Open()
//	if err != nil { ... }
//	defer db.Close()
//	client := db.Client() // or dynamodb.NewFromConfig(db.Config())
//
// Everything the SDK does still happens (signing, serialising, the
// x-amz-crc32 check, retries), and so does everything dynago's server
// does (validation, DynamoDB's errors and limits), so code sees exactly
// the answers it would see over the network. What is saved is the
// network: Transport hands each request to the handler in the caller's
// goroutine.
//
// DB.Direct gives a faster client still: Direct has the method set of
// *dynamodb.Client (API is the interface both satisfy) but calls the
// engine without HTTP or JSON, answering and failing exactly as the SDK's
// client does (DirectStreams is the same for DynamoDB Streams).
//
// A database opened by Open lives in memory and is small (MemTableSize,
// CacheSize): opening one costs well under a millisecond and a few
// hundred KiB, so every test can have its own (package dynagotest).
package local

import (
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/faults"
	"github.com/dynago/dynago/server"
)

// The account, region and credentials of a local database's clients.
// Signatures are not checked; the region and account appear in ARNs (a
// directory written before AccountID was engine.DefaultAccountID keeps
// the account it was written with, engine.LegacyAccountID).
const (
	Region          = engine.DefaultRegion
	AccountID       = engine.DefaultAccountID
	AccessKeyID     = "local"
	SecretAccessKey = "local"
)

// Endpoint is the base endpoint of a local database's clients. Its host
// is in the .invalid domain, which never resolves (RFC 2606), so a client
// given the endpoint without the Transport fails at once instead of
// reaching some other server.
const Endpoint = "http://dynago.invalid"

// Pebble's sizes for a database Open keeps in memory: a test database
// holds little, and a process may hold thousands of them. A server's
// defaults are 64 MiB of each.
const (
	MemTableSize = 4 << 20
	CacheSize    = 1 << 20
)

// An Option changes how Open opens a database.
type Option func(*settings)

type settings struct {
	engine engine.Options
	server server.Config
	faults *faults.Plan
}

// WithDir keeps the database in the data directory dir instead of in
// memory, with a server's sizes (see engine.Options); it survives Close
// and can be opened again.
func WithDir(dir string) Option {
	return func(s *settings) {
		s.engine.InMemory = false
		s.engine.Dir = dir
		s.engine.MemTableSize, s.engine.CacheSize = 0, 0
	}
}

// WithEngineOptions lets set change the engine's options (clock, stream
// shard duration, Time to Live sweeps, transient delays, sizes, ...).
func WithEngineOptions(set func(*engine.Options)) Option {
	return func(s *settings) { set(&s.engine) }
}

// WithEnforceCapacity enforces the tables' capacity as DynamoDB does
// (engine.Options.EnforceCapacity): requests beyond a provisioned table's
// units, an on-demand table's maximum or a partition's limits are
// throttled, with now as the clock the units refill by (nil: the
// engine's clock). docs/REHEARSAL.md, "Capacity".
func WithEnforceCapacity(now func() time.Time) Option {
	return func(s *settings) {
		s.engine.EnforceCapacity = true
		s.engine.CapacityNow = now
	}
}

// WithServerConfig lets set change the HTTP handler's configuration
// (request size limit, buffer budget, logger, ...).
func WithServerConfig(set func(*server.Config)) Option {
	return func(s *settings) { set(&s.server) }
}

// WithFaults gives the database a fault plan (package faults): its
// clients' requests get the plan's errors, delays, unprocessed batch
// items and dropped connections (ErrDropped) as a server's clients do
// over the network (see docs/REHEARSAL.md). DB.SetFaults changes it
// later. Without it, nothing is injected.
func WithFaults(p *faults.Plan) Option {
	return func(s *settings) { s.faults = p }
}

// DB is an open dynago database with in-process SDK clients. It is safe
// for concurrent use.
type DB struct {
	engine    *engine.DB
	handler   *server.Server
	transport *Transport
	region    string
	maxBody   int64 // the handler's request size limit, 0 for its default
}

// Open opens a database: by default a fresh, empty one in memory.
func Open(opts ...Option) (*DB, error) {
	s := settings{engine: engine.Options{
		InMemory:     true,
		Region:       Region,
		AccountID:    AccountID,
		MemTableSize: MemTableSize,
		CacheSize:    CacheSize,
	}}
	for _, o := range opts {
		o(&s)
	}
	e, err := engine.Open(s.engine)
	if err != nil {
		return nil, err
	}
	h := server.New(e, s.server)
	if s.faults != nil {
		if err := h.SetFaults(s.faults); err != nil {
			e.Close()
			return nil, err
		}
	}
	region := s.engine.Region
	if region == "" {
		region = Region
	}
	return &DB{engine: e, handler: h, transport: NewTransport(h), region: region, maxBody: s.server.MaxBodyBytes}, nil
}

// Close closes the database. Requests sent after it fail with ErrClosed.
func (db *DB) Close() error {
	db.transport.close()
	return db.engine.Close()
}

// SetFaults makes p the database's fault plan, its counts from zero (nil
// removes it), as the server's /dynago/faults endpoint does.
func (db *DB) SetFaults(p *faults.Plan) error { return db.handler.SetFaults(p) }

// Faults returns a copy of the database's fault plan, or nil.
func (db *DB) Faults() *faults.Plan { return db.handler.Faults() }

// Engine returns the engine under the database, for what the DynamoDB
// API does not do.
func (db *DB) Engine() *engine.DB { return db.engine }

// Handler returns the database's HTTP handler: dynago's server, which
// could also be served on a listener of your own.
func (db *DB) Handler() http.Handler { return db.handler }

// HTTPClient returns the in-process transport, for the HTTPClient of an
// SDK client configured by hand.
func (db *DB) HTTPClient() *Transport { return db.transport }

// Config returns an SDK configuration for the database: its region, static
// credentials, Endpoint as the base endpoint and the in-process transport
// as the HTTP client. Retries are the SDK's defaults, as against AWS.
// dynamodb.NewFromConfig and dynamodbstreams.NewFromConfig take it as it
// is.
func (db *DB) Config() aws.Config {
	return aws.Config{
		Region:       db.region,
		Credentials:  credentials.NewStaticCredentialsProvider(AccessKeyID, SecretAccessKey, ""),
		HTTPClient:   db.transport,
		BaseEndpoint: aws.String(Endpoint),
	}
}

// Client returns a DynamoDB client for the database; optFns change its
// options as they would for dynamodb.NewFromConfig.
func (db *DB) Client(optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	return dynamodb.NewFromConfig(db.Config(), optFns...)
}

// StreamsClient returns a DynamoDB Streams client for the database.
func (db *DB) StreamsClient(optFns ...func(*dynamodbstreams.Options)) *dynamodbstreams.Client {
	return dynamodbstreams.NewFromConfig(db.Config(), optFns...)
}

// WithEventualConsistency makes the database behave as DynamoDB does
// between replicas: global secondary indexes lag their table by a delay
// drawn between 0 and twice gsiLag, and eventually consistent reads of a
// table may return an item's previous version for a delay drawn below
// staleReads after each write; seed makes the draws repeat (0: one from
// the clock). See engine.Options.GSILag, StaleReads and ConsistencySeed,
// and docs/REHEARSAL.md.
func WithEventualConsistency(gsiLag, staleReads time.Duration, seed int64) Option {
	return func(s *settings) {
		s.engine.GSILag, s.engine.StaleReads, s.engine.ConsistencySeed = gsiLag, staleReads, seed
	}
}
