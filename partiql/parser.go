package partiql

import (
	"strconv"
	"strings"

	"github.com/dynago/dynago/attr"
)

// MaxDepth bounds the nesting of expressions, so that no statement can
// make the parser recurse without end. DynamoDB's 8,192-character
// statements cannot reach it with sensible input.
const MaxDepth = 256

// parser holds the state of one parse. Errors unwind by panicking with a
// *Error, which Parse recovers; nothing else is recovered.
type parser struct {
	lx     lexer
	tok    token // the current token
	ahead  token // the token after it, when peeked
	peeked bool
	params int
	depth  int
}

// Parse parses one statement.
func Parse(src string) (st *Statement, err error) {
	p := &parser{lx: lexer{src: src, line: 1, col: 1}}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			st, err = nil, e
		}
	}()
	p.advance()
	st = p.statement()
	st.Params = p.params
	return st, nil
}

// advance moves to the next token.
func (p *parser) advance() {
	if p.peeked {
		p.tok, p.peeked = p.ahead, false
		return
	}
	p.tok = p.lx.next()
	if p.tok.kind == tBad {
		panic(malformed("", p.tok.pos))
	}
}

// peek returns the token after the current one.
func (p *parser) peek() token {
	if !p.peeked {
		p.ahead = p.lx.next()
		p.peeked = true
		if p.ahead.kind == tBad {
			panic(malformed("", p.ahead.pos))
		}
	}
	return p.ahead
}

func (p *parser) fail(detail string) {
	panic(malformed(detail, p.tok.pos))
}

func (p *parser) failMsg(msg string, pos Pos) {
	panic(&Error{Message: msg, Pos: pos})
}

// keyword consumes the keyword kw or fails.
func (p *parser) keyword(kw string) {
	if !p.tok.is(kw) {
		p.unexpected()
	}
	p.advance()
}

// symbol consumes the symbol s or fails.
func (p *parser) symbol(s string) {
	if !p.tok.punct(s) {
		p.unexpected()
	}
	p.advance()
}

// unexpected fails at the current token with the detail DynamoDB gives
// for its kind.
func (p *parser) unexpected() {
	switch {
	case p.tok.kind == tEOF || p.tok.punct(";"):
		p.fail(detailTerm)
	case p.tok.kind == tIdent && isOperatorWord(p.tok.text):
		p.fail(detailOperator)
	case p.tok.kind == tIdent && isReserved(p.tok.text):
		p.fail(detailKeyword)
	case p.tok.kind == tPunct && isOperatorSymbol(p.tok.text):
		p.fail(detailOperator)
	}
	p.fail(detailTerm)
}

// statement := (select | insert | update | delete | exists | fromUpdate) [';'] EOF
func (p *parser) statement() *Statement {
	var st *Statement
	switch {
	case p.tok.is("SELECT"):
		st = p.selectStmt()
	case p.tok.is("INSERT"):
		st = p.insertStmt()
	case p.tok.is("UPDATE"):
		st = p.updateStmt()
	case p.tok.is("DELETE"):
		st = p.deleteStmt()
	case p.tok.is("EXISTS"):
		st = p.existsStmt()
	case p.tok.is("FROM"):
		st = p.fromUpdateStmt()
	case p.tok.kind == tEOF || p.tok.punct(";"):
		p.fail(detailTerm)
	default:
		if isTypeTest(p.lx.src) {
			p.failMsg(MsgIsTypeStatement, p.tok.pos)
		}
		p.fail(detailDML)
	}
	if p.tok.punct(";") {
		p.advance()
	}
	if p.tok.kind != tEOF {
		p.fail(detailLeftover)
	}
	return st
}

