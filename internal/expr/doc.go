// Package expr is DynamoDB's expression language and its legacy
// parameters: scanning, parsing, name and value resolution, static
// checks and evaluation of condition, filter, key-condition, projection
// and update expressions, and the older Expected, AttributeUpdates,
// AttributesToGet, KeyConditions and ScanFilter members compiled to the
// same trees, as are the trees a statement language builds instead of
// text (tree.go).
//
// # What holds inside
//
//   - A parsed expression depends only on its text: #names and :values
//     are resolved after parsing, so a parse is cached by (kind, text) in
//     a cache bounded by the memory its trees keep alive (cache.go).
//   - Parsing is bounded by DynamoDB's own limits (MaxOperators,
//     MaxPathDepth) rather than a nesting guard of its own, and every
//     refusal is DynamoDB's text for it (messages.go).
//   - A tree built by a statement language (Tree) is checked as the
//     parse of the text it stands for, in the same order, and its errors
//     are worded bare, the expression's prefix beside (attr.Error.Prefix).
//   - expr knows attribute values (attr) and nothing of tables, storage,
//     capacity or JSON: the engine says which attributes are keys.
package expr
