// Package partiql is DynamoDB's dialect of PartiQL, whole: it parses a
// statement (SELECT, INSERT, UPDATE, DELETE and, inside
// ExecuteTransaction, EXISTS(SELECT ...)), plans it onto the item
// operation it stands for, runs it through the engine, and explains it.
//
// It sits above the engine and drives it as a client does, through the
// engine's item operations (GetItem, Query, Scan, PutItem, UpdateItem,
// DeleteItem, TransactGetItems, TransactWriteItems) and the narrow,
// documented interface of engine/statement.go: a table's key schema, the
// checks of the requests' members and parameters, the few ways a
// statement's operation differs from the request it stands for, and a
// slot for its parse cache beside the database's expression cache. A
// statement therefore validates, bills and fails as the operation it runs
// as. The engine imports nothing of it.
//
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction take the
// engine's request and response types and the *engine.DB to run on; the
// server's operation table and local.Direct call them. ExplainStatement
// says how a statement would run, from a DescribeTable of any endpoint.
package partiql
