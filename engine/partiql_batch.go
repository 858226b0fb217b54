package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/internal/partiql"
)

// PartiQL batch and transaction limits.
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchExecuteStatement.html
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExecuteTransaction.html
const (
	maxBatchStatements = 25
	maxTxStatements    = 100
)

// statementCodes maps an operation's error code to the Code of a
// BatchStatementError (API_BatchStatementError's enumeration).
var statementCodes = map[string]string{
	CodeValidation:              "ValidationError",
	CodeConditionalCheckFailed:  "ConditionalCheckFailed",
	CodeResourceNotFound:        "ResourceNotFound",
	CodeDuplicateItem:           "DuplicateItem",
	CodeItemCollectionSizeLimit: "ItemCollectionSizeLimitExceeded",
	CodeProvisionedThroughput:   "ProvisionedThroughputExceeded",
	CodeRequestLimitExceeded:    "RequestLimitExceeded",
	CodeTransactionConflict:     "TransactionConflict",
	CodeInternalServerError:     "InternalServerError",
	CodeAccessDenied:            "AccessDenied",
	"ThrottlingException":       "ThrottlingError",
}

// statementError turns an operation's error into a batch slot's error;
// an error that is not DynamoDB's stays an error of the request.
func statementError(err error) (*BatchStatementError, error) {
	var e *Error
	if !errors.As(err, &e) {
		return nil, err
	}
	code, ok := statementCodes[e.Code]
	if !ok {
		code = strings.TrimSuffix(e.Code, "Exception")
	}
	return &BatchStatementError{Code: code, Message: e.Message, Item: e.Item}, nil
}

