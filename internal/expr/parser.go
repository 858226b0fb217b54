package expr

import (
	"strconv"
	"sync/atomic"

	"github.com/dynago/dynago/attr"
)

// Limits from AWS's "Constraints" page, section "Expression parameters"
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html).
const (
	// MaxExpressionSize is the largest expression string, in bytes.
	MaxExpressionSize = 4096
	// MaxOperators is the most operators and functions one expression
	// may hold. DynamoDB applies it to every expression kind (ScyllaDB
	// issue 14473, which also observed that AND and OR do not count);
	// NOT counts (parseNot).
	MaxOperators = 300
	// MaxInOperands is the most values an IN list may hold.
	MaxInOperands = 100
	// MaxPathDepth is the most elements a document path may have.
	MaxPathDepth = attr.MaxDepth
	// MaxPlaceholderSize is the longest ExpressionAttributeNames or
	// ExpressionAttributeValues key, in bytes.
	MaxPlaceholderSize = 255
)

// parsed is what the parser produces for one expression text, before any
// request's names and values are known. It is immutable and cached.
type parsed struct {
	kind Kind
	err  *attr.Error // a syntax error; nothing else is set then

	cond    *Cond        // condition kinds
	actions []Action     // KindUpdate, in the order written
	paths   [][]PathElem // KindProjection

	// actionPaths are the paths of actions, in their order: what an
	// update without name placeholders writes, the same for every
	// request.
	actionPaths [][]PathElem

	// nameRefs and valueRefs list the placeholders by slot.
	nameRefs  []string
	valueRefs []string
	// refOrder lists every placeholder occurrence in the order written:
	// >= 0 for a name slot, -1-slot for a value slot. Undefined
	// placeholders are reported in this order.
	refOrder []int32

	// stmt marks a tree a statement language built (Tree), whose
	// errors are worded bare (wording).
	stmt bool

	// static is the first error that does not depend on the request's
	// names and values and ranks above every error that does (invalid
	// function names, misused functions, reserved words, repeated update
	// sections, limits), or nil.
	static *attr.Error

	// tree is the path tree of a projection or update without name
	// placeholders, built on first use.
	tree atomic.Pointer[pathNode]
}

// parseError carries a syntax error out of the recursive descent.
type parseError struct{ err *attr.Error }

type parser struct {
	kind   Kind
	src    string
	toks   []token
	pos    int
	ops    int
	out    *parsed
	nameIx map[string]int32
	valIx  map[string]int32
	// reserved is the first reserved word used as a path element.
	reserved string
	// section is the first repeated update section error.
	section *attr.Error
}

// parse parses src as an expression of kind k. src is neither empty nor
// blank and at most MaxExpressionSize bytes; the caller checks.
func parse(k Kind, src string) (out *parsed) {
	var buf [64]token
	p := &parser{kind: k, src: src, toks: lex(buf[:0], src), out: &parsed{kind: k}}
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(parseError)
			if !ok {
				panic(r)
			}
			out = &parsed{kind: k, err: pe.err}
		}
	}()
	switch {
	case k.isCondition():
		p.out.cond = p.parseOr()
	case k == KindUpdate:
		p.parseUpdate()
		p.out.actionPaths = actionPaths(p.out.actions)
	default:
		p.parseProjection()
	}
	if p.tok().kind != tEOF {
		p.fail()
	}
	p.out.static = staticCheck(p.out, p.ops, p.reserved, p.section)
	return p.out
}

func (p *parser) tok() token          { return p.toks[p.pos] }
func (p *parser) peekKind() tokKind   { return p.toks[p.pos+1].kind }
func (p *parser) next()               { p.pos++ }
func (p *parser) text(t token) string { return p.src[t.start:t.end] }

