// Package bench is dynago's load generator. It drives any DynamoDB endpoint
// (dynago, DynamoDB Local, or AWS itself) with a fixed number of concurrent
// clients, and reports throughput and latency percentiles per workload and
// per operation.
//
// The put, get and mixed workloads issue PutItem and GetItem calls against a
// table keyed by a string hash key "pk". The query and scan workloads read
// pages of a second table, named with SortedTableSuffix, keyed by "pk" and
// a string range key "sk": its items are spread evenly over a number of
// partitions (collections), with sort keys in the order of writing. A query
// call fetches the newest page of a random collection (ScanIndexForward
// false, Limit the page size); a scan call fetches the next page of a
// parallel scan in which each client owns one segment, continuing from the
// LastEvaluatedKey and starting over at the end of its segment, so that the
// clients together read the whole table again and again. Both report the
// items returned per second as well as the calls. The fscan workload is
// the scan with a filter on a non-key attribute that keeps one item in
// Groups, and reports the items scanned (ScannedCount) per second.
//
// The batchwrite workload is a BatchWriteItem of BatchSize PutRequests to
// the put/get table, and reports the items written per second. Workloads
// that count items also report CPU time per item.
//
// The update and transact workloads write preloaded items of the put/get
// table by expression: an update sets a string attribute and adds one to a
// counter; a transact is a TransactWriteItems of two updates, each on
// condition that its item exists, moving a unit of a balance from one
// random item to another, so that the balances always sum to zero.
//
// A run may load several endpoints, servers of one database: client i
// calls endpoint i mod their number, and results are broken down by
// endpoint. On Linux each workload also reports the CPU used by groups of
// processes named by PID (the servers, the database), each with its
// descendants, by the benchmark's own process and by the whole machine,
// read from /proc.
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
// bench" verb in cmd/dynago/cli wires flags to Config.
package bench