// isTypeTest reports a statement that is, whole, an IS type test
// ("x IS INT4"): DynamoDB reads an expression where a statement should
// start, and refuses that one by its kind. Other expressions keep the
// answer for a statement that is not one.
func isTypeTest(src string) (ok bool) {
	p := &parser{lx: lexer{src: src, line: 1, col: 1}}
	defer func() {
		if r := recover(); r != nil {
			if _, isErr := r.(*Error); !isErr {
				panic(r)
			}
			ok = false
		}
	}()
	p.advance()
	_, is := p.expr().(*Is)
	if p.tok.punct(";") {
		p.advance()
	}
	return is && p.tok.kind == tEOF
}

// selectStmt := SELECT projection FROM source [WHERE expr] [ORDER BY orderTerm {',' orderTerm}]
func (p *parser) selectStmt() *Statement {
	p.keyword("SELECT")
	st := &Statement{Kind: Select}
	p.projection(st)
	p.keyword("FROM")
	p.source(st, true)
	if p.tok.is("WHERE") {
		p.advance()
		st.Where = p.expr()
	}
	if p.tok.is("ORDER") {
		p.advance()
		p.keyword("BY")
		for {
			st.OrderBy = append(st.OrderBy, p.orderTerm())
			if !p.tok.punct(",") {
				break
			}
			p.advance()
		}
	}
	return st
}

// projection := '*' | projItem {',' projItem}
// projItem := path
func (p *parser) projection(st *Statement) {
	for {
		if p.tok.punct("*") {
			pos := p.tok.pos
			p.advance()
			if st.Projection != nil || st.Aggregate != nil {
				p.failMsg(MsgStarAndOthers, pos)
			}
			st.Star = true
		} else {
			e := p.expr()
			if st.Star {
				p.failMsg(MsgStarAndOthers, e.Position())
			}
			switch x := e.(type) {
			case *Path:
				st.Projection = append(st.Projection, x)
			case *Call:
				if !x.Star {
					p.failMsg(MsgPathComponent+At(e.Position()), e.Position())
				}
				if st.Aggregate == nil {
					st.Aggregate = x
				}
			default:
				p.failMsg(MsgPathComponent+At(e.Position()), e.Position())
			}
		}
		if !p.tok.punct(",") {
			return
		}
		p.advance()
	}
}

// orderTerm := expr [ASC | DESC]
func (p *parser) orderTerm() OrderTerm {
	t := OrderTerm{Key: p.expr()}
	switch {
	case p.tok.is("ASC"):
		p.advance()
	case p.tok.is("DESC"):
		t.Desc = true
		p.advance()
	}
	return t
}

// source := name ['.' name], refusing an alias after it when aliasCheck.
func (p *parser) source(st *Statement, aliasCheck bool) {
	st.TablePos = p.tok.pos
	st.Table = p.name()
	if p.tok.punct(".") {
		p.advance()
		st.Index = p.name()
	}
	if aliasCheck {
		p.noAlias()
	}
}

// noAlias refuses a table alias: a name, or AS, after the source.
func (p *parser) noAlias() {
	if p.tok.is("AS") || p.tok.kind == tQuoted || p.tok.kind == tIdent && !isReserved(p.tok.text) {
		p.failMsg(MsgAliasing, p.tok.pos)
	}
}

// name := quotedName | identifier (not a reserved word)
func (p *parser) name() string {
	switch {
	case p.tok.kind == tQuoted:
		s := p.tok.text
		p.advance()
		return s
	case p.tok.kind == tIdent && !isReserved(p.tok.text):
		s := p.tok.text
		p.advance()
		return s
	}
	p.unexpected()
	return ""
}

// insertStmt := INSERT INTO name VALUE expr [RETURNING ...]
func (p *parser) insertStmt() *Statement {
	p.keyword("INSERT")
	p.keyword("INTO")
	st := &Statement{Kind: Insert}
	if p.tok.kind == tEOF || p.tok.punct(";") {
		p.fail(detailSimplePath)
	}
	st.TablePos = p.tok.pos
	st.Table = p.name()
	switch {
	case p.tok.is("VALUE"):
		p.advance()
	case p.tok.is("VALUES") || p.tok.punct("<<"):
		p.failMsg(MsgInsertMany, p.tok.pos)
	default:
		p.fail(detailLeftover)
	}
	st.Value = p.expr()
	st.Returning = p.returning()
	return st
}