// fail reports a syntax error at the current token. DynamoDB names the
// offending token ("<EOF>" at the end) and quotes the text from the start
// of the token before it to the end of the token after it, whitespace
// included: "ADD hits : incr" gives token ":" near "hits : incr" (AWS CDK
// issue 7591), "INVALID SYNTAX HERE" gives token "INVALID" near
// "INVALID SYNTAX" (dynamodb-conformance), a KeyConditionExpression
// cut short after ":type" gives token "<EOF>" near ":type".
func (p *parser) fail() {
	i := p.pos
	t := p.toks[i]
	start, end := t.start, t.end
	if i > 0 {
		start = p.toks[i-1].start
	}
	tokText := "<EOF>"
	if t.kind == tEOF {
		if i > 0 {
			end = p.toks[i-1].end
		}
	} else {
		tokText = p.text(t)
		if n := p.toks[i+1]; n.kind != tEOF {
			end = n.end
		}
	}
	panic(parseError{syntaxErr(wording{kind: p.kind}, tokText, p.src[start:end])})
}

func (p *parser) abort(msg string) { panic(parseError{exprErr(p.kind, msg)}) }

func (p *parser) expect(k tokKind) {
	if p.tok().kind != k {
		p.fail()
	}
	p.next()
}

func (p *parser) redundant() { p.abort(msgRedundantParens) }

// ---- placeholders and paths

func (p *parser) nameSlot(ref string) int32 {
	if s, ok := p.nameIx[ref]; ok {
		p.out.refOrder = append(p.out.refOrder, s)
		return s
	}
	if p.nameIx == nil {
		p.nameIx = make(map[string]int32)
	}
	s := int32(len(p.out.nameRefs))
	p.nameIx[ref] = s
	p.out.nameRefs = append(p.out.nameRefs, ref)
	p.out.refOrder = append(p.out.refOrder, s)
	return s
}

func (p *parser) valueSlot(ref string) int32 {
	if s, ok := p.valIx[ref]; ok {
		p.out.refOrder = append(p.out.refOrder, -1-s)
		return s
	}
	if p.valIx == nil {
		p.valIx = make(map[string]int32)
	}
	s := int32(len(p.out.valueRefs))
	p.valIx[ref] = s
	p.out.valueRefs = append(p.out.valueRefs, ref)
	p.out.refOrder = append(p.out.refOrder, -1-s)
	return s
}

// nameElem turns the current ID or #name token into a path element.
func (p *parser) nameElem() PathElem {
	t := p.tok()
	w := p.text(t)
	p.next()
	if t.kind == tName {
		return PathElem{Name: w, Ref: p.nameSlot(w)}
	}
	if p.reserved == "" && isReserved(w) {
		p.reserved = w
	}
	return PathElem{Name: w, Ref: -1}
}

// parsePathRest parses the dereferences that follow a path's first
// element.
func (p *parser) parsePathRest(first PathElem) []PathElem {
	path := make([]PathElem, 1, 4)
	path[0] = first
	for {
		switch p.tok().kind {
		case tDot:
			p.next()
			if k := p.tok().kind; k != tID && k != tName {
				p.fail()
			}
			path = append(path, p.nameElem())
		case tLBracket:
			p.next()
			t := p.tok()
			if t.kind != tIndex {
				p.fail()
			}
			n, err := strconv.ParseInt(p.text(t), 10, 32)
			if err != nil {
				// Inferred detail; DynamoDB Local's message list has the
				// text up to the semicolon.
				p.abort(msgListIndexRange + p.text(t))
			}
			p.next()
			p.expect(tRBracket)
			path = append(path, PathElem{IsIndex: true, Index: int(n), Ref: -1})
		default:
			if len(path) > MaxPathDepth {
				// "Invalid ProjectionExpression: The document path has too
				// many nesting levels; nesting levels: 33" (ScyllaDB's
				// Alternator tests, run against DynamoDB).
				p.abort(msgPathTooDeep + strconv.Itoa(len(path)))
			}
			return path
		}
	}
}

// parsePath parses a path starting at an ID or #name token.
func (p *parser) parsePath() []PathElem {
	if k := p.tok().kind; k != tID && k != tName {
		p.fail()
	}
	return p.parsePathRest(p.nameElem())
}

