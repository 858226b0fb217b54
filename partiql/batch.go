package partiql

import (
	"errors"
	"strings"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/internal/expr"
)

// statementCodes maps an operation's error code to the Code of a
// BatchStatementError (API_BatchStatementError's enumeration).
var statementCodes = map[string]string{
	dynamo.CodeValidation:              "ValidationError",
	dynamo.CodeConditionalCheckFailed:  "ConditionalCheckFailed",
	dynamo.CodeResourceNotFound:        "ResourceNotFound",
	dynamo.CodeDuplicateItem:           "DuplicateItem",
	dynamo.CodeItemCollectionSizeLimit: "ItemCollectionSizeLimitExceeded",
	dynamo.CodeProvisionedThroughput:   "ProvisionedThroughputExceeded",
	dynamo.CodeRequestLimitExceeded:    "RequestLimitExceeded",
	dynamo.CodeTransactionConflict:     "TransactionConflict",
	dynamo.CodeInternalServerError:     "InternalServerError",
	dynamo.CodeAccessDenied:            "AccessDenied",
	"ThrottlingException":              "ThrottlingError",
}

// statementError turns an operation's error into a batch slot's error;
// an error that is not DynamoDB's stays an error of the request.
func statementError(err error) (*dynamo.BatchStatementError, error) {
	var e *dynamo.Error
	if !errors.As(err, &e) {
		return nil, err
	}
	code, ok := statementCodes[e.Code]
	if !ok {
		code = strings.TrimSuffix(e.Code, "Exception")
	}
	return &dynamo.BatchStatementError{Code: code, Message: e.Message, Item: e.Item}, nil
}

// BatchExecuteStatement runs up to 25 statements, all reads (each a
// SELECT by its whole key, a GetItem) or all writes, each on its own:
// one statement's failure is reported in its slot and does not stop the
// others.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchExecuteStatement.html
func BatchExecuteStatement(db *engine.DB, in *dynamo.BatchExecuteStatementInput) (*dynamo.BatchExecuteStatementOutput, error) {
	if err := engine.CheckBatchExecuteStatement(in); err != nil {
		return nil, err
	}
	// A malformed parameter value is its statement's error, met where
	// its parameters are bound (engine.ParameterValueError).
	type parsed struct {
		st  *Statement
		b   *binder
		err error
	}
	ps := make([]parsed, len(in.Statements))
	reads, writes := 0, 0
	for i, s := range in.Statements {
		st, err := cacheOf(db).Parse(s.Statement)
		if err != nil {
			ps[i].err = qlError(err)
			continue
		}
		ps[i].st = st
		if st.Kind == Select {
			reads++
		} else {
			writes++
		}
		ps[i].b, ps[i].err = bindParams(s.Parameters, st.Params)
		if ps[i].err == nil && s.Denied != nil {
			ps[i].err = s.Denied
		}
	}
	if reads > 0 && writes > 0 {
		return nil, dynamo.Validation(msgQLBatchMixed)
	}
	out := &dynamo.BatchExecuteStatementOutput{Responses: make([]dynamo.BatchStatementResponse, len(in.Statements))}
	var caps []dynamo.ConsumedCapacity
	for i, s := range in.Statements {
		r := &out.Responses[i]
		p := ps[i]
		err := p.err
		var cc *dynamo.ConsumedCapacity
		if err == nil {
			r.TableName = p.st.Table
			switch p.st.Kind {
			case Select:
				r.Item, cc, err = batchRead(db, p.st, p.b, s.ConsistentRead, in.ReturnConsumedCapacity)
			case Exists:
				err = dynamo.Validation(msgQLExistsOutsideTx)
			default:
				var w *qlWrite
				if w, err = planWrite(db, p.st, p.b, qlBatch); err == nil {
					w.onFail = s.ReturnValuesOnConditionCheckFailure
					r.Item, cc, err = runWrite(db, w, in.ReturnConsumedCapacity)
				}
			}
		}
		if err != nil {
			se, ierr := statementError(err)
			if ierr != nil {
				return nil, ierr
			}
			r.Error, r.Item = se, nil
		}
		caps = addTableCapacity(caps, cc)
	}
	out.ConsumedCapacity = caps
	return out, nil
}