// BatchExecuteStatement runs up to 25 statements, all reads (each a
// SELECT by its whole key, a GetItem) or all writes, each on its own:
// one statement's failure is reported in its slot and does not stop the
// others.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchExecuteStatement.html
func (db *DB) BatchExecuteStatement(in *BatchExecuteStatementInput) (*BatchExecuteStatementOutput, error) {
	var c constraints
	switch {
	case in.Statements == nil:
		c.notNull("statements")
	case len(in.Statements) == 0:
		c.add("Value '[]' at 'statements' failed to satisfy constraint: Member must have length greater than or equal to 1")
	case len(in.Statements) > maxBatchStatements:
		c.add("Value '%s' at 'statements' failed to satisfy constraint: Member must have length less than or equal to 25", javaObjects("BatchStatementRequest", len(in.Statements)))
	}
	for i, s := range in.Statements {
		at := fmt.Sprintf("statements.%d.member.", i+1)
		c.statement(at+"statement", s.Statement, s.NoStatement)
		c.enum(at+"returnValuesOnConditionCheckFailure", s.ReturnValuesOnConditionCheckFailure, ReturnValuesAllOld, ReturnValuesNone)
	}
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	if err := c.err(); err != nil {
		return nil, err
	}
	// A malformed parameter value is its statement's error, met where
	// its parameters are bound (qlValueError in validation_order.go).
	type parsed struct {
		st  *partiql.Statement
		b   *binder
		err error
	}
	ps := make([]parsed, len(in.Statements))
	reads, writes := 0, 0
	for i, s := range in.Statements {
		st, err := db.opts.ParseCaches.partiql.Parse(s.Statement)
		if err != nil {
			ps[i].err = qlError(err)
			continue
		}
		ps[i].st = st
		if st.Kind == partiql.Select {
			reads++
		} else {
			writes++
		}
		ps[i].b, ps[i].err = bindParams(s.Parameters, st.Params)
	}
	if reads > 0 && writes > 0 {
		return nil, Validation(msgQLBatchMixed)
	}
	out := &BatchExecuteStatementOutput{Responses: make([]BatchStatementResponse, len(in.Statements))}
	var caps []ConsumedCapacity
	for i, s := range in.Statements {
		r := &out.Responses[i]
		p := ps[i]
		err := p.err
		var cc *ConsumedCapacity
		if err == nil {
			r.TableName = p.st.Table
			switch p.st.Kind {
			case partiql.Select:
				r.Item, cc, err = db.batchRead(p.st, p.b, s.ConsistentRead, in.ReturnConsumedCapacity)
			case partiql.Exists:
				err = Validation(msgQLExistsOutsideTx)
			default:
				var w *qlWrite
				if w, err = db.planWrite(p.st, p.b, qlBatch); err == nil {
					w.onFail = s.ReturnValuesOnConditionCheckFailure
					_, cc, err = db.runWrite(w, in.ReturnConsumedCapacity)
				}
			}
		}
		if err != nil {
			se, ierr := statementError(qlUnwrap(err))
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
func (db *DB) batchRead(st *partiql.Statement, b *binder, consistent bool, rcc string) (attr.Item, *ConsumedCapacity, error) {
	g, err := db.keyRead(st, b, msgQLBatchSelectKey, msgQLBatchSelectKey)
	if err != nil {
		return nil, nil, err
	}
	g.ConsistentRead, g.ReturnConsumedCapacity = consistent, rcc
	out, err := db.GetItem(g)
	if err != nil {
		return nil, nil, err
	}
	return out.Item, out.ConsumedCapacity, nil
}

// keyRead plans a SELECT that must be a read of one item by its whole key
// and nothing else.
func (db *DB) keyRead(st *partiql.Statement, b *binder, notKey, onIndex string) (*GetItemInput, error) {
	t, err := db.tableOrNotFound(st.Table)
	if err != nil {
		return nil, err
	}
	if st.Index != "" {
		if ix := t.index(st.Index); ix != nil && ix.multi() {
			return nil, Validation(msgQLMultiKeyIndex)
		}
		return nil, Validation(onIndex)
	}
	if st.Aggregate != nil {
		return nil, planError(&partiql.PlanError{Code: partiql.PlanAggregate, Expr: st.Aggregate})
	}
	if len(st.OrderBy) > 0 {
		return nil, Validation(notKey)
	}
	x := newExprText(b)
	key, rest, err := x.whereKey(t, st.Where)
	if err != nil {
		if errors.Is(err, errIncompleteKey) {
			return nil, Validation(notKey)
		}
		return nil, err
	}
	if len(rest) > 0 {
		return nil, Validation(notKey)
	}
	g := &GetItemInput{TableName: st.Table, Key: key}
	g.ProjectionExpression = x.projection(st)
	g.ExpressionAttributeNames = x.names
	return g, nil
}

// addTableCapacity adds one statement's capacity to the list of a
// batch, one entry per table in the order first met.
func addTableCapacity(list []ConsumedCapacity, cc *ConsumedCapacity) []ConsumedCapacity {
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
func (db *DB) ExecuteTransaction(in *ExecuteTransactionInput) (*ExecuteTransactionOutput, error) {
	out, err := db.executeTransaction(in)
	return out, qlUnwrap(err)
}

func (db *DB) executeTransaction(in *ExecuteTransactionInput) (*ExecuteTransactionOutput, error) {
	var c constraints
	switch {
	case in.TransactStatements == nil:
		c.notNull("transactStatements")
	case len(in.TransactStatements) == 0:
		c.add("Value '[]' at 'transactStatements' failed to satisfy constraint: Member must have length greater than or equal to 1")
	case len(in.TransactStatements) > maxTxStatements:
		c.add("Value '%s' at 'transactStatements' failed to satisfy constraint: Member must have length less than or equal to 100", javaObjects("ParameterizedStatement", len(in.TransactStatements)))
	}
	for i, s := range in.TransactStatements {
		at := fmt.Sprintf("transactStatements.%d.member.", i+1)
		c.statement(at+"statement", s.Statement, s.NoStatement)
		c.enum(at+"returnValuesOnConditionCheckFailure", s.ReturnValuesOnConditionCheckFailure, ReturnValuesAllOld, ReturnValuesNone)
	}
	if in.ClientRequestTokenSet {
		switch n := len(in.ClientRequestToken); {
		case n < 1:
			c.add(msgClientTokenEmpty)
		case n > maxClientTokenLength:
			c.add(fmtClientTokenTooLong, in.ClientRequestToken)
		}
	}
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	if err := c.err(); err != nil {
		return nil, err
	}
	if in.ValueError != nil {
		for _, s := range in.TransactStatements {
			if err := qlValueError(in.ValueError, s.Parameters); err != in.ValueError {
				return nil, err
			}
		}
		return nil, in.ValueError
	}
	sts := make([]*partiql.Statement, len(in.TransactStatements))
	bs := make([]*binder, len(in.TransactStatements))
	reads, writes := 0, 0
	for i, s := range in.TransactStatements {
		st, err := db.opts.ParseCaches.partiql.Parse(s.Statement)
		if err != nil {
			return nil, Validation(msgQLTxStatement(i, qlError(err).(*Error).Message))
		}
		if bs[i], err = bindParams(s.Parameters, st.Params); err != nil {
			return nil, err
		}
		sts[i] = st
		if st.Kind == partiql.Select {
			reads++
		} else {
			writes++
		}
	}
	if reads > 0 && writes > 0 {
		return nil, Validation(msgQLTxMixed)
	}
	prefixed := func(i int, err error) error {
		var e *Error
		if errors.As(err, &e) && e.Code == CodeValidation {
			return Validation(msgQLTxStatement(i, e.Message))
		}
		return err
	}
	if reads > 0 {
		tg := &TransactGetItemsInput{ReturnConsumedCapacity: in.ReturnConsumedCapacity}
		for i, st := range sts {
			g, err := db.keyRead(st, bs[i], msgQLTxSelectKey, msgQLTxIndex)
			if err != nil {
				return nil, prefixed(i, err)
			}
			tg.TransactItems = append(tg.TransactItems, TransactGetItem{Get: &TransactGet{TableName: g.TableName, Key: g.Key,
				ProjectionExpression: g.ProjectionExpression, ExpressionAttributeNames: g.ExpressionAttributeNames}})
		}
		res, err := db.TransactGetItems(tg)
		if err != nil {
			return nil, err
		}
		return &ExecuteTransactionOutput{Responses: res.Responses, ConsumedCapacity: res.ConsumedCapacity}, nil
	}
	tw := &TransactWriteItemsInput{ReturnConsumedCapacity: in.ReturnConsumedCapacity,
		ClientRequestToken: in.ClientRequestToken, ClientRequestTokenSet: in.ClientRequestTokenSet, fromStatements: true}
	for i, st := range sts {
		w, err := db.planWrite(st, bs[i], qlTransaction)
		if err != nil {
			return nil, prefixed(i, err)
		}
		onFail := in.TransactStatements[i].ReturnValuesOnConditionCheckFailure
		name := w.t.meta.Name
		var ti TransactWriteItem
		switch w.kind {
		case partiql.Insert:
			ti.Put = &TransactPut{TableName: name, Item: w.item, ConditionExpression: w.cond, ExpressionAttributeNames: w.names,
				ReturnValuesOnConditionCheckFailure: onFail}
		case partiql.Update:
			ti.Update = &TransactUpdate{TableName: name, Key: w.key, UpdateExpression: w.update, ConditionExpression: w.cond,
				ExpressionAttributeNames: w.names, ExpressionAttributeValues: w.values, ReturnValuesOnConditionCheckFailure: onFail}
		case partiql.Delete:
			ti.Delete = &TransactDelete{TableName: name, Key: w.key, ConditionExpression: w.cond,
				ExpressionAttributeNames: w.names, ExpressionAttributeValues: w.values, ReturnValuesOnConditionCheckFailure: onFail}
		case partiql.Exists:
			ti.ConditionCheck = &TransactConditionCheck{TableName: name, Key: w.key, ConditionExpression: w.cond,
				ExpressionAttributeNames: w.names, ExpressionAttributeValues: w.values, ReturnValuesOnConditionCheckFailure: onFail}
		}
		tw.TransactItems = append(tw.TransactItems, ti)
	}
	res, err := db.TransactWriteItems(tw)
	if err != nil {
		return nil, duplicateReasons(err, sts)
	}
	return &ExecuteTransactionOutput{Responses: []ItemResponse{}, ConsumedCapacity: res.ConsumedCapacity}, nil
}

// duplicateReasons reports an INSERT whose key exists as DuplicateItem in
// a cancelled transaction's reasons, where TransactWriteItems says its
// condition failed.
func duplicateReasons(err error, sts []*partiql.Statement) error {
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeTransactionCanceled || len(e.CancellationReasons) != len(sts) {
		return err
	}
	out := *e
	out.CancellationReasons = append([]CancellationReason(nil), e.CancellationReasons...)
	codes := make([]string, len(sts))
	for i, r := range out.CancellationReasons {
		if sts[i].Kind == partiql.Insert && r.Code == ReasonConditionalCheckFailed {
			out.CancellationReasons[i] = CancellationReason{Code: "DuplicateItem", Message: msgQLDuplicateItem}
		}
		codes[i] = out.CancellationReasons[i].Code
	}
	out.Message = msgTransactionCanceled(codes)
	return &out
}
