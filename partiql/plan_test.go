package partiql

import (
	"testing"

	"github.com/dynago/dynago/engine"
)

// TestPlanSelect plans statements on a schema alone, as `dynago sql
// --explain` does from a DescribeTable.
func TestPlanSelect(t *testing.T) {
	s := &engine.Schema{Table: "t", Hash: "pk", Range: "sk", Indexes: []engine.IndexSchema{
		{Name: "lsi", Hash: []string{"pk"}, Range: []string{"d"}, Projection: "KEYS_ONLY"},
		{Name: "gsi", Global: true, Hash: []string{"g"}, Range: []string{"d"}, Projection: "INCLUDE", NonKey: []string{"p"}},
		{Name: "multi", Global: true, Hash: []string{"a", "b"}, Projection: "ALL"},
	}}
	for _, c := range []struct {
		stmt       string
		op         Op
		hash, rng  string
		hashes     int
		sortKey    bool
		filters    int
		reverse    bool
		code       PlanErrorCode
		consistent bool
	}{
		{stmt: `SELECT * FROM t WHERE pk = 'a' AND sk = 1`, op: OpGetItem, hash: "pk", rng: "sk", hashes: 1, sortKey: true},
		{stmt: `SELECT * FROM t WHERE 'a' = pk`, op: OpQuery, hash: "pk", rng: "sk", hashes: 1}, // the table has a sort key: a partition
		{stmt: `SELECT * FROM t WHERE pk = 'a' AND sk > 1 AND x = 2`, op: OpQuery, hash: "pk", rng: "sk", hashes: 1, sortKey: true, filters: 1},
		{stmt: `SELECT * FROM t WHERE pk IN ['a', 'b'] AND sk = 1`, op: OpQuery, hash: "pk", rng: "sk", hashes: 2, sortKey: true},
		{stmt: `SELECT * FROM t WHERE pk = 'a' OR pk = 'b'`, op: OpQuery, hash: "pk", rng: "sk", hashes: 2},
		{stmt: `SELECT * FROM t WHERE pk = 'a' ORDER BY sk DESC`, op: OpQuery, hash: "pk", rng: "sk", hashes: 1, reverse: true},
		{stmt: `SELECT * FROM t WHERE sk = 1`, op: OpScan, hash: "pk", rng: "sk", filters: 1},
		{stmt: `SELECT * FROM t`, op: OpScan, hash: "pk", rng: "sk"},
		{stmt: `SELECT * FROM t."lsi" WHERE pk = 'a' AND d < '2'`, op: OpQuery, hash: "pk", rng: "d", hashes: 1, sortKey: true},
		{stmt: `SELECT p FROM t."gsi" WHERE g = 'a' AND begins_with(d, '2')`, op: OpQuery, hash: "g", rng: "d", hashes: 1, sortKey: true},
		{stmt: `SELECT q FROM t."gsi" WHERE g = 'a'`, code: PlanNotProjected},
		{stmt: `SELECT * FROM t."gsi" WHERE g = 'a'`, code: PlanConsistentGSI, consistent: true},
		{stmt: `SELECT * FROM t."multi" WHERE a = 'a'`, code: PlanMultiKeyIndex},
		{stmt: `SELECT * FROM t."nope"`, code: PlanNoIndex},
		{stmt: `SELECT * FROM t WHERE pk = 'a' AND sk > 1 OR pk = 'a' AND x = 1`, code: PlanOverlap},
		{stmt: `SELECT * FROM t ORDER BY pk`, code: PlanOrderByNoWhere},
		{stmt: `SELECT * FROM t WHERE x = 1 ORDER BY sk`, code: PlanOrderByNoHash},
		{stmt: `SELECT * FROM t WHERE pk IN ['a', 'b'] ORDER BY sk`, code: PlanOrderByMultiHash},
	} {
		st, err := Parse(c.stmt)
		if err != nil {
			t.Fatalf("%s: %v", c.stmt, err)
		}
		p, err := PlanSelect(st, s, c.consistent)
		if c.code != 0 {
			if pe, ok := err.(*PlanError); !ok || pe.Code != c.code {
				t.Errorf("%s: %v, want code %d", c.stmt, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.stmt, err)
		}
		if p.Op != c.op || p.Hash != c.hash || p.Range != c.rng || len(p.HashValues) != c.hashes ||
			(p.SortKey != nil) != c.sortKey || len(p.Filter) != c.filters || p.Reverse != c.reverse {
			t.Errorf("%s: %+v", c.stmt, p)
		}
	}
}
