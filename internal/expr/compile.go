package expr

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/dynago/dynago/attr"
)

// Operation names the request an Input belongs to. It decides the wording
// of "ExpressionAttributeValues can only be specified when using
// expressions: ..." and nothing else.
type Operation uint8

// Operations.
const (
	OpUnknown Operation = iota
	OpPutItem
	OpDeleteItem
	OpUpdateItem
	OpQuery
	OpScan
	OpGetItem
	OpConditionCheck // TransactWriteItems' ConditionCheck
	OpSearchVectors
)

// valuesNullPhrase lists, for each operation, the expressions that can use
// ExpressionAttributeValues, as DynamoDB words their absence (dynalite's
// tests against DynamoDB).
func (o Operation) valuesNullPhrase() string {
	switch o {
	case OpPutItem, OpDeleteItem, OpConditionCheck:
		return "ConditionExpression is null"
	case OpUpdateItem:
		return "UpdateExpression and ConditionExpression are null"
	case OpQuery:
		return "FilterExpression and KeyConditionExpression are null"
	case OpScan:
		return "FilterExpression is null"
	case OpSearchVectors:
		// Inferred from the other operations' wording: no recorded
		// answer of SearchVectors has it.
		return "SearchConditionExpression is null"
	}
	return ""
}

// Kinds is a set of expression kinds.
type Kinds uint8

// With returns s with k added.
func (s Kinds) With(k Kind) Kinds { return s | 1<<k }

// Has reports whether k is in s.
func (s Kinds) Has(k Kind) bool { return s&(1<<k) != 0 }

// Input is the expression part of one request.
type Input struct {
	Operation Operation
	// The expressions; "" is absent unless Present says otherwise.
	Condition, Filter, KeyCondition, Projection, Update string
	// SearchCondition is SearchVectors' SearchConditionExpression.
	SearchCondition string
	// Present marks expressions the request carried even if empty, so
	// that "" is refused as "The expression can not be empty;".
	Present Kinds
	// Names and Values: nil when absent from the request, non-nil and
	// empty when present but empty (which DynamoDB refuses). Values are
	// validated here (and their numbers rewritten to canonical form in
	// place), with the messages DynamoDB gives for
	// ExpressionAttributeValues.
	Names  map[string]string
	Values attr.Item
	// Cache keeps the parses of expression texts for the next request
	// that sends the same; nil parses every time.
	Cache *Cache
	// Trees holds the expressions a statement language built as trees
	// (Tree): such an expression's text only sizes it, and is not parsed.
	Trees *Trees
}

func (in *Input) text(k Kind) string {
	switch k {
	case KindCondition:
		return in.Condition
	case KindFilter:
		return in.Filter
	case KindKeyCondition:
		return in.KeyCondition
	case KindProjection:
		return in.Projection
	case KindSearchCondition:
		return in.SearchCondition
	}
	return in.Update
}

func (in *Input) has(k Kind) bool { return in.text(k) != "" || in.Present.Has(k) }

// Compiled holds a request's compiled expressions; those the request does
// not carry are nil.
type Compiled struct {
	Condition    *Condition
	Filter       *Condition
	KeyCondition *Condition
	Projection   *Projection
	Update       *Update
	// SearchCondition is SearchVectors' SearchConditionExpression, its
	// tree to be walked (Condition.Root), never evaluated on items.
	SearchCondition *Condition
}

// compileOrder is the order in which a request's expressions are checked.
// UpdateItem reports an empty UpdateExpression before an empty
// ConditionExpression, Scan an empty FilterExpression before an empty
// ProjectionExpression, and Query an empty KeyConditionExpression before
// an empty FilterExpression or ProjectionExpression (dynalite's tests
// against DynamoDB). SearchVectors' SearchConditionExpression is put
// before its ProjectionExpression as Query's filter is: no recorded
// answer orders the two.
// noExpressions is the Compiled of every request without expressions.
var noExpressions Compiled

var compileOrder = [...]Kind{KindUpdate, KindCondition, KindKeyCondition, KindFilter, KindSearchCondition, KindProjection}

// Compile validates and compiles the expressions of one request: it parses
// each (through the cache), substitutes its placeholders, and checks the
// request as a whole (names and values given without expressions, empty,
// malformed or unused). Errors are *attr.Error with DynamoDB's
// ValidationException message. A request without expressions gets a
// Compiled shared by all such requests: callers only read it.
func Compile(in Input) (*Compiled, error) {
	c, err := compile(&in)
	if err != nil {
		return nil, err
	}
	return c, nil
}

