// Package e2e holds dynago's end-to-end tests: they start the real server
// on a loopback port and drive it with real clients (the AWS SDK for Go,
// hand-made HTTP requests, the AWS CLI and boto3), asserting the answers
// Amazon DynamoDB gives, down to error codes and messages.
//
// The package has no code of its own; see the _test.go files.
package e2e
