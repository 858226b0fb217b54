// Package dynamo holds DynamoDB's request and response shapes as dynago
// speaks them: the inputs and outputs of every operation, their enums,
// the error type every layer reports to clients (*Error, with a
// constructor per error code) and the texts of errors that more than one
// layer gives.
//
// It stands at the bottom of the tree, above attr only, so the wire codec,
// the signature checker, the in-process client and the console can share
// the engine's types without linking the engine or a storage engine. The
// shapes follow DynamoDB's API reference field for field; the engine's
// persisted catalog has types of its own (engine/catalog_types.go), so an
// edit here never changes what is on disk.
package dynamo