// updateStmt := UPDATE name updateActions [WHERE expr] [RETURNING ...]
func (p *parser) updateStmt() *Statement {
	p.keyword("UPDATE")
	st := &Statement{Kind: Update}
	if p.tok.kind == tEOF || p.tok.punct(";") {
		p.fail(detailSimplePath)
	}
	st.TablePos = p.tok.pos
	st.Table = p.name()
	if !p.tok.is("SET") && !p.tok.is("REMOVE") {
		p.noAlias()
	}
	p.updateActions(st)
	if p.tok.is("WHERE") {
		p.advance()
		st.Where = p.expr()
	}
	st.Returning = p.returning()
	return st
}

// fromUpdateStmt := FROM name [WHERE expr] updateActions [RETURNING ...]
func (p *parser) fromUpdateStmt() *Statement {
	p.keyword("FROM")
	st := &Statement{Kind: Update}
	st.TablePos = p.tok.pos
	st.Table = p.name()
	if p.tok.is("WHERE") {
		p.advance()
		st.Where = p.expr()
	}
	p.updateActions(st)
	st.Returning = p.returning()
	return st
}

// updateActions := (SET assignment {',' assignment} | REMOVE path {',' path})+
func (p *parser) updateActions(st *Statement) {
	n := 0
	for {
		switch {
		case p.tok.is("SET"):
			p.advance()
			for {
				st.Actions = append(st.Actions, p.assignment())
				if !p.tok.punct(",") {
					break
				}
				p.advance()
			}
		case p.tok.is("REMOVE"):
			p.advance()
			for {
				st.Actions = append(st.Actions, Action{Path: p.path()})
				if !p.tok.punct(",") {
					break
				}
				p.advance()
			}
		default:
			if n == 0 {
				p.unexpected()
			}
			return
		}
		n++
	}
}

// assignment := path '=' expr
func (p *parser) assignment() Action {
	a := Action{Path: p.path()}
	p.symbol("=")
	if p.tok.kind == tEOF {
		p.fail(detailMissingRHS)
	}
	a.Value = p.expr()
	return a
}

// deleteStmt := DELETE FROM name [WHERE expr] [RETURNING ...]
func (p *parser) deleteStmt() *Statement {
	p.keyword("DELETE")
	p.keyword("FROM")
	st := &Statement{Kind: Delete}
	if p.tok.kind == tEOF || p.tok.punct(";") || p.tok.is("WHERE") {
		p.fail(detailSimplePath)
	}
	st.TablePos = p.tok.pos
	st.Table = p.name()
	p.noAlias()
	if p.tok.is("WHERE") {
		p.advance()
		st.Where = p.expr()
	}
	st.Returning = p.returning()
	return st
}

// existsStmt := EXISTS '(' selectStmt ')'
func (p *parser) existsStmt() *Statement {
	p.keyword("EXISTS")
	p.symbol("(")
	st := p.selectStmt()
	p.symbol(")")
	st.Kind = Exists
	return st
}

// returning := [RETURNING (ALL | MODIFIED) (OLD | NEW) '*']
func (p *parser) returning() Returning {
	if !p.tok.is("RETURNING") {
		return ReturnNone
	}
	pos := p.tok.pos
	p.advance()
	var all, old bool
	switch {
	case p.tok.is("ALL"):
		all = true
	case p.tok.is("MODIFIED"):
	default:
		p.failMsg(MsgReturningSyntax, pos)
	}
	p.advance()
	switch {
	case p.tok.is("OLD"):
		old = true
	case p.tok.is("NEW"):
	default:
		p.failMsg(MsgReturningSyntax, pos)
	}
	p.advance()
	if !p.tok.punct("*") {
		p.failMsg(MsgReturningSyntax, pos)
	}
	p.advance()
	switch {
	case all && old:
		return ReturnAllOld
	case all:
		return ReturnAllNew
	case old:
		return ReturnModifiedOld
	}
	return ReturnModifiedNew
}