// ---- operands

// parseOperand parses path | :value | function call | '(' operand ')'.
func (p *parser) parseOperand() *Operand {
	t := p.tok()
	switch t.kind {
	case tLParen:
		p.next()
		o := p.parseOperand()
		p.expect(tRParen)
		if o.Parens {
			p.redundant()
		}
		o.Parens = true
		return o
	case tID:
		if p.peekKind() == tLParen {
			return p.parseCall()
		}
		return &Operand{Kind: OperandPath, Path: p.parsePath()}
	case tName:
		return &Operand{Kind: OperandPath, Path: p.parsePath()}
	case tValue:
		w := p.text(t)
		p.next()
		return &Operand{Kind: OperandValue, ValueName: w, Value: p.valueSlot(w)}
	}
	p.fail()
	return nil
}

// parseCall parses ID '(' operand (',' operand)* ')'.
func (p *parser) parseCall() *Operand {
	name := p.text(p.tok())
	p.next()
	p.next() // '('
	p.ops++
	o := &Operand{Kind: OperandFunc, Func: name, fn: lookupFunc(name)}
	o.Args = append(o.Args, p.parseOperand())
	for p.tok().kind == tComma {
		p.next()
		o.Args = append(o.Args, p.parseOperand())
	}
	p.expect(tRParen)
	return o
}

// ---- conditions

func isComparator(k tokKind) bool { return k >= tEQ && k <= tGE }

func (p *parser) parseOr() *Cond  { return p.continueOr(p.parseAnd()) }
func (p *parser) parseAnd() *Cond { return p.continueAnd(p.parseNot()) }

func (p *parser) continueOr(c *Cond) *Cond {
	for p.tok().kind == tOR {
		p.next()
		c = &Cond{Kind: CondOr, Left: c, Right: p.parseAnd()}
	}
	return c
}

func (p *parser) continueAnd(c *Cond) *Cond {
	for p.tok().kind == tAND {
		p.next()
		c = &Cond{Kind: CondAnd, Left: c, Right: p.parseNot()}
	}
	return c
}

func (p *parser) parseNot() *Cond {
	if p.tok().kind == tNOT {
		p.next()
		// NOT counts toward MaxOperators, as the change request reports
		// of DynamoDB; AWS's developer guide code example "Count
		// expression operators" counts NOT as one operator too (it
		// counts AND and OR as well, which ScyllaDB's observation,
		// see MaxOperators, does not bear out).
		p.ops++
		return &Cond{Kind: CondNot, Left: p.parseNot()}
	}
	c, _ := p.parsePrimary(false)
	return c
}

// parseInner parses what follows an opening parenthesis in condition
// position: a condition, or (when the parenthesis turns out to wrap an
// operand, as in "(a) = :v") a bare operand followed by ')'.
func (p *parser) parseInner() (*Cond, *Operand) {
	if p.tok().kind == tNOT {
		return p.parseOr(), nil
	}
	c, o := p.parsePrimary(true)
	if o != nil {
		return nil, o
	}
	return p.continueOr(p.continueAnd(c)), nil
}