// batchRead runs a SELECT of a batch, which must name its whole key.
func batchRead(db *engine.DB, st *Statement, b *binder, consistent bool, rcc string) (attr.Item, *dynamo.ConsumedCapacity, error) {
	g, trees, err := keyRead(db, st, b, msgQLBatchSelectKey, msgQLBatchSelectKey)
	if err != nil {
		return nil, nil, err
	}
	g.ConsistentRead, g.ReturnConsumedCapacity = consistent, rcc
	out, err := db.StatementGetItem(g, trees)
	if err != nil {
		return nil, nil, err
	}
	if paths := leafPaths(st); paths != nil {
		return leafItem(paths, out.Item), out.ConsumedCapacity, nil
	}
	return out.Item, out.ConsumedCapacity, nil
}

// keyRead plans a SELECT that must be a read of one item by its whole key
// and nothing else, with its projection as a tree.
func keyRead(db *engine.DB, st *Statement, b *binder, notKey, onIndex string) (*dynamo.GetItemInput, *expr.Trees, error) {
	t, err := db.TableSchema(st.Table)
	if err != nil {
		return nil, nil, err
	}
	if st.Index != "" {
		if ix := t.Index(st.Index); ix != nil && ix.Multi() {
			return nil, nil, dynamo.Validation(msgQLMultiKeyIndex)
		}
		return nil, nil, dynamo.Validation(onIndex)
	}
	if st.Aggregate != nil {
		return nil, nil, planError(&PlanError{Code: PlanAggregate, Expr: st.Aggregate})
	}
	if len(st.OrderBy) > 0 {
		return nil, nil, dynamo.Validation(notKey)
	}
	x := newExprText(b)
	key, rest, err := x.whereKey(t, st.Where)
	if err != nil {
		if errors.Is(err, errIncompleteKey) {
			return nil, nil, dynamo.Validation(notKey)
		}
		return nil, nil, err
	}
	if len(rest) > 0 {
		return nil, nil, dynamo.Validation(notKey)
	}
	g := &dynamo.GetItemInput{TableName: st.Table, Key: bindVals(make(attr.Item, len(key)), key, b, attr.Value{})}
	trees := &expr.Trees{}
	g.ProjectionExpression, trees.Projection = x.projection(st)
	g.ExpressionAttributeNames = x.names
	return g, trees, nil
}

// addTableCapacity adds one statement's capacity to the list of a
// batch, one entry per table in the order first met.
func addTableCapacity(list []dynamo.ConsumedCapacity, cc *dynamo.ConsumedCapacity) []dynamo.ConsumedCapacity {
	if cc == nil {
		return list
	}
	for i := range list {
		if list[i].TableName == cc.TableName {
			list[i] = *addConsumed(&list[i], cc)
			return list
		}
	}
	return append(list, *cc)
}

