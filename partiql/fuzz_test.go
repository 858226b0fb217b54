package partiql

import (
	"testing"
	"time"
)

// FuzzParse checks that every input is answered, without a panic and in
// bounded time. Its seed corpus is testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`SELECT * FROM "t" WHERE pk = 'a' AND sk BETWEEN 1 AND 2 ORDER BY sk DESC`,
		`SELECT a.b[1], "c" FROM t."i" WHERE x IN [1, 2] OR NOT y IS NOT MISSING`,
		`INSERT INTO "t" VALUE {'pk': ?, 'l': [1, -.5e3, TRUE, NULL], 'm': {'k': <<'a'>>}}`,
		`UPDATE "t" SET a = a + 1 SET b = list_append(b, ?) REMOVE c[2] WHERE pk = 'x' RETURNING ALL NEW *`,
		`DELETE FROM "t" WHERE pk = 'x' RETURNING ALL OLD *;`,
		`EXISTS(SELECT * FROM "t" WHERE pk = 'x' AND size(a) > 1)`,
		`FROM "t" WHERE pk = 1 SET c = 1 -- note`,
		`SELECT * FROM "t" WHERE pk = 1e99999999999 /* x */`,
		`'unterminated`, `"unterminated`, `/*`, `<<>>`, `{`, `[`, `((((`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		start := time.Now()
		st, err := Parse(s)
		if err == nil && st == nil {
			t.Fatal("no statement and no error")
		}
		// Generous, for a busy machine: what this catches is a parse
		// that grows much faster than its input.
		if d := time.Since(start); d > 10*time.Second && len(s) < 1<<16 {
			t.Fatalf("parse took %v", d)
		}
	})
}
