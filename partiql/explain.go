package partiql

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// ExplainInput is a statement to explain.
type ExplainInput struct {
	Statement string
	// Parameters, when given (as many as the statement's ?), are bound
	// into the request shown; otherwise each ? stays a placeholder.
	Parameters     []attr.Value
	ConsistentRead bool
}

// Explanation says how a statement runs, without running it.
type Explanation struct {
	Statement string
	Kind      string // SELECT, INSERT, UPDATE, DELETE
	// Operation is the DynamoDB operation the statement runs as:
	// GetItem, Query, Scan, PutItem, UpdateItem or DeleteItem.
	Operation string
	// Queries is how many Queries a Query plan runs: one per partition key
	// value of an IN list or OR.
	Queries      int
	Table, Index string
	IndexKind    string // "GSI", "LSI" or "" for the table
	// PartitionKey and SortKey are the key attributes read: the table's
	// or the index's.
	PartitionKey, SortKey string
	// Partitions are the partition key values read, as written.
	Partitions []string
	// KeyCondition is what the key narrows the read to, and Filter what
	// remains, each as PartiQL text ("" for none).
	KeyCondition, Filter string
	Descending           bool
	// Request is the request of each read or write, as execution sends
	// it to the operation (the first partition's, for a Query).
	Request ExplainRequest
	// Cost says what the read or write bills against what it returns.
	Cost string
}

// ExplainRequest is the DynamoDB request a statement runs as.
type ExplainRequest struct {
	Key                    attr.Item
	KeyConditionExpression string
	FilterExpression       string
	ProjectionExpression   string
	ConditionExpression    string
	UpdateExpression       string
	ScanIndexForward       *bool
	// PartitionPlaceholder is the placeholder of the partition key value
	// in a Query's ExpressionAttributeValues, which holds the first of
	// PartitionValues: each Query binds its own, in this order.
	PartitionPlaceholder      string
	PartitionValues           []attr.Value
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues attr.Item
}

// ExplainStatement explains how ExecuteStatement would run a statement,
// without running it: the same planner (PlanSelect) and the same
// rendering of expressions as execution, applied to the table's
// description. describe returns the description of the table the
// statement names, from this engine (DB.DescribeTable) or from any
// endpoint's DescribeTable, AWS's included: `dynago sql --explain` calls
// it, and the web console is to. Errors are those ExecuteStatement would
// answer before reading anything.
func ExplainStatement(in *ExplainInput, describe func(table string) (*dynamo.TableDescription, error)) (*Explanation, error) {
	st, err := Parse(in.Statement)
	if err != nil {
		return nil, qlError(err)
	}
	params := in.Parameters
	bound := len(params) == st.Params
	if len(params) > 0 && !bound {
		_, err := bindParams(params, st.Params) // the errors of execution, in its order
		return nil, err
	}
	if !bound {
		params = make([]attr.Value, st.Params)
		for i := range params {
			params[i] = attr.S("?")
		}
	}
	b, err := bindParams(params, st.Params)
	if err != nil {
		return nil, err
	}
	d, err := describe(st.Table)
	if err != nil {
		// DescribeTable names the table; a statement does not.
		var e *dynamo.Error
		if errors.As(err, &e) && e.Code == dynamo.CodeResourceNotFound {
			return nil, engine.TableNotFound()
		}
		return nil, err
	}
	t := engine.SchemaOf(d)
	e := &Explanation{Statement: in.Statement, Kind: st.Kind.String(), Table: st.Table, Index: st.Index,
		PartitionKey: t.Hash, SortKey: t.Range}
	if st.Kind == Select {
		return e, explainSelect(e, st, t, b, bound, in.ConsistentRead)
	}
	if st.Kind == Exists {
		return nil, dynamo.Validation(msgQLExistsOutsideTx)
	}
	w, err := planWriteOn(st, b, qlSingle, func() (*engine.Schema, error) { return t, nil })
	if err != nil {
		return nil, err
	}
	e.Partitions = []string{showValue(w.key[t.Hash], bound)}
	e.Request = ExplainRequest{Key: w.key, ConditionExpression: w.cond, UpdateExpression: w.update,
		ExpressionAttributeNames: w.names, ExpressionAttributeValues: shownValues(w.values, bound)}
	switch st.Kind {
	case Insert:
		e.Operation = "PutItem"
		e.Request.Key = nil
		e.Partitions = []string{showValue(w.item[t.Hash], bound)}
		e.Cost = "writes one item, 1 write unit per KB; fails with DuplicateItemException if its key exists (condition attribute_not_exists on the partition key)"
	case Update:
		e.Operation = "UpdateItem"
		e.Cost = "writes one item, 1 write unit per KB of the larger of the old and new item; fails with ConditionalCheckFailedException if the item does not exist or the condition is false"
	case Delete:
		e.Operation = "DeleteItem"
		e.Cost = "deletes one item, 1 write unit per KB of it (1 if there is none); a missing item is no error"
	}
	e.KeyCondition = keyText(t, w.key, bound)
	return e, nil
}

