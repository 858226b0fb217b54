package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

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
// value, one nested past its depth guard) while it reads the body, and
// leaves each in place as an attr.Malformed marker, which the engine's
// value checks report where they meet it: Query and Scan check their
// places in DynamoDB's order (queryFilterFirst, scanFilterFirst). For the
// single-item operations it also hands the first of them over in the
// input's ValueError, which the operation reports with its own layer 3
// (valueLayer). The batch and transaction operations get it with the
// place it was found in, and report it when their checks reach that place
// (placedValue).

// valueLayer returns the attribute-value problem the decoder found, if
// any, or the mix of legacy and expression parameters in in (layer 2),
// which DynamoDB reports before it. Each operation calls it after its
// member constraints and before it reads any attribute value, so a
// malformed value never reaches the rest of the engine.
//
// Between the two, ExpressionAttributeNames or ExpressionAttributeValues
// sent with no expression to use them are refused first too (dynalite's
// tests, newer versions, against DynamoDB: "ExpressionAttributeNames but
// no ConditionExpression" and "... ExpressionAttributeValues ..." in
// test/putItem.js and test/updateItem.js, with an empty Item or Key value,
// and "ExpressionAttributeNames but no ProjectionExpression" in
// test/getItem.js, likewise; unusableWithoutExpressions). An expression
// sent, even empty, comes after the value ("unsupported datatype in Key"
// in the same files, with empty expressions).
func valueLayer(found error, in any) error {
	if found == nil {
		return nil
	}
	if m := MixedParamsError(in); m != nil {
		return m
	}
	if err := unusableWithoutExpressions(in); err != nil {
		return err
	}
	return found
}