func compile(in *Input) (*Compiled, *attr.Error) {
	anyExpr, valueExpr := false, false
	for k := Kind(0); k < numKinds; k++ {
		if in.has(k) {
			anyExpr = true
			if k != KindProjection {
				valueExpr = true
			}
		}
	}
	if in.Names != nil && !anyExpr {
		return nil, newErr(MsgNamesWithoutExpressions)
	}
	if in.Values != nil && !valueExpr {
		msg := MsgValuesWithoutExpressions
		if p := in.Operation.valuesNullPhrase(); p != "" {
			msg += ": " + p
		}
		return nil, newErr(msg)
	}
	if !anyExpr {
		// Nothing to compile, and no names or values (refused above).
		return &noExpressions, nil
	}
	if err := checkNames(in.Names); err != nil {
		return nil, err
	}
	if err := checkValues(in.Values); err != nil {
		return nil, err
	}
	var ps [numKinds]*parsed
	var bs [numKinds]binding
	for _, k := range compileOrder {
		if !in.has(k) {
			continue
		}
		text := in.text(k)
		tree := in.Trees.tree(k)
		w := wording{kind: k, stmt: tree != nil}
		if len(text) > MaxExpressionSize {
			// "Invalid FilterExpression: Expression size has exceeded the
			// maximum allowed size; expression size: 5872" (reported
			// against DynamoDB in a user's code comment). An
			// UpdateExpression's names no size:
			// paritysuite/dynamodb-conformance,
			// tests/tier3/validation-ordering/deepRequests.test.ts
			// ("reports an oversized UpdateExpression before a later
			// ConditionCheck key nested 100 levels", eu-west-2 and
			// us-east-1, 2026-10-09), where a ConditionExpression's does.
			if k == KindUpdate {
				return nil, w.err("Expression size has exceeded the maximum allowed size;")
			}
			return nil, w.err("Expression size has exceeded the maximum allowed size; expression size: " + strconv.Itoa(len(text)))
		}
		if isBlank(text) {
			return nil, w.err(msgEmpty)
		}
		var p *parsed
		if tree != nil {
			p = &tree.p
		} else {
			p = in.Cache.parse(k, text)
		}
		if p.err != nil {
			return nil, p.err
		}
		b, err := bind(p, in.Names, in.Values)
		if err != nil {
			return nil, err
		}
		if err := b.nameTooLarge(); err != nil {
			return nil, err
		}
		ps[k], bs[k] = p, b
	}
	if err := checkUnused(in, &ps); err != nil {
		return nil, err
	}
	var out *Compiled
	var w *compiledWrite
	if ps[KindCondition] != nil || ps[KindUpdate] != nil {
		w = &compiledWrite{}
		out = &w.Compiled
	} else {
		out = &Compiled{}
	}
	for k, p := range ps {
		if p == nil {
			continue
		}
		switch Kind(k) {
		case KindCondition:
			w.condition = Condition{kind: KindCondition, root: p.cond, b: bs[k]}
			out.Condition = &w.condition
		case KindFilter:
			out.Filter = &Condition{kind: KindFilter, root: p.cond, b: bs[k]}
		case KindKeyCondition:
			out.KeyCondition = &Condition{kind: KindKeyCondition, root: p.cond, b: bs[k]}
		case KindSearchCondition:
			out.SearchCondition = &Condition{kind: KindSearchCondition, root: p.cond, b: bs[k]}
		case KindProjection:
			out.Projection = p.projection(&bs[k])
		case KindUpdate:
			w.update = p.update(bs[k])
			out.Update = &w.update
		}
	}
	return out, nil
}

// compiledWrite is a Compiled with room for a ConditionExpression and an
// UpdateExpression, so that a write's expressions take one allocation;
// the other kinds are allocated apart.
type compiledWrite struct {
	Compiled
	condition Condition
	update    Update
}

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

// pathTree returns the tree of paths for a projection or update. Without
// name placeholders it depends on no request and is kept with the parse.
func (p *parsed) pathTree(paths [][]PathElem) *pathNode {
	if len(p.nameRefs) > 0 {
		return buildTree(paths)
	}
	if t := p.tree.Load(); t != nil {
		return t
	}
	t := buildTree(paths)
	t.names = sortedNames(t)
	p.tree.Store(t)
	return t
}

func (p *parsed) projection(b *binding) *Projection {
	paths := p.paths
	if len(p.nameRefs) > 0 {
		paths = resolvePaths(paths, b)
	}
	return &Projection{paths: paths, root: p.pathTree(paths)}
}

// actionPaths returns the paths of an update's actions, in their order.
func actionPaths(actions []Action) [][]PathElem {
	paths := make([][]PathElem, len(actions))
	for i := range actions {
		paths[i] = actions[i].Path
	}
	return paths
}

func (p *parsed) update(b binding) Update {
	paths := p.actionPaths
	if len(p.nameRefs) > 0 {
		paths = resolvePaths(paths, &b)
	}
	return Update{actions: p.actions, b: b, paths: paths, root: p.pathTree(paths)}
}

