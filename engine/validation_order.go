package engine

// DynamoDB reports the problems of a request in layers, and only the first
// layer that finds one answers:
//
//  1. member constraints, all of them at once, as "N validation errors
//     detected: ..." (constraints in validate.go), in DynamoDB's order of
//     the members;
//  2. rules on combinations of parameters (legacy and expression
//     parameters mixed, Select without a projection, Segment without
//     TotalSegments, ...);
//  3. the well-formedness of attribute values;
//  4. the existence of the table and index (ResourceNotFoundException);
//  5. semantic checks against the table (key schema, conditions, sizes).
//
// Every operation runs its checks in that order. The protocol decoder
// finds some malformed attribute values itself (an empty or many-typed
// value, one nested past its depth guard) while it reads the body; for the
// single-item operations, Query and Scan it hands the first of them over
// in the input's ValueError instead of answering it, and the operation
// reports it with its own layer 3 (valueLayer).

// valueLayer returns the attribute-value problem the decoder found, if
// any, or the mix of legacy and expression parameters in in (layer 2),
// which DynamoDB reports before it. Each operation calls it after its
// member constraints and before it reads any attribute value, so a
// malformed value never reaches the rest of the engine.
func valueLayer(found error, in any) error {
	if found == nil {
		return nil
	}
	if m := MixedParamsError(in); m != nil {
		return m
	}
	return found
}

// The order of the members within layer 1 is DynamoDB's, which is neither
// the API reference's nor alphabetical; each operation adds its
// violations in it:
//
//   - UpdateItem: ReturnConsumedCapacity, TableName, ReturnValues, then
//     ConditionalOperator ahead of Key (paritysuite/dynamodb-conformance,
//     tests/tier3/validation-ordering/updateItem.test.ts, eu-west-2 and
//     us-east-1, 2026-10-09); ReturnItemCollectionMetrics between
//     TableName and ReturnValues as dynalite lists it.
//   - GetItem: ReturnConsumedCapacity, AttributesToGet, TableName, Key
//     (dynalite's getItem test against DynamoDB, "incorrect attributes").
//   - BatchGetItem: the table names that key RequestItems, then
//     ReturnConsumedCapacity (paritysuite's
//     tests/tier3/validation-ordering/batchOperations.test.ts, us-east-1
//     and eu-west-2, 2026-10-09).
//   - BatchWriteItem: ReturnConsumedCapacity, ReturnItemCollectionMetrics,
//     then each request's deleteRequest.key before its putRequest.item
//     (dynalite's batchWriteItem test against DynamoDB); a table name that
//     fails its length or pattern is reported only when nothing else
//     fails, alone (the same paritysuite file: "BatchWriteItem gives way
//     to the enum and reports it alone").
