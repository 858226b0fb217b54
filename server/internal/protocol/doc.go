// Package protocol is DynamoDB's JSON 1.0 wire format: a purpose-built
// decoder of every request body into the engine's input types and an
// encoder of every output and error, with no reflection on the way.
//
// # What holds inside
//
//   - Malformed JSON and JSON of the wrong type become
//     SerializationException here, with DynamoDB's texts; everything
//     semantic (constraints, expressions, the table's existence) is left
//     to the engine, so the decoder keeps what DynamoDB validates later
//     (an empty expression member, a malformed attribute value) in the
//     input for the engine to report in DynamoDB's order.
//   - One table maps error codes to their __type, message and HTTP
//     status (errors.go).
//   - protocol knows nothing of HTTP, storage or how an operation runs.
package protocol
