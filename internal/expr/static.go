package expr

import (
	"strconv"

	"github.com/dynago/dynago/attr"
)

// staticCheck finds the errors that depend only on the expression text,
// and returns the one DynamoDB reports first, or nil. Their ranking, above
// every error that depends on the request's names and values, follows
// dynalite's tests against DynamoDB: an invalid function name beats a
// misused function, which beats a reserved word ("attribute_exists((views),
// (#a)) > b" reports the misused attribute_exists, not the reserved
// "views" or the undefined "#a"); in update expressions a reserved word
// beats a repeated section (" set #c = :c set abOrt = true " reports
// abOrt).
func staticCheck(out *parsed, ops int, reserved string, section *attr.Error) *attr.Error {
	w := out.wording()
	if ops > MaxOperators {
		// "Invalid FilterExpression: The expression contains too many
		// operators; operator count: 301" (aws-sdk-js issue 3721).
		// DynamoDB stops counting at the first operator over the limit.
		return w.err("The expression contains too many operators; operator count: " + strconv.Itoa(MaxOperators+1))
	}
	var s staticWalk
	s.w = w
	switch k := w.kind; {
	case k.isCondition():
		s.cond(out.cond)
	case k == KindUpdate:
		for i := range out.actions {
			if v := out.actions[i].Value; v != nil && out.actions[i].Kind == ActionSet {
				s.operand(v, false)
			}
		}
	}
	switch {
	case s.unknown != nil:
		return s.unknown
	case s.misused != nil:
		return s.misused
	case reserved != "":
		return reservedErr(w, reserved)
	case section != nil:
		return section
	}
	return nil
}

type staticWalk struct {
	w       wording
	unknown *attr.Error // invalid function name, or function not allowed here
	misused *attr.Error // function used where its kind of result is not
}

func (s *staticWalk) cond(c *Cond) {
	switch c.Kind {
	case CondAnd, CondOr:
		s.cond(c.Left)
		s.cond(c.Right)
	case CondNot:
		s.cond(c.Left)
	case CondFunc:
		for _, o := range c.Operands {
			s.operand(o, true)
		}
		s.function(c.fn, c.Func)
		if c.fn == fnSize && s.misused == nil {
			s.misused = misusedFuncErr(s.w, c.Func)
		}
	default:
		for _, o := range c.Operands {
			s.operand(o, true)
		}
	}
}

// operand walks o. inCond marks operands of conditions, where only size
// may be a function operand.
func (s *staticWalk) operand(o *Operand, inCond bool) {
	switch o.Kind {
	case OperandFunc:
		for _, a := range o.Args {
			s.operand(a, inCond)
		}
		s.function(o.fn, o.Func)
		if inCond && o.fn != fnSize && s.misused == nil {
			s.misused = misusedFuncErr(s.w, o.Func)
		}
		if !inCond && o.fn == fnListAppend && s.misused == nil {
			// DynamoDB refuses a list_append nested in a list_append
			// ("The function is not allowed to be used this way in an
			// expression; function: list_append"), though
			// list_append(if_not_exists(a, :v), :w) is allowed (ScyllaDB
			// Alternator's test_update_expression.py,
			// test_update_expression_function_nesting, run against
			// DynamoDB).
			for _, a := range o.Args {
				if a.Kind == OperandFunc && a.fn == fnListAppend {
					s.misused = misusedFuncErr(s.w, a.Func)
					break
				}
			}
		}
	case OperandPlus, OperandMinus:
		s.operand(o.Args[0], inCond)
		s.operand(o.Args[1], inCond)
	}
}

// function checks that a function exists and may be used in this kind of
// expression. The texts are in DynamoDB Local's message list.
func (s *staticWalk) function(fn funcID, name string) {
	if s.unknown != nil {
		return
	}
	switch {
	case fn == fnUnknown:
		s.unknown = s.w.err("Invalid function name; function: " + name)
	case s.w.kind == KindUpdate && fn != fnIfNotExists && fn != fnListAppend:
		s.unknown = s.w.err("The function is not allowed in an update expression; function: " + name)
	case s.w.kind != KindUpdate && (fn == fnIfNotExists || fn == fnListAppend):
		s.unknown = s.w.err("The function is not allowed in a condition expression; function: " + name)
	}
}
