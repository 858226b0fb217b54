package engine

import (
	"fmt"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

// What the engine offers the statement language above it. PartiQL
// (package partiql) parses, plans and runs ExecuteStatement,
// BatchExecuteStatement and ExecuteTransaction on the item operations;
// beside those it needs only what this file gives: the key schema of a
// table and its indexes (TableSchema, SchemaOf), the checks of the
// requests' members and parameters (CheckExecuteStatement,
// CheckBatchExecuteStatement, CheckExecuteTransaction, CheckParameters,
// ParameterValueError), the few ways a statement's operation differs
// from the request it stands for (the Statement* operations), and a
// place for its parse cache beside the DB's expression cache
// (ParseCaches.Statements). The engine imports no statement language.
//
// A statement's conditions, projections and updates reach the item
// operations as trees (expr.Trees, built by expr.ConditionTree,
// UpdateTree and ProjectionTree) beside the texts they stand for: the
// Statement* operations use the trees where the others parse the texts,
// which then only size the expressions and mark them present. The
// trees' problems are worded bare, as a statement answers them; PutItem,
// UpdateItem and DeleteItem put them in their envelope after the
// expression's prefix (attr.Error.Prefix, writeEnvelope).

// Schema is what planning a statement needs of a table: its key schema
// and its secondary indexes. The engine makes one per version of a
// table's schema, so a planner may keep a plan for as long as TableSchema
// returns the same *Schema.
type Schema struct {
	Table       string
	Hash, Range string // Range is "" without a sort key
	// HashType and RangeType are the key attributes' types.
	HashType, RangeType attr.Type
	Indexes             []IndexSchema
	// Vectors names the table's vector indexes, which no statement
	// reads.
	Vectors []string
}

// IndexSchema is a secondary index of a Schema. Hash and Range hold more
// than one name for a GSI with a multi-attribute key.
type IndexSchema struct {
	Name        string
	Global      bool
	Hash, Range []string
	// Projection is ALL, KEYS_ONLY or INCLUDE; NonKey lists INCLUDE's
	// attributes.
	Projection string
	NonKey     []string
}

// Index returns the named index, or nil.
func (s *Schema) Index(name string) *IndexSchema {
	for i := range s.Indexes {
		if s.Indexes[i].Name == name {
			return &s.Indexes[i]
		}
	}
	return nil
}

// Multi reports an index whose key has several HASH or several RANGE
// attributes.
func (ix *IndexSchema) Multi() bool { return len(ix.Hash) > 1 || len(ix.Range) > 1 }

// schemaOf describes t, once, when the catalog makes it (newTable).
func schemaOf(t *table) *Schema {
	s := &Schema{Table: t.meta.Name, Hash: t.hashName, Range: t.rangeName, HashType: t.hashType, RangeType: t.rangeType}
	for _, ix := range t.indexes {
		is := IndexSchema{Name: ix.meta.Name, Global: ix.meta.Global, Projection: ix.projType, NonKey: ix.include}
		for _, a := range ix.hash {
			is.Hash = append(is.Hash, a.name)
		}
		for _, a := range ix.rng {
			is.Range = append(is.Range, a.name)
		}
		s.Indexes = append(s.Indexes, is)
	}
	for _, ix := range t.vectors {
		s.Vectors = append(s.Vectors, ix.meta.Name)
	}
	return s
}

// MsgVectorIndexScan is what a read of a vector index as a table
// answers: Scan's, and a PartiQL SELECT's (the facts of issue 30,
// captured from DynamoDB by dynoxide, 2026-08-11).
const MsgVectorIndexScan = msgVectorScan

// TableSchema returns the schema of the named table, or the error an item
// operation on it would answer (a table that is not there, or not
// ACTIVE).
func (db *DB) TableSchema(name string) (*Schema, error) {
	t, err := db.tableOrNotFound(name)
	if err != nil {
		return nil, err
	}
	return t.schema, nil
}

// SchemaOf is the schema of a table's description, from this engine or
// any endpoint's DescribeTable, as TableSchema would give it.
func SchemaOf(d *dynamo.TableDescription) *Schema {
	m := tableMeta{Name: d.TableName, AttributeDefinitions: catAttrs(d.AttributeDefinitions), KeySchema: catKeys(d.KeySchema)}
	for _, g := range d.GlobalSecondaryIndexes {
		m.Indexes = append(m.Indexes, indexMeta{Name: g.IndexName, Global: true, KeySchema: catKeys(g.KeySchema), Projection: catProjectionOf(g.Projection)})
	}
	for _, l := range d.LocalSecondaryIndexes {
		m.Indexes = append(m.Indexes, indexMeta{Name: l.IndexName, KeySchema: catKeys(l.KeySchema), Projection: catProjectionOf(l.Projection)})
	}
	for _, v := range d.VectorIndexes {
		m.Indexes = append(m.Indexes, indexMeta{Name: v.IndexName, Projection: catProjectionOf(v.Projection),
			Vector: &catVector{Dimensions: v.Dimensions, Distance: v.DistanceFunction}})
	}
	return newTable(m).schema
}

// TableNotFound is the ResourceNotFoundException of an item operation on
// a table that is not there, which does not name the table (as
// DescribeTable's does).
func TableNotFound() *dynamo.Error { return dynamo.NotFound(msgResourceNotFound) }

// statementExprs is what a statement hands an operation beside its
// request: the expressions it built as trees, one set for a single-item
// operation or one per action of a transaction, in action order. A
// request that came as a statement is not charged its update expression
// against the item size limit (updateCharge), only the finished item is.
// It never travels in the request: the API's shapes stay what the wire
// carries.
type statementExprs struct {
	trees []*expr.Trees
}

// exprs is the trees of action i, or nil when the request did not come
// as a statement.
func (st *statementExprs) exprs(i int) *expr.Trees {
	if st == nil || i >= len(st.trees) {
		return nil
	}
	return st.trees[i]
}

// StatementGetItem is GetItem with the projection built as a tree
// (x.Projection).
func (db *DB) StatementGetItem(in *dynamo.GetItemInput, x *expr.Trees) (*dynamo.GetItemOutput, error) {
	return run(db, opGetItem, func() (*dynamo.GetItemOutput, error) { return db.getItem(in, x) })
}

// StatementScan is Scan with the filter and projection built as trees.
func (db *DB) StatementScan(in *dynamo.ScanInput, x *expr.Trees) (*dynamo.ScanOutput, error) {
	return run(db, opScan, func() (*dynamo.ScanOutput, error) { return db.scan(in, x) })
}

// StatementQuery is Query as a statement's SELECT runs it, with the key
// condition, filter and projection built as trees: its filter may name
// key attributes (sk > 1 AND sk < 5 beside the key condition), which a
// Query request may not, and its errors are the operation's own, not
// reworded for the current validation layer as Query's are.
func (db *DB) StatementQuery(in *dynamo.QueryInput, x *expr.Trees) (*dynamo.QueryOutput, error) {
	return db.query(in, true, x)
}

// StatementPutItem is PutItem with the condition built as a tree.
func (db *DB) StatementPutItem(in *dynamo.PutItemInput, x *expr.Trees) (*dynamo.PutItemOutput, error) {
	return run(db, opPutItem, func() (*dynamo.PutItemOutput, error) { return db.putItem(in, x) })
}

// StatementDeleteItem is DeleteItem with the condition built as a tree.
func (db *DB) StatementDeleteItem(in *dynamo.DeleteItemInput, x *expr.Trees) (*dynamo.DeleteItemOutput, error) {
	return run(db, opDeleteItem, func() (*dynamo.DeleteItemOutput, error) { return db.deleteItem(in, x) })
}

// StatementUpdateItem is UpdateItem as a statement's UPDATE runs it, with
// the update and condition built as trees: the request is not charged
// its update expression against the item size limit (updateCharge), only
// the finished item is.
func (db *DB) StatementUpdateItem(in *dynamo.UpdateItemInput, x *expr.Trees) (*dynamo.UpdateItemOutput, error) {
	st := &statementExprs{trees: []*expr.Trees{x}}
	return run(db, opUpdateItem, func() (*dynamo.UpdateItemOutput, error) { return db.updateItem(in, st) })
}

// StatementTransactWriteItems is TransactWriteItems as ExecuteTransaction
// runs its writes, with each action's expressions built as trees
// (trees[i] for in.TransactItems[i]): an Update is not charged its update
// expression (updateCharge), as StatementUpdateItem.
func (db *DB) StatementTransactWriteItems(in *dynamo.TransactWriteItemsInput, trees []*expr.Trees) (*dynamo.TransactWriteItemsOutput, error) {
	st := &statementExprs{trees: trees}
	return run(db, opTransactWriteItems, func() (*dynamo.TransactWriteItemsOutput, error) { return db.transactWriteItems(in, st) })
}

// StatementTransactGetItems is TransactGetItems as ExecuteTransaction
// runs its reads, with each read's projection built as a tree (trees[i]
// for in.TransactItems[i]).
func (db *DB) StatementTransactGetItems(in *dynamo.TransactGetItemsInput, trees []*expr.Trees) (*dynamo.TransactGetItemsOutput, error) {
	st := &statementExprs{trees: trees}
	return run(db, opTransactGetItems, func() (*dynamo.TransactGetItemsOutput, error) { return db.transactGetItems(in, st) })
}

// PartiQL request limits.
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExecuteStatement.html
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchExecuteStatement.html
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExecuteTransaction.html
const (
	// MaxStatementLength is the longest Statement, in bytes.
	MaxStatementLength = 8192
	maxNextTokenLength = 32768
	maxBatchStatements = 25
	maxTxStatements    = 100
)

// statement checks a Statement member.
func (c *constraints) statement(field, s string, absent bool) {
	if absent {
		c.notNull(field)
		return
	}
	c.length(field, s, 1, MaxStatementLength)
}

// CheckExecuteStatement checks the members of an ExecuteStatement
// request, then, when the protocol decoder found a malformed value among
// its parameters, reports the parameters' first problem
// (ParameterValueError).
func CheckExecuteStatement(in *dynamo.ExecuteStatementInput) error {
	var c constraints
	c.statement("statement", in.Statement, in.NoStatement)
	c.limit(in.Limit)
	if in.NextTokenSet {
		c.length("nextToken", in.NextToken, 1, maxNextTokenLength)
	}
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	c.enum("returnValuesOnConditionCheckFailure", in.ReturnValuesOnConditionCheckFailure, dynamo.ReturnValuesAllOld, dynamo.ReturnValuesNone)
	if err := c.err(); err != nil {
		return err
	}
	return ParameterValueError(in.ValueError, in.Parameters)
}

// CheckBatchExecuteStatement checks the members of a
// BatchExecuteStatement request. A malformed parameter value is its
// statement's error, met where its parameters are bound
// (ParameterValueError).
func CheckBatchExecuteStatement(in *dynamo.BatchExecuteStatementInput) error {
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
		c.enum(at+"returnValuesOnConditionCheckFailure", s.ReturnValuesOnConditionCheckFailure, dynamo.ReturnValuesAllOld, dynamo.ReturnValuesNone)
	}
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	return c.err()
}

// CheckExecuteTransaction checks the members of an ExecuteTransaction
// request, then, when the protocol decoder found a malformed value among
// the parameters, reports the first problem of the first statement's
// parameters that has one (ParameterValueError), or the decoder's.
func CheckExecuteTransaction(in *dynamo.ExecuteTransactionInput) error {
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
		c.enum(at+"returnValuesOnConditionCheckFailure", s.ReturnValuesOnConditionCheckFailure, dynamo.ReturnValuesAllOld, dynamo.ReturnValuesNone)
	}
	c.clientRequestToken(in.ClientRequestToken, in.ClientRequestTokenSet)
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	if err := c.err(); err != nil {
		return err
	}
	if in.ValueError != nil {
		for _, s := range in.TransactStatements {
			if err := ParameterValueError(in.ValueError, s.Parameters); err != in.ValueError {
				return err
			}
		}
		return in.ValueError
	}
	return nil
}