// enter guards the depth of nested expressions.
func (p *parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		p.fail(detailTooDeep)
	}
}

func (p *parser) leave() { p.depth-- }

// expr := orExpr
func (p *parser) expr() Expr {
	p.enter()
	defer p.leave()
	return p.orExpr()
}

// rhs checks that an infix operator has a right-hand side.
func (p *parser) rhs() {
	if p.tok.kind == tEOF || p.tok.punct(";") {
		p.fail(detailMissingRHS)
	}
}

// orExpr := andExpr {OR andExpr}
func (p *parser) orExpr() Expr {
	x := p.andExpr()
	for p.tok.is("OR") {
		pos := p.tok.pos
		p.advance()
		p.rhs()
		x = &Binary{Op: "OR", L: x, R: p.andExpr(), Pos: pos}
	}
	return x
}

// andExpr := notExpr {AND notExpr}
func (p *parser) andExpr() Expr {
	x := p.notExpr()
	for p.tok.is("AND") {
		pos := p.tok.pos
		p.advance()
		p.rhs()
		x = &Binary{Op: "AND", L: x, R: p.notExpr(), Pos: pos}
	}
	return x
}

// notExpr := NOT notExpr | predicate
func (p *parser) notExpr() Expr {
	if p.tok.is("NOT") {
		pos := p.tok.pos
		p.advance()
		p.enter()
		defer p.leave()
		return &Not{X: p.notExpr(), Pos: pos}
	}
	return p.predicate()
}

