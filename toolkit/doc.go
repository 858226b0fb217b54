// Package toolkit holds the client-side halves of the DynamoDB data-modeling
// techniques dynago was built for, packaged so they are correct and fast
// against any DynamoDB endpoint: dynago, DynamoDB Local, or AWS itself.
//
// The subpackages depend only on small interfaces holding the
// aws-sdk-go-v2 DynamoDB (and DynamoDB Streams) client methods they call,
// all satisfied by *dynamodb.Client and *dynamodbstreams.Client, and
// import nothing of dynago outside toolkit. They assume nothing
// AWS would not do: no synchronous indexes, no particular scan order.
//
//   - compkey: composite key strings that parse back and sort like their
//     parts.
//   - distinct: the distinct partition keys of a table, by parallel
//     skip-scan.
//   - retrofit: add a derived attribute to every item of a live table
//     without overwriting concurrent changes, paced and resumable.
//   - planner: choose an index for a query, run parallel queries and
//     merge them with exact pagination.
//   - replicate: copy a live table into a new one (optionally deriving
//     attributes or changing its key design) by a consistent scan and
//     stream catch-up, resumable, then verify the two match.
package toolkit
