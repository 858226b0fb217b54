package engine

import (
	"errors"

	"github.com/dynago/dynago/internal/partiql"
)

// schemaOf is what planning a SELECT needs of t.
func schemaOf(t *table) *partiql.Schema {
	s := &partiql.Schema{Table: t.meta.Name, Hash: t.hashName, Range: t.rangeName}
	for _, ix := range t.indexes {
		is := partiql.IndexSchema{Name: ix.meta.Name, Global: ix.meta.Global, Projection: ix.projType, NonKey: ix.include}
		for _, a := range ix.hash {
			is.Hash = append(is.Hash, a.name)
		}
		for _, a := range ix.rng {
			is.Range = append(is.Range, a.name)
		}
		s.Indexes = append(s.Indexes, is)
	}
	return s
}

// msgQLNoIndex: ExecuteStatement on a table's index that does not exist.
// Unlike Query and Scan (msgNoIndex), PartiQL does not name the index;
// and the missing index is reported before a ConsistentRead on a GSI
// would be (paritysuite/dynamodb-conformance, tests/tier3/error-messages/
// indexReads.test.ts, eu-west-1, 2026-09-02).
const msgQLNoIndex = "The table does not have the specified index"

// planError words a planning error as DynamoDB does.
func planError(err error) error {
	var pe *partiql.PlanError
	if !errors.As(err, &pe) {
		return err
	}
	switch pe.Code {
	case partiql.PlanNoIndex:
		return Validation(msgQLNoIndex)
	case partiql.PlanMultiKeyIndex:
		return Validation(msgQLMultiKeyIndex)
	case partiql.PlanConsistentGSI:
		return Validation(msgQLConsistentGSI)
	case partiql.PlanNotProjected:
		return Validation(msgQLNotProjected(pe.Name, pe.Names))
	case partiql.PlanOverlap:
		return Validation(msgQLOverlap)
	case partiql.PlanOrderByNoWhere:
		return Validation(msgQLOrderByNoWhere)
	case partiql.PlanOrderByType:
		return Validation(msgQLOrderByType(exprName(pe.Expr)))
	case partiql.PlanOrderByKey:
		return Validation(msgQLOrderByKey(pe.Name))
	case partiql.PlanOrderByNoHash:
		return Validation(msgQLOrderByNoHash)
	case partiql.PlanOrderByMultiHash:
		return Validation(msgQLOrderByMultiHash)
	case partiql.PlanTooManyReads:
		return Validation(msgQLTooManyReads)
	case partiql.PlanAggregate:
		return Validation(partiql.MsgPathComponent + partiql.At(pe.Expr.Position()))
	}
	return err
}
