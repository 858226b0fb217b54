package engine

import (
	"github.com/dynago/dynago/dynamo"
	"sort"
	"strings"
)

// ListTables lists table names in order, at most Limit (1-100, default 100)
// after ExclusiveStartTableName.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListTables.html
func (db *DB) ListTables(in *dynamo.ListTablesInput) (*dynamo.ListTablesOutput, error) {
	return run(db, opListTables, func() (*dynamo.ListTablesOutput, error) { return db.listTables(in) })
}

func (db *DB) listTables(in *dynamo.ListTablesInput) (*dynamo.ListTablesOutput, error) {
	// On a shared store, list the tables as the store has them now.
	if err := db.reloadCatalog(); err != nil {
		return nil, err
	}
	var c constraints
	if in.ExclusiveStartTableNameSet || in.ExclusiveStartTableName != "" {
		c.namePatternFirst("exclusiveStartTableName", in.ExclusiveStartTableName)
	}
	limit := 100
	if in.Limit != nil {
		limit = int(*in.Limit)
		if limit < 1 {
			c.add("Value '%d' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1", limit)
		} else if limit > 100 {
			c.add("Value '%d' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100", limit)
		}
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	tables := *db.tables.Load()
	names := make([]string, 0, len(tables))
	swept := false
	for n, t := range tables {
		if db.gone(t) {
			// Deleted after DELETING: drop its entry now, so finished
			// deletions do not hold memory until a restart.
			if !swept {
				swept = true
				db.ddl.Lock()
				err := db.purgeDeleted()
				db.ddl.Unlock()
				if err != nil {
					return nil, err
				}
			}
			continue
		}
		if in.ExclusiveStartTableName == "" || strings.Compare(n, in.ExclusiveStartTableName) > 0 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	out := &dynamo.ListTablesOutput{TableNames: names}
	if len(names) > limit {
		out.TableNames = names[:limit]
		out.LastEvaluatedTableName = names[limit-1]
	}
	return out, nil
}