// unusableWithoutExpressions refuses the ExpressionAttributeNames or
// ExpressionAttributeValues of a single-item request that sends none of
// the expressions that could use them, as compiling its expressions
// would (valueLayer).
func unusableWithoutExpressions(in any) error {
	var x expr.Input
	switch in := in.(type) {
	case *dynamo.PutItemInput:
		if in.ConditionExpression != "" || in.EmptyExpressions != 0 {
			return nil
		}
		x = expr.Input{Operation: expr.OpPutItem, Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues}
	case *dynamo.DeleteItemInput:
		if in.ConditionExpression != "" || in.EmptyExpressions != 0 {
			return nil
		}
		x = expr.Input{Operation: expr.OpDeleteItem, Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues}
	case *dynamo.UpdateItemInput:
		if in.ConditionExpression != "" || in.UpdateExpression != "" || in.EmptyExpressions != 0 {
			return nil
		}
		x = expr.Input{Operation: expr.OpUpdateItem, Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues}
	case *dynamo.GetItemInput:
		if in.ProjectionExpression != "" || in.EmptyExpressions != 0 {
			return nil
		}
		x = expr.Input{Operation: expr.OpGetItem, Names: in.ExpressionAttributeNames}
	default:
		return nil
	}
	_, err := expr.Compile(x)
	return dynamo.AttrError(err)
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

// conditionalOperatorFirst is checked ahead of layer 1: a Query whose
// QueryFilter has two or more conditions, and so one that applies its
// ConditionalOperator, has that operator read where the filter is built,
// before the member constraints, and a value outside its enum is answered
// alone, bare, in that reader's wording (msgConditionalOperatorApplied;
// paritysuite's tests/tier3/validation-ordering/query.test.ts,
// eu-west-2 and us-east-1, 2026-10-09). With fewer conditions the value
// stays a member constraint among the others (layer 1). Scan's ScanFilter
// is not recorded this way and keeps layer 1.
func conditionalOperatorFirst(op string, conditions int) error {
	if op == "" || conditions < 2 {
		return nil
	}
	for _, v := range conditionalOperatorValues {
		if op == v {
			return nil
		}
	}
	return dynamo.Validation(msgConditionalOperatorApplied)
}

// frameworkFirst is checked ahead of layer 1 by PutItem, UpdateItem and
// DeleteItem once the request sends its Item (PutItem) or Key: DynamoDB's
// newer validation framework (engine/messages.go, msgFramework*) reads an
// empty TableName, then (UpdateItem only: rvAlone) an unknown
// ReturnValues, before anything else, and answers the first it finds
// alone, in its own words (paritysuite/dynamodb-conformance,
// captures/2026-10-07-sweep-follow-up.json: put-item- and
// update-item-validation-error-aggregation, us-east-1 and eu-west-2
// alike; captures/cross-region-latest.json, 2026-09-20). PutItem and
// DeleteItem list the unknown ReturnValues among their member
// constraints instead (writeReturnValues). A request without its Item or
// Key is still answered by layer 1, every member joined in the older form
// (the same suite's tests/tier3/validation-ordering/updateItem.test.ts,
// 2026-10-09), and so is the ReturnValues of a request with a value
// nested past the second limit (deep; deepRequests.test.ts: "past the
// second limit DeleteItem reads ReturnValues in its older form, as PutItem
// and UpdateItem do ... At 40 levels the newer generic form stays"), or
// beside a table name failing another of its constraints (not recorded;
// the older form kept).
func frameworkFirst(tableName string, noTableName bool, returnValues string, rvAlone bool, deep func() bool) error {
	if !noTableName && tableName == "" {
		return dynamo.Validation(msgFrameworkTableNameEmpty)
	}
	if !rvAlone || !genericReturnValues(returnValues, tableName, noTableName, deep) {
		return nil
	}
	return dynamo.Validation(msgFrameworkReturnValues)
}

// genericReturnValues reports whether an unknown ReturnValues rv of a
// request sending its Item or Key is read in the framework's generic form:
// beside a valid table name, in a request not read past the second limit.
func genericReturnValues(rv, tableName string, noTableName bool, deep func() bool) bool {
	if rv == "" || knownReturnValues(rv) {
		return false
	}
	var c constraints
	c.itemTableName(tableName, noTableName)
	return c.err() == nil && !deep()
}

func knownReturnValues(v string) bool {
	switch v {
	case dynamo.ReturnValuesAllNew, dynamo.ReturnValuesUpdatedOld, dynamo.ReturnValuesAllOld, dynamo.ReturnValuesNone, dynamo.ReturnValuesUpdatedNew:
		return true
	}
	return false
}

// writeReturnValues adds the member constraints of PutItem's and
// DeleteItem's ReturnValues, ReturnConsumedCapacity and
// ReturnItemCollectionMetrics. With generic (the Item or Key sent, no
// value nested past the second limit), an unknown ReturnValues is listed
// in the framework's generic form, after ReturnConsumedCapacity
// (msgFrameworkReturnValuesMember); otherwise in the older per-value
// form, first.
func (c *constraints) writeReturnValues(rv, rcc, ricm string, generic bool) {
	if !generic {
		c.returnValues(rv)
		c.returnConsumedCapacity(rcc)
		c.returnItemCollectionMetrics(ricm)
		return
	}
	c.returnConsumedCapacity(rcc)
	if rv != "" && !knownReturnValues(rv) {
		c.add(msgFrameworkReturnValuesMember)
	}
	c.returnItemCollectionMetrics(ricm)
}

// deepRequest reports (when called: the walk is needed only on the
// paths that answer differently) whether a single-item write carries a value nested
// past the second limit, about 62 levels: DynamoDB reads such a request
// in an older way, which answers ReturnValues and ConditionalOperator in
// their older forms (deepRequests.test.ts, eu-west-2 and us-east-1,
// 2026-10-09: values nested 63 and 100 levels are read so, 33 and 40
// levels are not). The line is drawn past 63 levels (a value wrapped in
// 63 maps, its leaf at level 64, is deep); the values looked at are the
// item or key, the ExpressionAttributeValues, the Expected values and
// the AttributeUpdates values. A value the protocol decoder cut off past
// its own guard is deep too.
func deepRequest(item attr.Item, values attr.Item, expected map[string]dynamo.ExpectedAttributeValue, updates map[string]dynamo.AttributeValueUpdate) bool {
	deep := func(v attr.Value) bool { return valueLevels(v, 1) > maxShallowLevels }
	for _, v := range item {
		if deep(v) {
			return true
		}
	}
	for _, v := range values {
		if deep(v) {
			return true
		}
	}
	for _, e := range expected {
		if e.Value != nil && deep(*e.Value) {
			return true
		}
		for _, v := range e.AttributeValueList {
			if deep(v) {
				return true
			}
		}
	}
	for _, u := range updates {
		if u.Value != nil && deep(*u.Value) {
			return true
		}
	}
	return false
}

// maxShallowLevels is the deepest nesting, in levels (the value itself
// is level 1), that DynamoDB reads a single-item write's members in its
// newer way beside (deepRequest).
const maxShallowLevels = 63

// valueLevels returns the levels of v, at level, stopping once past
// maxShallowLevels.
func valueLevels(v attr.Value, level int) int {
	if level > maxShallowLevels {
		return level
	}
	if v.Type == attr.TypeInvalid && v.S == attr.MsgNestingTooDeep {
		return maxShallowLevels + 1 // the decoder's marker past its guard
	}
	deepest := level
	switch v.Type {
	case attr.TypeM:
		for _, e := range v.M {
			if d := valueLevels(e, level+1); d > deepest {
				deepest = d
			}
		}
	case attr.TypeL:
		for _, e := range v.L {
			if d := valueLevels(e, level+1); d > deepest {
				deepest = d
			}
		}
	}
	return deepest
}

// returnValuesOldOnly answers a PutItem or DeleteItem ReturnValues other
// than ALL_OLD and NONE: inside the envelope, but bare in a request read
// past the depth guard (deepRequests.test.ts, "refuses UPDATED_NEW with
// the bare ReturnValues message ahead of a condition value nested 100
// levels").
func returnValuesOldOnly(deep func() bool) error {
	if deep() {
		return dynamo.Validation(msgReturnValuesOldOnlyBare)
	}
	return dynamo.Validation(msgReturnValuesOldOnly)
}

// expectedOperatorFirst is conditionalOperatorFirst for the Expected of
// the single-item writes: an unknown ConditionalOperator that two or more
// Expected conditions would apply is answered alone, in the newer [ALL,
// OR] form, ahead of layer 1 (deepRequests.test.ts: "At 33 and 40 levels
// the newer [ALL, OR] form is reported instead", PutItem and UpdateItem;
// DeleteItem taken to be alike). Past the depth guard the older form
// stays, joined with the other members (layer 1).
func expectedOperatorFirst(op string, conditions int, deep func() bool) error {
	err := conditionalOperatorFirst(op, conditions)
	if err == nil || deep() {
		return nil
	}
	return err
}

// currentLayer answers a value's own problem (a number, a set, NULL,
// nesting) as DynamoDB's current validation layer words it
// (attr.Error.Current: no "ExpressionAttributeValues contains invalid
// value" wrapping, a number's empty text and duplicate set members in
// their newer forms), inside the "1 validation error detected: "
// envelope when envelope is set. PutItem, UpdateItem and DeleteItem run
// that layer enveloped, GetItem, BatchGetItem and Query bare; BatchWriteItem,
// the transactions and Scan run the older one and do not call this
// (paritysuite/dynamodb-conformance, tests/tier3/error-messages/
// valueLayers.test.ts, eu-west-2, us-east-1, eu-west-1 and us-west-2,
// 2026-10-09; the enveloped NULL of a PutItem item in every region but two
// in captures/2026-10-07-batch-empty-request-items.json). The problems the
// protocol decoder finds (an empty value, several types) are not
// recorded in the current layer and keep their older answers.
func currentLayer(err error, envelope bool) error {
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Current() == "" {
		return err
	}
	if envelope {
		return dynamo.Validation(msgEnvelope + e.Current())
	}
	return dynamo.Validation(e.Current())
}

// writeEnvelope puts the request-validation problems of PutItem,
// UpdateItem and DeleteItem in the envelope those operations report them
// in (engine/messages.go, msgEnvelope): the mix of legacy and expression
// parameters, names or values no expression uses or none could, and
// every problem of the expressions and of the legacy conditions, all
// found before the table is read (captures/cross-region-latest.json,
// eu-west-2 and us-east-1, 2026-09-20: the mix, redundant parentheses,
// contains with a repeated operand, an UpdateExpression's syntax error,
// unused names and values, an undefined value, an empty UpdateExpression;
// putItem.test.ts and deleteItem.test.ts, 2026-10-09, for the rest). Not
// enveloped: a value's own problem (currentLayer does it), what the
// protocol decoder found in a value (not recorded in this layer), and a
// request read past the depth guard (deep: deepRequests.test.ts has it
// answer bare).
func writeEnvelope(err error, deep func() bool) error {
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Code != dynamo.CodeValidation || e.Current() != "" || strings.HasPrefix(e.Message, msgEnvelope) {
		return err
	}
	m := e.Message
	if e.Prefix() != "" {
		// A problem of a statement's expression, worded bare where it was
		// found (attr.Error.Prefix): enveloped as the parameter's own.
		if deep() {
			return err
		}
		return dynamo.Validation(msgEnvelope + e.Prefix() + m)
	}
	if !envelopedInWrites(m) || deep() {
		return err
	}
	if strings.HasPrefix(m, msgValuesWithoutExpressions) {
		m = msgValuesWithoutExpressions
	}
	return dynamo.Validation(msgEnvelope + m)
}

// envelopedInWrites reports whether m is one of the problems writeEnvelope
// envelopes: those of the expression parameters (the expressions
// themselves, their names and values, their mix with the legacy
// parameters) and the malformed Expected conditions recorded so. The
// other legacy checks (AttributeValueList types, ConditionalOperator's
// use, AttributeUpdates' actions) are not recorded in the envelope and
// stay bare.
func envelopedInWrites(m string) bool {
	if strings.HasPrefix(m, expr.MsgInvalidValuePrefix) {
		return false // a value's problem, not the expression's
	}
	for _, p := range []string{
		expr.KindCondition.ErrPrefix(), expr.KindUpdate.ErrPrefix(),
		"Value provided in ExpressionAttributeNames unused", "Value provided in ExpressionAttributeValues unused",
		"ExpressionAttributeNames contains invalid ", "ExpressionAttributeValues contains invalid key",
		msgValuesWithoutExpressions, msgNamesWithoutExpressions, msgNamesEmpty, msgValuesEmpty,
		"Can not use both expression and non-expression parameters",
		msgExpectedBothValueAndList, msgExpectedOperatorNeedsValue, msgExpectedArgumentCount,
	} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// More of DynamoDB's member order within layer 1:
//
//   - Query: an unknown ConditionalOperator that a QueryFilter of two or
//     more conditions applies goes ahead of layer 1, alone
//     (conditionalOperatorFirst).
//   - TransactWriteItems: clientRequestToken before
//     returnConsumedCapacity (paritysuite's
//     tests/tier3/validation-ordering/transactions.test.ts, 2026-10-09).
//   - CreateTable: every globalSecondaryIndexes member before every
//     localSecondaryIndexes member, whatever the request's order
//     (paritysuite's tests/tier3/validation-ordering/createTable.test.ts,
//     eu-west-2 and us-east-1, 2026-10-09); within an attribute
//     definition, attributeType before attributeName; within a key schema
//     element, attributeName before keyType.
//   - UpdateTimeToLive: timeToLiveSpecification.attributeName before
//     .enabled.
//   - The two constraints of a name: which one is listed first belongs
//     to the member, not to names in general. A table operation's
//     tableName lists its length first (tableOpName); ListTables'
//     exclusiveStartTableName lists its pattern first (namePatternFirst),
//     as CreateBackup's backupName does.
//
// The last three are the ack-api-quirks catalogue's DDB-TABLE-457
// (2026-10-09: ct_attrdefs_empty_entry, ct_keyschema_empty_entry,
// ttl_empty_struct, describe_table_empty_name, list_tables_start_empty,
// create_backup_empty_name), which supersedes dynalite's older
// recordings where they differ.

// namePatternFirst checks a name member (3-255 of [a-zA-Z0-9_.-]) whose
// pattern DynamoDB lists before its length.
func (c *constraints) namePatternFirst(field, name string) {
	if strings.HasPrefix(name, "arn:") {
		c.tableName(field, name)
		return
	}
	if !validTableChars(name) || name == "" {
		c.add(fmtConstraintPattern, name, field, "[a-zA-Z0-9_.-]+")
	}
	c.length(field, name, 3, 255)
}

// attributeDefinitions checks the members of AttributeDefinitions
// entries (CreateTable, UpdateTable), attributeType first.
func (c *constraints) attributeDefinitions(defs []dynamo.AttributeDefinition) {
	for i, d := range defs {
		f := fmt.Sprintf("attributeDefinitions.%d.member.", i+1)
		if d.TypeEmpty {
			// Sent empty: outside the enum, not missing (the
			// ack-api-quirks catalogue, 2026-10-09,
			// ut_attrdefs_type_empty_plus_dp).
			c.add("Value '' at '%s' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]", f+"attributeType")
		} else if d.AttributeType == "" {
			c.add(fmtConstraintNull, f+"attributeType")
		} else {
			c.enum(f+"attributeType", d.AttributeType, "B", "N", "S")
		}
		c.attributeName(f+"attributeName", d.AttributeName)
	}
}

// placedValue reports the malformed attribute value the protocol decoder
// found in one place of a batch or transaction request (found, nil if
// none) where the operation's own checks of that place's values run: after
// the member constraints and after every problem of the places before it.
// The names of it, the item or key the value sits in, come first: a
// TransactWriteItems Put whose item has an attribute named "" and one
// nested past the decoder's depth guard is refused for the name, whichever
// the item lists first (paritysuite/dynamodb-conformance,
// tests/tier3/validation-ordering/deepRequests.test.ts, ten regions,
// 2026-10-09).
//
// Where each operation reports it:
//
//   - TransactWriteItems checks its actions one at a time, in request
//     order, and an earlier action's problem always wins (the same
//     file). Within an action a malformed value of its
//     ExpressionAttributeValues comes before its expressions (no
//     recording; as the single-item operations do), and one of its Key or
//     Item after them: a condition that does not parse, or is too long,
//     beats a key nested 100 levels (the same file).
//   - TransactGetItems: each Get's key after its projection, Get by Get
//     (no recording; as TransactWriteItems).
//   - BatchWriteItem: each request's item or key after the request-count
//     checks, request by request, with the other value checks (no
//     recording of the pair; member constraints first, as paritysuite's
//     batchOperations.test.ts records for every other problem).
//   - BatchGetItem: a table's keys after its projection, table by table
//     (no recording; as BatchWriteItem).
func placedValue(found error, it attr.Item) error {
	if found == nil {
		return nil
	}
	if err := attr.CheckNames(it); err != nil {
		return dynamo.AttrError(err)
	}
	return found
}

// Query validates its places in this order, and the protocol decoder
// leaves a malformed value in its place as an attr.Malformed marker, so
// each is reported where the engine's own checks of that place meet it
// (dynalite's test/query.js, newer version, against DynamoDB):
//
//  1. the mix of legacy and expression parameters;
//  2. with a QueryFilter or AttributesToGet (so no expression but
//     possibly ExpressionAttributeNames or ExpressionAttributeValues
//     without one): those two refusals, then QueryFilter's conditions,
//     each's values in list order before its argument count ("bad",
//     "invalid" values and "incorrect number of QueryFilter arguments",
//     all sent with an empty ExclusiveStartKey value and an empty
//     KeyConditions value), then a name listed twice in AttributesToGet
//     ("duplicate values in AttributesToGet", with an empty start key
//     value) (queryFilterFirst);
//  3. ExclusiveStartKey's values ("invalid values in ExclusiveStartKey",
//     with empty KeyConditions values);
//  4. the expressions, when step 2 did not run them;
//  5. KeyConditions' values in list order ("invalid values in
//     KeyConditions": a set that may not be empty before a later empty
//     value).
//
// In step 2, ExpressionAttributeNames or ExpressionAttributeValues that no
// expression can use come before a ConditionalOperator that a QueryFilter
// of one condition cannot use ("ExpressionAttributeNames but no
// expressions", "ExpressionAttributeValues but no expressions": with an
// OR over one condition; unusableNamesAndValues).
func queryFilterFirst(in *dynamo.QueryInput) bool {
	return in.QueryFilter != nil || in.AttributesToGet != nil
}

// bareStartKeyValues checks the values of a Query's or Scan's
// ExclusiveStartKey and reports a problem with the start-key prefix
// (MsgStartKeyInvalidPrefix: "The provided starting key is invalid:
// One or more parameter values were invalid: An string set  may not be
// empty"), but only the problems with a value's
// shape (empty, of several types, nested too deep, NULL not true, an
// empty string or binary set): an empty number set, a duplicate in a set
// and a number out of range or not a number are reported bare (dynalite's
// test/query.js and test/scan.js, newer versions, against DynamoDB:
// "invalid values in ExclusiveStartKey without provided message" (with
// no provided message), "empty/invalid numbers in ExclusiveStartKey";
// paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/valueLayers.test.ts, 2026-10-09: a duplicate
// in Query's start key is refused "bare, with no wrapper").
func bareStartKeyValues(esk attr.Item) error {
	if esk == nil {
		return nil
	}
	err := canonicalize(esk)
	var e *dynamo.Error
	if errors.As(err, &e) && e.Code == dynamo.CodeValidation && startKeyShape(e.Message) {
		return dynamo.Validation(dynamo.MsgStartKeyInvalidPrefix + e.Message)
	}
	return err
}

// startKeyShape reports whether msg is a problem with a value's shape,
// which DynamoDB reports in a start key with MsgStartKeyInvalidPrefix.
func startKeyShape(msg string) bool {
	switch msg {
	case attr.MsgNullNotTrue, attr.MsgEmptyStringSet, attr.MsgEmptyBinarySet, attr.MsgNestingTooDeep:
		return true
	}
	return strings.HasPrefix(msg, "Supplied AttributeValue ")
}

// keyConditionsShape checks what can be told of a Query's KeyConditions
// without its table, after their values and before the table is looked
// up: each condition's argument count, then their number, which on a
// table (no IndexName) is one or two (dynalite's test/query.js, newer
// version, against DynamoDB, the table absent: "incorrect number of
// KeyConditions arguments", three conditions among them, and "incorrect
// number of KeyConditions"). Between the two, each condition's operand
// types: an operator given values of a type it cannot compare
// ("ComparisonOperator BEGINS_WITH is not valid for N AttributeValue
// type"), values of mixed types, a BETWEEN range out of order, all before
// the table is looked up (the same file: "invalid ComparisonOperator
// types", "invalid CONTAINS ComparisonOperator types", "invalid BETWEEN
// ComparisonOperator types", "invalid BEGINS_WITH ComparisonOperator
// types", "AttributeValueList has different types" and "BETWEEN arguments
// are in the incorrect order", each with the table absent). Whether the
// operators can be used on a key is known only with the table
// ("unsupported comparison", checked after the table is found), and an
// index's number of key attributes with the index.
func keyConditionsShape(in *dynamo.QueryInput) error {
	if in.KeyConditions == nil {
		return nil
	}
	names := sortedConditionNames(in.KeyConditions)
	conds := make(map[string]expr.Expected, len(names))
	for _, name := range names {
		cond := in.KeyConditions[name]
		if err := expr.CheckOperandCount(cond.ComparisonOperator, len(cond.AttributeValueList)); err != nil {
			return dynamo.AttrError(err)
		}
		conds[name] = expr.Expected{ComparisonOperator: cond.ComparisonOperator, AttributeValueList: cond.AttributeValueList}
	}
	if _, err := expr.ConditionFromExpected("KeyConditions", conds, ""); err != nil {
		return dynamo.AttrError(err)
	}
	if n := len(in.KeyConditions); n == 0 || (n > 2 && in.IndexName == "") {
		return dynamo.Validation(msgKeyConditionsLength)
	}
	return nil
}

// unusableNamesAndValues refuses a Query's ExpressionAttributeNames or
// ExpressionAttributeValues when it has no expression to use them, as
// compiling its expressions does (queryFilterFirst).
func unusableNamesAndValues(in *dynamo.QueryInput) error {
	_, err := expr.Compile(expr.Input{
		Operation: expr.OpQuery,
		Present:   present(in.EmptyExpressions),
		Names:     in.ExpressionAttributeNames,
		Values:    in.ExpressionAttributeValues,
	})
	return dynamo.AttrError(err)
}

// scanFilterFirst checks, after a name listed twice in AttributesToGet,
// ScanFilter's values (each malformed value where the check meets it, the
// decoder leaving attr.Malformed markers in place) and then each of its
// conditions' argument count and operand types, all before the start
// key's values and before the Segment rules (dynalite's test/scan.js,
// newer version, against DynamoDB: "empty/invalid numbers in ScanFilter",
// "multiple datatypes in ScanFilter", "incorrect number of ScanFilter
// arguments" and "invalid ComparisonOperator types", each sent with an
// empty ExclusiveStartKey value and a Segment without TotalSegments).
// ConditionalOperator's own rule stays with the expressions.
func scanFilterFirst(in *dynamo.ScanInput) error {
	if in.ScanFilter == nil {
		return nil
	}
	names := sortedConditionNames(in.ScanFilter)
	for _, name := range names {
		if err := canonicalizeValues(in.ScanFilter[name].AttributeValueList); err != nil {
			return err
		}
	}
	conds := make(map[string]expr.Expected, len(names))
	for _, name := range names {
		cond := in.ScanFilter[name]
		conds[name] = expr.Expected{ComparisonOperator: cond.ComparisonOperator, AttributeValueList: cond.AttributeValueList}
	}
	_, err := expr.ConditionFromExpected("ScanFilter", conds, "")
	return dynamo.AttrError(err)
}

// ParameterValueError reports, when the protocol decoder found a
// malformed value among a PartiQL statement's parameters (found), the
// first problem of the parameters in document order, whether the
// decoder's (an attr.Malformed marker) or one CheckParameters finds, such
// as a number that cannot be converted: DynamoDB "reports whichever it reaches first in
// document order" (paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/partiqlParameterNumbers.test.ts, eu-west-2
// and us-east-1, October 2026: an unconvertible parameter before one
// nested 100 levels). It returns nil when found is nil. In
// BatchExecuteStatement such a value is its statement's error, not the
// request's (the same file), so that operation leaves it to each
// statement's binding.
func ParameterValueError(found error, params []attr.Value) error {
	if found == nil {
		return nil
	}
	if err := dynamo.CheckParameters(params, len(params)); err != nil {
		return err
	}
	return found
}

// itemValuesFirst checks the values of UpdateItem's Key and PutItem's
// Item before the expressions and the legacy Expected and
// AttributeUpdates, after the mix of legacy and expression parameters and
// after names or values no expression can use. DynamoDB refuses a key
// value that is an empty set, a duplicate or a bad number before an
// Expected entry with neither Value nor Exists and an AttributeUpdates
// entry with no Action, and such an item value before an empty
// ExpressionAttributeNames and an empty ConditionExpression; PutItem's
// item size comes next, also before Expected (dynalite's
// test/updateItem.js and test/putItem.js, newer versions, against
// DynamoDB: "invalid values in Key", "invalid values in Item", "item is
// too big with small attribute"). DeleteItem and GetItem: no recording of
// these pairs.
func itemValuesFirst(in any, key attr.Item) error {
	if err := MixedParamsError(in); err != nil {
		return err
	}
	if err := unusableWithoutExpressions(in); err != nil {
		return err
	}
	return canonicalize(key)
}