// comparisons maps comparison symbols to the operator they stand for.
var comparisons = map[string]string{"=": "=", "<>": "<>", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

// predicate := additive [compOp additive | [NOT] BETWEEN additive AND additive
//
//	| [NOT] IN inList | IS [NOT] typeName]
func (p *parser) predicate() Expr {
	x := p.additive()
	if p.tok.kind == tPunct {
		if op, ok := comparisons[p.tok.text]; ok {
			pos := p.tok.pos
			p.advance()
			p.rhs()
			return &Binary{Op: op, L: x, R: p.additive(), Pos: pos}
		}
	}
	negated := false
	if p.tok.is("NOT") {
		if next := p.peek(); next.is("BETWEEN") || next.is("IN") || next.is("LIKE") {
			negated = true
			p.advance()
		}
	}
	switch {
	case p.tok.is("BETWEEN"):
		pos := p.tok.pos
		p.advance()
		p.rhs()
		lo := p.additive()
		p.keyword("AND")
		p.rhs()
		return &Between{X: x, Lo: lo, Hi: p.additive(), Negated: negated, Pos: pos}
	case p.tok.is("IN"):
		pos := p.tok.pos
		p.advance()
		p.rhs()
		return p.inList(x, negated, pos)
	case p.tok.is("IS"):
		pos := p.tok.pos
		p.advance()
		is := &Is{X: x, Pos: pos}
		if p.tok.is("NOT") {
			is.Negated = true
			p.advance()
		}
		is.Type = p.typeName()
		return is
	case p.tok.is("LIKE"):
		p.failMsg("Unsupported operation: Like", p.tok.pos) // no recording
	}
	return x
}

// inList := '(' expr {',' expr} ')' | list | bag | additive
func (p *parser) inList(x Expr, negated bool, pos Pos) Expr {
	in := &In{X: x, Negated: negated, Pos: pos, Seq: true}
	if p.tok.punct("(") {
		p.advance()
		for {
			in.List = append(in.List, p.expr())
			if !p.tok.punct(",") {
				break
			}
			p.advance()
		}
		p.symbol(")")
		return in
	}
	switch e := p.additive().(type) {
	case *List:
		in.List = e.Elems
	case *Bag:
		in.List = e.Elems
	default:
		in.List, in.Seq = []Expr{e}, false
	}
	return in
}

// typeNames are the type names IS accepts, with the second word of the
// two-word ones.
var typeNames = map[string]string{
	"MISSING": "", "NULL": "", "BOOL": "", "BOOLEAN": "", "STRING": "", "SYMBOL": "", "VARCHAR": "",
	"CHAR": "", "CHARACTER": "VARYING", "NUMERIC": "", "DECIMAL": "", "DEC": "", "INT": "", "INTEGER": "",
	"INT2": "", "INT4": "", "INT8": "", "SMALLINT": "", "BIGINT": "", "FLOAT": "", "REAL": "", "DOUBLE": "PRECISION",
	"BLOB": "", "CLOB": "", "STRUCT": "", "TUPLE": "", "LIST": "", "BAG": "", "SEXP": "",
	"TIMESTAMP": "", "DATE": "", "TIME": "",
}

// typeName := a name from typeNames
func (p *parser) typeName() string {
	if p.tok.kind != tIdent {
		p.fail(detailTypeName)
	}
	name := strings.ToUpper(p.tok.text)
	second, ok := typeNames[name]
	if !ok {
		p.fail(detailTypeName)
	}
	p.advance()
	if second != "" && p.tok.is(second) {
		name += " " + second
		p.advance()
	}
	return name
}

// additive := multiplicative {('+' | '-' | '||') multiplicative}
func (p *parser) additive() Expr {
	x := p.multiplicative()
	for p.tok.punct("+") || p.tok.punct("-") || p.tok.punct("||") {
		op, pos := p.tok.text, p.tok.pos
		p.advance()
		p.rhs()
		x = &Binary{Op: op, L: x, R: p.multiplicative(), Pos: pos}
	}
	return x
}

// multiplicative := unary {('*' | '/' | '%') unary}
func (p *parser) multiplicative() Expr {
	x := p.unary()
	for p.tok.punct("*") || p.tok.punct("/") || p.tok.punct("%") {
		op, pos := p.tok.text, p.tok.pos
		p.advance()
		p.rhs()
		x = &Binary{Op: op, L: x, R: p.unary(), Pos: pos}
	}
	return x
}

// unary := ('-' | '+') unary | primary
func (p *parser) unary() Expr {
	if p.tok.punct("-") || p.tok.punct("+") {
		neg, pos := p.tok.text == "-", p.tok.pos
		p.advance()
		p.enter()
		defer p.leave()
		if p.tok.kind == tNumber {
			lit := p.number()
			if neg {
				lit.Text = "-" + lit.Text
			}
			lit.Pos = Pos{Line: pos.Line, Col: pos.Col, Len: lit.Pos.Len + lit.Pos.Col - pos.Col}
			return lit
		}
		x := p.unary()
		if !neg {
			return x
		}
		return &Neg{X: x, Pos: pos}
	}
	return p.primary()
}

// primary := literal | '?' | path | call | '(' expr ')' | list | map | bag
func (p *parser) primary() Expr {
	t := p.tok
	switch t.kind {
	case tString:
		p.advance()
		return &Literal{Kind: LitString, Text: t.text, Pos: t.pos}
	case tNumber:
		return p.number()
	case tParam:
		p.advance()
		x := &Param{N: p.params, Pos: t.pos}
		p.params++
		return x
	case tQuoted:
		return p.path()
	case tIdent:
		switch {
		case t.is("TRUE"), t.is("FALSE"):
			p.advance()
			return &Literal{Kind: LitBool, Bool: t.is("TRUE"), Pos: t.pos}
		case t.is("NULL"):
			p.advance()
			return &Literal{Kind: LitNull, Pos: t.pos}
		case t.is("MISSING"):
			p.advance()
			return &Literal{Kind: LitMissing, Pos: t.pos}
		}
		if p.peek().punct("(") && !isOperatorWord(t.text) && !t.is("NOT") {
			return p.call()
		}
		return p.path()
	case tPunct:
		switch t.text {
		case "(":
			p.advance()
			x := p.expr()
			p.symbol(")")
			return x
		case "[":
			p.advance()
			return &List{Elems: p.elements("]"), Pos: t.pos}
		case "<<":
			p.advance()
			return &Bag{Elems: p.elements(">>"), Pos: t.pos}
		case "{":
			return p.mapLiteral()
		}
	}
	p.unexpected()
	return nil
}

// elements := [expr {',' expr}] close
func (p *parser) elements(close string) []Expr {
	p.enter()
	defer p.leave()
	list := []Expr{}
	if p.tok.punct(close) {
		p.advance()
		return list
	}
	for {
		list = append(list, p.expr())
		if !p.tok.punct(",") {
			break
		}
		p.advance()
	}
	p.symbol(close)
	return list
}

// mapLiteral := '{' [expr ':' expr {',' expr ':' expr}] '}'
func (p *parser) mapLiteral() Expr {
	p.enter()
	defer p.leave()
	m := &Map{Pos: p.tok.pos}
	p.symbol("{")
	if p.tok.punct("}") {
		p.advance()
		return m
	}
	for {
		k := p.expr()
		if !p.tok.punct(":") {
			p.fail(detailMapSeparator)
		}
		p.advance()
		m.Keys = append(m.Keys, k)
		m.Vals = append(m.Vals, p.expr())
		if !p.tok.punct(",") {
			break
		}
		p.advance()
	}
	p.symbol("}")
	return m
}

// call := identifier '(' [expr {',' expr}] ')'
func (p *parser) call() Expr {
	p.enter()
	defer p.leave()
	c := &Call{Name: strings.ToLower(p.tok.text), Pos: p.tok.pos}
	p.advance()
	p.symbol("(")
	if c.Name == "count" && p.tok.punct("*") && p.peek().punct(")") {
		p.advance()
		p.advance()
		c.Star, c.Args = true, []Expr{}
		return c
	}
	c.Args = p.elements(")")
	return c
}

// path := name {'.' name | '[' (index | string) ']'}
func (p *parser) path() *Path {
	path := &Path{Pos: p.tok.pos}
	path.Elems = append(path.Elems, PathElem{Name: p.name()})
	for {
		switch {
		case p.tok.punct("."):
			p.advance()
			switch {
			case p.tok.punct("*"):
				p.failMsg(MsgUnpivot, p.tok.pos)
			case p.tok.kind == tIdent && isReserved(p.tok.text):
				p.fail(detailPathDot)
			case p.tok.kind != tIdent && p.tok.kind != tQuoted:
				p.fail(detailPathDot)
			}
			path.Elems = append(path.Elems, PathElem{Name: p.tok.text})
			p.advance()
		case p.tok.punct("["):
			p.advance()
			switch {
			case p.tok.punct("*"):
				p.failMsg(MsgWildcard, p.tok.pos)
			case p.tok.kind == tString:
				path.Elems = append(path.Elems, PathElem{Name: p.tok.text})
			case p.tok.kind == tNumber:
				n, err := strconv.Atoi(p.tok.text)
				if err != nil || n < 0 {
					p.failMsg("List index is not within the allowable range; index: ["+p.tok.text+"]", p.tok.pos)
				}
				path.Elems = append(path.Elems, PathElem{Index: n, IsIndex: true})
			default:
				p.fail(detailListIndex)
			}
			p.advance()
			p.symbol("]")
		default:
			return path
		}
	}
}

// number reads a number literal. Its exponent and the scale it leaves
// must fit 32-bit integers, as DynamoDB reads literals with Java's
// BigDecimal; otherwise the statement is not well formed, with no detail.
func (p *parser) number() *Literal {
	t := p.tok
	if !attr.NumberFits(t.text) {
		p.fail("")
	}
	p.advance()
	return &Literal{Kind: LitNumber, Text: t.text, Pos: t.pos}
}