// ExecuteTransaction runs up to 100 statements all or none, through the
// transaction paths of TransactGetItems (a transaction of SELECTs, each by
// its whole key) and TransactWriteItems (INSERT, UPDATE, DELETE, and
// EXISTS(SELECT ...) as a condition check), so it isolates, bills and
// cancels as they do.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExecuteTransaction.html
func ExecuteTransaction(db *engine.DB, in *dynamo.ExecuteTransactionInput) (*dynamo.ExecuteTransactionOutput, error) {
	if err := engine.CheckExecuteTransaction(in); err != nil {
		return nil, err
	}
	sts := make([]*Statement, len(in.TransactStatements))
	bs := make([]*binder, len(in.TransactStatements))
	reads, writes := 0, 0
	for i, s := range in.TransactStatements {
		st, err := cacheOf(db).Parse(s.Statement)
		if err != nil {
			return nil, dynamo.Validation(msgQLTxStatement(i, qlError(err).(*dynamo.Error).Message))
		}
		if bs[i], err = bindParams(s.Parameters, st.Params); err != nil {
			return nil, err
		}
		sts[i] = st
		if st.Kind == Select {
			reads++
		} else {
			writes++
		}
	}
	if reads > 0 && writes > 0 {
		return nil, dynamo.Validation(msgQLTxMixed)
	}
	prefixed := func(i int, err error) error {
		var e *dynamo.Error
		if errors.As(err, &e) && e.Code == dynamo.CodeValidation {
			return dynamo.Validation(msgQLTxStatement(i, e.Message))
		}
		return err
	}
	if reads > 0 {
		tg := &dynamo.TransactGetItemsInput{ReturnConsumedCapacity: in.ReturnConsumedCapacity}
		trees := make([]*expr.Trees, len(sts))
		for i, st := range sts {
			g, x, err := keyRead(db, st, bs[i], msgQLTxSelectKey, msgQLTxIndex)
			if err != nil {
				return nil, prefixed(i, err)
			}
			trees[i] = x
			tg.TransactItems = append(tg.TransactItems, dynamo.TransactGetItem{Get: &dynamo.TransactGet{TableName: g.TableName, Key: g.Key,
				ProjectionExpression: g.ProjectionExpression, ExpressionAttributeNames: g.ExpressionAttributeNames}})
		}
		res, err := db.StatementTransactGetItems(tg, trees)
		if err != nil {
			return nil, err
		}
		for i, st := range sts {
			if paths := leafPaths(st); paths != nil && i < len(res.Responses) {
				res.Responses[i].Item = leafItem(paths, res.Responses[i].Item)
			}
		}
		return &dynamo.ExecuteTransactionOutput{Responses: res.Responses, ConsumedCapacity: res.ConsumedCapacity}, nil
	}
	tw := &dynamo.TransactWriteItemsInput{ReturnConsumedCapacity: in.ReturnConsumedCapacity,
		ClientRequestToken: in.ClientRequestToken, ClientRequestTokenSet: in.ClientRequestTokenSet}
	trees := make([]*expr.Trees, len(sts))
	for i, st := range sts {
		w, err := planWrite(db, st, bs[i], qlTransaction)
		if err != nil {
			return nil, prefixed(i, err)
		}
		onFail := in.TransactStatements[i].ReturnValuesOnConditionCheckFailure
		name := w.t.Table
		var ti dynamo.TransactWriteItem
		switch w.kind {
		case Insert:
			ti.Put = &dynamo.TransactPut{TableName: name, Item: w.item, ConditionExpression: w.cond, ExpressionAttributeNames: w.names,
				ReturnValuesOnConditionCheckFailure: onFail}
		case Update:
			ti.Update = &dynamo.TransactUpdate{TableName: name, Key: w.key, UpdateExpression: w.update, ConditionExpression: w.cond,
				ExpressionAttributeNames: w.names, ExpressionAttributeValues: w.values, ReturnValuesOnConditionCheckFailure: onFail}
		case Delete:
			ti.Delete = &dynamo.TransactDelete{TableName: name, Key: w.key, ConditionExpression: w.cond,
				ExpressionAttributeNames: w.names, ExpressionAttributeValues: w.values, ReturnValuesOnConditionCheckFailure: onFail}
		case Exists:
			ti.ConditionCheck = &dynamo.TransactConditionCheck{TableName: name, Key: w.key, ConditionExpression: w.cond,
				ExpressionAttributeNames: w.names, ExpressionAttributeValues: w.values, ReturnValuesOnConditionCheckFailure: onFail}
		}
		tw.TransactItems = append(tw.TransactItems, ti)
		trees[i] = &w.trees
	}
	res, err := db.StatementTransactWriteItems(tw, trees)
	if err != nil {
		return nil, duplicateReasons(err, sts)
	}
	return &dynamo.ExecuteTransactionOutput{Responses: []dynamo.ItemResponse{}, ConsumedCapacity: res.ConsumedCapacity}, nil
}

// duplicateReasons reports an INSERT whose key exists as DuplicateItem in
// a cancelled transaction's reasons, where TransactWriteItems says its
// condition failed.
func duplicateReasons(err error, sts []*Statement) error {
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Code != dynamo.CodeTransactionCanceled || len(e.CancellationReasons) != len(sts) {
		return err
	}
	reasons := append([]dynamo.CancellationReason(nil), e.CancellationReasons...)
	for i, r := range reasons {
		if sts[i].Kind == Insert && r.Code == engine.ReasonConditionalCheckFailed {
			reasons[i] = dynamo.CancellationReason{Code: "DuplicateItem", Message: msgQLDuplicateItem}
		}
	}
	return dynamo.TransactionCanceled(reasons)
}
