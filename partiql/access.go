package partiql

import "github.com/dynago/dynago/engine"

// Access is how IAM authorizes a statement: its action (PartiQLSelect,
// PartiQLInsert, PartiQLUpdate, PartiQLDelete, the DynamoDB developer
// guide's "IAM policies with PartiQL for DynamoDB") on the table, or the
// index a SELECT reads. ok is false for a statement that does not parse,
// which its operation then refuses, and for an EXISTS, which no PartiQL
// action names. The parse goes through db's statement cache, so the
// operation that runs the statement next finds it there.
func Access(db *engine.DB, statement string) (action, table, index string, ok bool) {
	st, err := cacheOf(db).Parse(statement)
	if err != nil {
		return "", "", "", false
	}
	switch st.Kind {
	case Select:
		return "PartiQLSelect", st.Table, st.Index, true
	case Insert:
		return "PartiQLInsert", st.Table, "", true
	case Update:
		return "PartiQLUpdate", st.Table, "", true
	case Delete:
		return "PartiQLDelete", st.Table, "", true
	}
	return "", "", "", false
}
