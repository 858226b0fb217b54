package engine

import (
	"strconv"
	"strings"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

// Attribute name limits of table definitions. Key attribute names (of the
// table and of its indexes, in KeySchema and AttributeDefinitions) are
// 1 to 255 bytes, checked by constraints.attributeName; the names an index
// projects with INCLUDE are limited to 255 bytes too (AWS's developer
// guide, "Naming rules"; Alternator's test_limits.py,
// test_limit_attribute_length_gsi_lsi_projection_bad, run against
// DynamoDB, which refuses a 256-byte name for a GSI and an LSI alike).

// maxProjectedNameLen is the longest name NonKeyAttributes may hold.
const maxProjectedNameLen = 255

// nonKeyAttributeNames checks the member constraints of a Projection's
// NonKeyAttributes names; field is the path of the index holding it.
func (c *constraints) nonKeyAttributeNames(field string, p dynamo.Projection) {
	for _, a := range p.NonKeyAttributes {
		if a == "" || len(a) > maxProjectedNameLen {
			c.add(fmtNonKeyAttributeNames, strings.Join(p.NonKeyAttributes, ", "), field)
			return
		}
	}
}

// updateCharge is what UpdateItem's UpdateExpression is charged against
// the item size limit besides the finished item's own size: DynamoDB
// refuses, with msgUpdatedItemTooLarge and before it evaluates the
// condition, an update whose charge exceeds attr.MaxItemSize, however
// small the item it makes. The charge is computed from the request, not
// from the stored item, so the key and the attributes the update leaves
// alone are not in it (paritysuite's tests/tier3/limits/
// itemSizeBySurface.test.ts, eu-west-2, 2026-08-18 to 2026-10-09; 22 of 33
// regions apply it, the rest size only the finished item):
//
//   - 3 for the update;
//   - SET path = v: 19, the path as a target, and v as an operand;
//   - ADD path :v: 19, the path as a target, and the size of :v;
//   - REMOVE path, DELETE path :v: 1 and the path as a target;
//   - a target: its first name's bytes, plus 4 and the element for each
//     later element (a name's bytes, or a list index's decimal digits);
//   - operands: a :value its size, at every use; a path 1, plus 14 and
//     the element for each element; a + b 34, a - b 37, list_append 37 and
//     if_not_exists 39, each plus both operands.
//
// Names are counted after ExpressionAttributeNames substitution. The
// legacy AttributeUpdates have no such charge (the same tests). An Update
// of TransactWriteItems is charged the same, refusing the whole request
// (eu-west-2 since 2026-10-08; prepareTransactWrite); a PartiQL UPDATE is
// not charged (the same tests).
func updateCharge(actions []expr.Action, names map[string]string, values map[string]attr.Value) int {
	n := 3
	for _, a := range actions {
		switch a.Kind {
		case expr.ActionSet:
			n += 19 + targetCharge(a.Path, names) + operandCharge(a.Value, names, values)
		case expr.ActionAdd:
			n += 19 + targetCharge(a.Path, names)
			if a.Value != nil {
				n += attr.ValueSize(values[a.Value.ValueName])
			}
		case expr.ActionRemove, expr.ActionDelete:
			n += 1 + targetCharge(a.Path, names)
		}
	}
	return n
}

func elemCharge(e expr.PathElem, names map[string]string) int {
	switch {
	case e.IsIndex:
		return len(strconv.Itoa(e.Index))
	case e.Ref >= 0:
		return len(names[e.Name])
	}
	return len(e.Name)
}

func targetCharge(p []expr.PathElem, names map[string]string) int {
	n := 0
	for i, e := range p {
		if i > 0 {
			n += 4
		}
		n += elemCharge(e, names)
	}
	return n
}

func operandCharge(o *expr.Operand, names map[string]string, values map[string]attr.Value) int {
	if o == nil {
		return 0
	}
	switch o.Kind {
	case expr.OperandValue:
		return attr.ValueSize(values[o.ValueName])
	case expr.OperandPath:
		n := 1
		for _, e := range o.Path {
			n += 14 + elemCharge(e, names)
		}
		return n
	}
	n := 0
	switch o.Kind {
	case expr.OperandPlus:
		n = 34
	case expr.OperandMinus:
		n = 37
	default:
		switch o.Func {
		case "if_not_exists":
			n = 39
		case "list_append":
			n = 37
		}
	}
	for _, a := range o.Args {
		n += operandCharge(a, names, values)
	}
	return n
}