// explainSelect fills e for a SELECT.
func explainSelect(e *Explanation, st *Statement, t *engine.Schema, b *binder, bound, consistent bool) error {
	p, err := PlanSelect(st, t, consistent)
	if err != nil {
		return planError(err)
	}
	e.PartitionKey, e.SortKey, e.Descending = p.Hash, p.Range, p.Reverse
	if ix := t.Index(st.Index); ix != nil {
		e.IndexKind = "LSI"
		if ix.Global {
			e.IndexKind = "GSI"
		}
	}
	var hashes []attr.Value
	if len(p.HashValues) > 0 {
		if hashes, err = bindHashes(p, b); err != nil {
			return err
		}
	}
	for _, h := range hashes {
		e.Partitions = append(e.Partitions, showValue(h, bound))
	}
	filters := make([]string, len(p.Filter))
	for i, f := range p.Filter {
		filters[i] = Format(f)
	}
	e.Filter = strings.Join(filters, " AND ")
	where := "the table"
	if st.Index != "" {
		where = "index " + st.Index
	}
	c := &qlCompiled{plan: p}
	switch {
	case p.KeyOnly && len(hashes) == 1:
		e.Operation = "GetItem"
		key := attr.Item{p.Hash: hashes[0]}
		if p.SortKey != nil {
			v, err := b.value(KeyEquality(p.SortKey, p.Range), "root")
			if err != nil {
				return err
			}
			key[p.Range] = v
		}
		x := newExprText(nil)
		proj, _ := x.projection(st)
		e.Request = ExplainRequest{Key: shownValues(key, bound), ProjectionExpression: proj, ExpressionAttributeNames: x.names}
		e.KeyCondition = keyText(t, key, bound)
		e.Cost = "reads one item by its whole primary key: 0.5 read unit per 4 KB of it, rounded up (1 per 4 KB if ConsistentRead); a missing item bills as one of 4 KB"
		return nil
	case p.Op == OpScan:
		e.Operation = "Scan"
		tm := c.template(st, b, false)
		if tm.err != nil {
			return tm.err
		}
		e.Request = ExplainRequest{FilterExpression: tm.filter, ProjectionExpression: tm.proj,
			ExpressionAttributeNames: tm.names, ExpressionAttributeValues: tm.shown(b, attr.Value{}, false, bound)}
		e.Cost = "reads every item in " + where + "; bills for all of them (0.5 read unit per 4 KB read, summed over each 1 MB page), returns only those the filter keeps"
		if e.Filter == "" {
			e.Cost = "reads every item in " + where + " and returns them all; bills 0.5 read unit per 4 KB read, summed over each 1 MB page"
		}
		return nil
	}
	e.Operation = "Query"
	e.Queries = len(hashes)
	tm := c.template(st, b, true)
	if tm.err != nil {
		return tm.err
	}
	e.Request = ExplainRequest{KeyConditionExpression: tm.keyCond, FilterExpression: tm.filter, ProjectionExpression: tm.proj,
		ExpressionAttributeNames: tm.names, ExpressionAttributeValues: tm.shown(b, hashes[0], bound || !hasParam(p.HashValues[0]), bound)}
	if p.Reverse {
		e.Request.ScanIndexForward = ptr(false)
	}
	e.Request.PartitionPlaceholder, e.Request.PartitionValues = tm.vals[0].ph, hashes
	e.KeyCondition = Format(p.HashValues[0])
	e.KeyCondition = quoteName(p.Hash) + " = " + e.KeyCondition
	if len(p.HashValues) > 1 {
		e.KeyCondition = quoteName(p.Hash) + " IN [" + strings.Join(e.Partitions, ", ") + "]"
	}
	if p.SortKey != nil {
		e.KeyCondition += " AND " + Format(p.SortKey)
	}
	parts := "partition " + quoteName(p.Hash) + " = " + e.Partitions[0]
	if len(e.Partitions) > 1 {
		parts = fmt.Sprintf("%d partitions (%s), one Query each", len(e.Partitions), strings.Join(e.Partitions, ", "))
	}
	rng := ""
	if p.SortKey != nil {
		rng = " where " + Format(p.SortKey)
	}
	e.Cost = "reads only " + parts + rng + " of " + where + "; bills 0.5 read unit per 4 KB read (1 if ConsistentRead), summed over the page"
	if e.Filter != "" {
		e.Cost += ", for every item read: the filter drops items after they are billed"
	} else {
		e.Cost += ", and returns every item it reads"
	}
	if p.KeyOnly && len(hashes) > 1 {
		e.Cost += "; each Query names a whole key and reads at most one item: a batch of reads by key, billed as GetItems are"
	}
	return nil
}

