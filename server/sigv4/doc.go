// Package sigv4 checks the AWS Signature Version 4 signatures of DynamoDB
// requests against a file of access keys, as DynamoDB's endpoint does, and
// answers a failure with DynamoDB's exception and exact message.
//
// # What holds
//
//   - Verify never reads the request body: the server hands it the bytes it
//     read (or VerifyPayloadHash their SHA-256), as they arrived on the
//     wire, before any Content-Encoding is undone, since that is what the
//     client signed.
//   - The checks run in DynamoDB's order (recorded by dynalite against the
//     service): presence of a token, the header's parts, the date's form,
//     the 15-minute window, Host among the signed headers, the algorithm,
//     the credential's shape and scope, the access key, the signature, the
//     session token. The first that fails is the answer.
//   - Every error is an *engine.Error whose code server/internal/protocol sends
//     with HTTP 400 and the __type prefix com.amazon.coral.service#.
//   - Signatures are compared in constant time; signing keys are derived
//     once per secret, day and region and cached.
//   - The time is a parameter: nothing here reads the clock but Handler,
//     through Verifier.Now.
//
// # Where dynago accepts more than DynamoDB
//
//   - Any region name of lowercase letters, digits and dashes.
//   - A long-term key's request may carry any X-Amz-Security-Token; a key
//     configured with token= needs exactly its token.
//   - X-Amz-Content-Sha256: UNSIGNED-PAYLOAD leaves the body out of the
//     signature.
//
// See docs/AUTH.md for the credentials file and how to point clients at a
// server that checks signatures.
package sigv4
