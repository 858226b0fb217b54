// Package bench is dynago's load generator. It drives any DynamoDB endpoint
// (dynago, DynamoDB Local, or AWS itself) with a fixed number of concurrent
// clients issuing PutItem and GetItem calls against a single table keyed by a
// string hash key "pk", and reports throughput and latency percentiles per
// workload and per operation.
//
// Two client modes exist. The "sdk" mode uses aws-sdk-go-v2, as a real
// application would, so the figures include the SDK's serialization,
// signing and middleware. The "raw" mode sends pre-encoded JSON bodies with
// plain net/http and only checks the status code, so almost all of the time
// measured is spent in the network stack and in the server.
//
// A ceiling mode replaces the endpoint with an in-process HTTP server that
// answers every request with a canned, valid DynamoDB response. Running the
// same workload against it measures the most the client side can reach on
// this machine, which is the yardstick for reading any other figure.
//
// Latencies are recorded in Histogram, a log-bucketed histogram with bounded
// memory and about 1% relative error, one per client and operation, merged at
// the end of each workload.
//
// The package does no flag parsing and reads no environment; the "dynago
// bench" verb in internal/cli wires flags to Config.
package bench