// parsePrimary parses a comparison, BETWEEN, IN, function condition or
// parenthesized condition. With operandOK, an operand directly followed
// by ')' is returned as such, for the enclosing parenthesis to decide what
// it wraps.
func (p *parser) parsePrimary(operandOK bool) (*Cond, *Operand) {
	var left *Operand
	if p.tok().kind == tLParen {
		p.next()
		c, o := p.parseInner()
		p.expect(tRParen)
		if o == nil {
			if c.Parens {
				p.redundant()
			}
			c.Parens = true
			return c, nil
		}
		if o.Parens {
			p.redundant()
		}
		o.Parens = true
		left = o
	} else {
		left = p.parseOperand()
	}
	switch k := p.tok().kind; {
	case isComparator(k):
		p.next()
		p.ops++
		return &Cond{Kind: CondCompare, Op: CompareOp(k - tEQ), Operands: []*Operand{left, p.parseOperand()}}, nil
	case k == tBETWEEN:
		p.next()
		p.ops++
		lo := p.parseOperand()
		p.expect(tAND)
		hi := p.parseOperand()
		return &Cond{Kind: CondBetween, Operands: []*Operand{left, lo, hi}}, nil
	case k == tIN:
		p.next()
		p.ops++
		p.expect(tLParen)
		ops := []*Operand{left, p.parseOperand()}
		for p.tok().kind == tComma {
			p.next()
			ops = append(ops, p.parseOperand())
		}
		p.expect(tRParen)
		if n := len(ops) - 1; n > MaxInOperands {
			// "Invalid FilterExpression: The IN operator is provided with
			// too many operands; number of operands: 163" (reapit/
			// foundations issue 8255).
			p.abort(msgTooManyINOperands + strconv.Itoa(n))
		}
		return &Cond{Kind: CondIn, Operands: ops}, nil
	}
	if operandOK && p.tok().kind == tRParen {
		return nil, left
	}
	if left.Kind == OperandFunc {
		return &Cond{Kind: CondFunc, Func: left.Func, fn: left.fn, Operands: left.Args, Parens: left.Parens}, nil
	}
	p.fail()
	return nil, nil
}

// ---- updates

func isSection(k tokKind) bool { return k == tSET || k == tREMOVE || k == tADD || k == tDELETE }

func (p *parser) parseUpdate() {
	if !isSection(p.tok().kind) {
		p.fail()
	}
	var seen [4]bool
	for isSection(p.tok().kind) {
		var kind ActionKind
		switch p.tok().kind {
		case tSET:
			kind = ActionSet
		case tREMOVE:
			kind = ActionRemove
		case tADD:
			kind = ActionAdd
		default:
			kind = ActionDelete
		}
		p.next()
		if seen[kind] && p.section == nil {
			p.section = exprErr(KindUpdate, "The \""+kind.String()+"\" section can only be used once in an update expression;")
		}
		seen[kind] = true
		for {
			p.parseAction(kind)
			if p.tok().kind != tComma {
				break
			}
			p.next()
		}
	}
}

func (p *parser) parseAction(kind ActionKind) {
	a := Action{Kind: kind, Path: p.parsePath()}
	switch kind {
	case ActionSet:
		p.expect(tEQ)
		a.Value = p.parseSetValue()
	case ActionAdd, ActionDelete:
		t := p.tok()
		if t.kind != tValue {
			p.fail()
		}
		w := p.text(t)
		p.next()
		a.Value = &Operand{Kind: OperandValue, ValueName: w, Value: p.valueSlot(w)}
	}
	p.out.actions = append(p.out.actions, a)
}

// parseSetValue parses operand | operand ('+'|'-') operand, either of
// which may be parenthesized (once).
func (p *parser) parseSetValue() *Operand {
	var left *Operand
	if p.tok().kind == tLParen {
		p.next()
		inner := p.parseSetValue()
		p.expect(tRParen)
		if inner.Parens {
			p.redundant()
		}
		inner.Parens = true
		if inner.Kind == OperandPlus || inner.Kind == OperandMinus {
			return inner
		}
		left = inner
	} else {
		left = p.parseOperand()
	}
	if k := p.tok().kind; k == tPlus || k == tMinus {
		p.next()
		p.ops++
		kind := OperandPlus
		if k == tMinus {
			kind = OperandMinus
		}
		return &Operand{Kind: kind, Args: []*Operand{left, p.parseOperand()}}
	}
	return left
}

// ---- projections

func (p *parser) parseProjection() {
	p.out.paths = append(p.out.paths, p.parsePath())
	for p.tok().kind == tComma {
		p.next()
		p.out.paths = append(p.out.paths, p.parsePath())
	}
}