// hasParam reports whether a value expression holds a parameter.
func hasParam(e Expr) bool {
	switch y := e.(type) {
	case *Param:
		return true
	case *List:
		for _, el := range y.Elems {
			if hasParam(el) {
				return true
			}
		}
	case *Bag:
		for _, el := range y.Elems {
			if hasParam(el) {
				return true
			}
		}
	case *Map:
		for _, el := range y.Vals {
			if hasParam(el) {
				return true
			}
		}
	}
	return false
}

// shown is a template's values as explain shows them: parameters only
// when they were given.
func (t *qlTemplate) shown(b *binder, hash attr.Value, hashKnown, bound bool) attr.Item {
	if len(t.vals) == 0 {
		return nil
	}
	m := attr.Item{}
	for _, v := range t.vals {
		switch {
		case v.src == srcConst:
			m[v.ph] = v.v
		case v.src == srcHash:
			if hashKnown {
				m[v.ph] = hash
			}
		case bound:
			m[v.ph] = b.params[v.src]
		}
	}
	return m
}

// shownValues drops the placeholder values of parameters not given.
func shownValues(m attr.Item, bound bool) attr.Item {
	if bound || m == nil {
		return m
	}
	out := attr.Item{}
	for k, v := range m {
		if !(v.Type == attr.TypeS && v.S == "?") {
			out[k] = v
		}
	}
	return out
}