// validKey reports whether key is a placeholder: prefix followed by one or
// more of [A-Za-z0-9_].
func validKey(key string, prefix byte) bool {
	if len(key) < 2 || key[0] != prefix {
		return false
	}
	for i := 1; i < len(key); i++ {
		if !isIDChar(key[i]) {
			return false
		}
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// keyErr checks one placeholder key. The "too long" text is in DynamoDB
// Local's message list; its "; size of key: N" detail is inferred.
func keyErr(param, key string, prefix byte) *attr.Error {
	if len(key) > MaxPlaceholderSize {
		return newErr(param + " contains invalid key: The expression attribute map contains a key that is too long; size of key: " + strconv.Itoa(len(key)))
	}
	if !validKey(key, prefix) {
		return newErr(param + " contains invalid key: Syntax error; key: \"" + key + "\"")
	}
	return nil
}

func checkNames(names map[string]string) *attr.Error {
	if names == nil {
		return nil
	}
	if len(names) == 0 {
		return newErr(MsgNamesEmpty)
	}
	bad := false
	for k, v := range names {
		if v == "" || keyErr("", k, '#') != nil {
			bad = true
			break
		}
	}
	if !bad {
		return nil
	}
	keys := sortedKeys(names)
	for _, k := range keys {
		if err := keyErr("ExpressionAttributeNames", k, '#'); err != nil {
			return err
		}
	}
	// An empty name, as quoted from a DynamoDB answer in an application's
	// error handling ("... Empty attribute name for key #DE").
	for _, k := range keys {
		if names[k] == "" {
			return newErr("ExpressionAttributeNames contains invalid value: Empty attribute name for key " + k)
		}
	}
	return nil
}

func checkValues(values attr.Item) *attr.Error {
	if values == nil {
		return nil
	}
	if len(values) == 0 {
		return newErr(MsgValuesEmpty)
	}
	bad := false
	for k, v := range values {
		if keyErr("", k, ':') != nil {
			bad = true
			break
		}
		old := v.S
		if err := v.Canonicalize(); err != nil {
			bad = true
			break
		}
		if v.Type == attr.TypeN && v.S != old {
			values[k] = v
		}
	}
	if !bad {
		return nil
	}
	keys := sortedKeys(values)
	for _, k := range keys {
		if err := keyErr("ExpressionAttributeValues", k, ':'); err != nil {
			return err
		}
	}
	for _, k := range keys {
		v := values[k]
		if err := v.Canonicalize(); err != nil {
			// The current validation layer reports a value's own problem
			// without the wrapping (attr.Error.Current).
			e := newErr(MsgInvalidValue(err.Error(), k))
			var ae *attr.Error
			if errors.As(err, &ae) {
				e.Current = ae.Current
			}
			return e
		}
	}
	return nil
}

// checkUnused reports names and values no expression of the request uses.
func checkUnused(in *Input, ps *[numKinds]*parsed) *attr.Error {
	if len(in.Names) > 0 {
		var unused []string
		for k := range in.Names {
			if !usesRef(ps, k, true) {
				unused = append(unused, k)
			}
		}
		if unused != nil {
			slices.Sort(unused)
			return newErr("Value provided in ExpressionAttributeNames unused in expressions: keys: {" + strings.Join(unused, ", ") + "}")
		}
	}
	if len(in.Values) > 0 {
		var unused []string
		for k := range in.Values {
			if !usesRef(ps, k, false) {
				unused = append(unused, k)
			}
		}
		if unused != nil {
			slices.Sort(unused)
			return newErr("Value provided in ExpressionAttributeValues unused in expressions: keys: {" + strings.Join(unused, ", ") + "}")
		}
	}
	return nil
}

func usesRef(ps *[numKinds]*parsed, ref string, name bool) bool {
	for _, p := range ps {
		if p == nil {
			continue
		}
		refs := p.valueRefs
		if name {
			refs = p.nameRefs
		}
		for _, r := range refs {
			if r == ref {
				return true
			}
		}
	}
	return false
}

// CheckMixing refuses a request that uses both expression parameters and
// their legacy counterparts. The engine lists the parameters the request
// carries (present even if empty), each list in DynamoDB's order for the
// operation: for UpdateItem "{AttributeUpdates, Expected}" and
// "{UpdateExpression, ConditionExpression}" (dynalite's tests); for Query
// presumably AttributesToGet, QueryFilter, ConditionalOperator,
// KeyConditions and ProjectionExpression, FilterExpression,
// KeyConditionExpression.
func CheckMixing(nonExpression, expression []string) error {
	if len(nonExpression) == 0 || len(expression) == 0 {
		return nil
	}
	return newErr("Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {" +
		strings.Join(nonExpression, ", ") + "} Expression parameters: {" + strings.Join(expression, ", ") + "}")
}
