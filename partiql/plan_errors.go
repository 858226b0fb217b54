package partiql

import (
	"errors"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// msgQLNoIndex: ExecuteStatement on a table's index that does not exist.
// Unlike Query and Scan (msgNoIndex), PartiQL does not name the index;
// and the missing index is reported before a ConsistentRead on a GSI
// would be (paritysuite/dynamodb-conformance, tests/tier3/error-messages/
// indexReads.test.ts, eu-west-1, 2026-09-02).
const msgQLNoIndex = "The table does not have the specified index"

// planError words a planning error as DynamoDB does.
func planError(err error) error {
	var pe *PlanError
	if !errors.As(err, &pe) {
		return err
	}
	switch pe.Code {
	case PlanNoIndex:
		return dynamo.Validation(msgQLNoIndex)
	case PlanVectorIndex:
		return dynamo.Validation(engine.MsgVectorIndexScan)
	case PlanMultiKeyIndex:
		return dynamo.Validation(msgQLMultiKeyIndex)
	case PlanConsistentGSI:
		return dynamo.Validation(msgQLConsistentGSI)
	case PlanNotProjected:
		return dynamo.Validation(engine.MsgNotProjected(pe.Name, pe.Names))
	case PlanOverlap:
		return dynamo.Validation(msgQLOverlap)
	case PlanOrderByNoWhere:
		return dynamo.Validation(msgQLOrderByNoWhere)
	case PlanOrderByType:
		return dynamo.Validation(msgQLOrderByType(exprName(pe.Expr)))
	case PlanOrderByKey:
		return dynamo.Validation(msgQLOrderByKey(pe.Name))
	case PlanOrderByNoHash:
		return dynamo.Validation(msgQLOrderByNoHash)
	case PlanOrderByMultiHash:
		return dynamo.Validation(msgQLOrderByMultiHash)
	case PlanTooManyReads:
		return dynamo.Validation(msgQLTooManyReads)
	case PlanAggregate:
		return dynamo.Validation(MsgPathComponent + At(pe.Expr.Position()))
	}
	return err
}