// showValue writes an attribute value as PartiQL text.
func showValue(v attr.Value, bound bool) string {
	switch v.Type {
	case attr.TypeS:
		if v.S == "?" && !bound {
			return "?"
		}
		return "'" + strings.ReplaceAll(v.S, "'", "''") + "'"
	case attr.TypeN:
		return v.S
	case attr.TypeBOOL:
		return strings.ToUpper(fmt.Sprint(v.Bool))
	case attr.TypeNULL:
		return "NULL"
	case attr.TypeB:
		return "<binary " + fmt.Sprint(len(v.B)) + " bytes>"
	case attr.TypeSS, attr.TypeNS:
		parts := make([]string, len(v.SS))
		for i, e := range v.SS {
			if v.Type == attr.TypeSS {
				e = showValue(attr.S(e), true)
			}
			parts[i] = e
		}
		return "<<" + strings.Join(parts, ", ") + ">>"
	case attr.TypeBS:
		return "<<" + fmt.Sprint(len(v.BS)) + " binary values>>"
	case attr.TypeL:
		parts := make([]string, len(v.L))
		for i, e := range v.L {
			parts[i] = showValue(e, bound)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case attr.TypeM:
		names := make([]string, 0, len(v.M))
		for k := range v.M {
			names = append(names, k)
		}
		sort.Strings(names)
		parts := make([]string, len(names))
		for i, k := range names {
			parts[i] = showValue(attr.S(k), true) + ": " + showValue(v.M[k], bound)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// keyText writes a key as PartiQL equalities.
func keyText(t *engine.Schema, key attr.Item, bound bool) string {
	names := make([]string, 0, len(key))
	for n := range key {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] == t.Hash || names[j] != t.Hash && names[i] < names[j] })
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = quoteName(n) + " = " + showValue(key[n], bound)
	}
	return strings.Join(parts, " AND ")
}

// quoteName writes an attribute name as PartiQL does.
func quoteName(n string) string {
	return Format(&Path{Elems: []PathElem{{Name: n}}})
}

// String writes the explanation for people.
func (e *Explanation) String() string {
	var sb strings.Builder
	op := e.Operation
	if e.Operation == "Query" && e.Queries > 1 {
		op = fmt.Sprintf("%d Queries (one per partition key value, like a batch of reads)", e.Queries)
	}
	quoted := func(n string) string { return `"` + strings.ReplaceAll(n, `"`, `""`) + `"` }
	fmt.Fprintf(&sb, "%s on table %s", op, quoted(e.Table))
	if e.Index != "" {
		fmt.Fprintf(&sb, " index %s (%s)", quoted(e.Index), e.IndexKind)
	}
	sb.WriteString("\n")
	keys := "partition key " + quoteName(e.PartitionKey)
	if e.SortKey != "" {
		keys += ", sort key " + quoteName(e.SortKey)
	}
	fmt.Fprintf(&sb, "  keys:          %s\n", keys)
	if e.KeyCondition != "" {
		fmt.Fprintf(&sb, "  key condition: %s\n", e.KeyCondition)
	} else if e.Operation == "Scan" {
		sb.WriteString("  key condition: none: no equality on the partition key\n")
	}
	if e.Filter != "" {
		fmt.Fprintf(&sb, "  filter:        %s\n", e.Filter)
	}
	if e.Descending {
		sb.WriteString("  order:         sort key descending (ScanIndexForward false)\n")
	}
	r := e.Request
	fmt.Fprintf(&sb, "  request:       %s", e.Operation)
	field := func(name, v string) {
		if v != "" {
			fmt.Fprintf(&sb, " %s=%q", name, v)
		}
	}
	if r.Key != nil {
		fmt.Fprintf(&sb, " Key=%s", itemText(r.Key))
	}
	field("KeyConditionExpression", r.KeyConditionExpression)
	field("FilterExpression", r.FilterExpression)
	field("ConditionExpression", r.ConditionExpression)
	field("UpdateExpression", r.UpdateExpression)
	field("ProjectionExpression", r.ProjectionExpression)
	if len(r.ExpressionAttributeNames) > 0 {
		names := make([]string, 0, len(r.ExpressionAttributeNames))
		for k, v := range r.ExpressionAttributeNames {
			names = append(names, k+"="+v)
		}
		sort.Strings(names)
		fmt.Fprintf(&sb, " Names={%s}", strings.Join(names, ", "))
	}
	if len(r.ExpressionAttributeValues) > 0 {
		fmt.Fprintf(&sb, " Values=%s", itemText(r.ExpressionAttributeValues))
	}
	sb.WriteString("\n")
	fmt.Fprintf(&sb, "  cost:          %s\n", e.Cost)
	return sb.String()
}

// itemText writes an item as {name: value, ...} in name order.
func itemText(it attr.Item) string {
	names := make([]string, 0, len(it))
	for k := range it {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ": " + showValue(it[n], true)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
