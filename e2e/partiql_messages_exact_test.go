package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The rest of the exact answers paritysuite/dynamodb-conformance recorded
// against AWS (eu-west-2, October 2026) for the statements its
// tests/tier3/error-messages/partiql*.test.ts send; partiql_exact_test.go
// holds the first of them. Each case names its file and its test.

// at is the "1:<column>:<length>" DynamoDB appends to some PartiQL
// messages: the place of the first token at or after byte from, counted
// from 1.
func at(stmt, token string, length, from int) string {
	i := strings.Index(stmt[from:], token)
	if i < 0 {
		panic(token + " not in " + stmt)
	}
	return "1:" + strconv.Itoa(from+i+1) + ":" + strconv.Itoa(length)
}

func TestPartiQLExactGrammarMessages(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "hsh", types.ScalarAttributeTypeS)
	createHash(t, c, "hshn", types.ScalarAttributeTypeN)
	const leftover = wellFormed + "Unexpected token after expression"
	const keyEquality = "Where clause does not contain a mandatory equality on all key attributes"
	// partiqlGrammar.test.ts, by test name.
	for _, tc := range []struct{ name, stmt, msg string }{
		{"a token after a SELECT WHERE clause", `SELECT * FROM "hshn" WHERE pk = 1 foo`, leftover},
		{"a token after an INSERT item literal", `INSERT INTO "hshn" VALUE {'pk': 970001} foo`, leftover},
		{"a token after an UPDATE WHERE clause", `UPDATE "hshn" SET a = 9 WHERE pk = 970002 foo`, leftover},
		{"a token after a DELETE WHERE clause", `DELETE FROM "hshn" WHERE pk = 970003 foo`, leftover},
		{"a stray closing parenthesis", `SELECT * FROM "hshn" WHERE pk = 1)`, leftover},
		{"ORDER BY on a DELETE", `DELETE FROM "hshn" WHERE pk = 970004 ORDER BY pk`, leftover},
		{"ORDER BY ahead of WHERE", `SELECT * FROM "hshn" ORDER BY pk WHERE pk = 1`, leftover},
		{"an exponent that does not fit a 32-bit integer", `SELECT * FROM "hshn" WHERE pk = 1e2147483648`, wellFormed},
		{"an exponent that fits but leaves a scale that does not", `SELECT * FROM "hshn" WHERE pk = 1.5e-2147483647`, wellFormed},
		{"a hash comment", `SELECT * FROM "hshn" WHERE pk = 1 # note`, wellFormed},
		{"an unterminated block comment", `SELECT * FROM "hshn" WHERE pk = 1 /* note`, wellFormed},
		{"an AS alias on a SELECT", `SELECT * FROM "hsh" AS t WHERE pk = 'x'`, "Aliasing is not supported"},
		{"an alias on an UPDATE", `UPDATE "hsh" t SET a = 3 WHERE pk = 'x'`, "Aliasing is not supported"},
		{"an alias on an INSERT is a leftover token", `INSERT INTO "hsh" t VALUE {'pk': 'x'}`, leftover},
		{"an INSERT literal above the largest number", `INSERT INTO "hshn" VALUE {'pk': 1e126}`, "Number overflow. Attempting to store a number with magnitude larger than supported range under root"},
		{"an UPDATE SET literal below the smallest number", `UPDATE "hshn" SET a = 1e-131 WHERE pk = 970005`, "Number underflow. Attempting to store a number with magnitude smaller than supported range under root"},
		{"WHERE then a semicolon", `SELECT * FROM "hsh" WHERE;`, wellFormed + "Unexpected term"},
		{"WHERE then spaces", `SELECT * FROM "hsh" WHERE   `, wellFormed + "Unexpected term"},
		{"WHERE after a projection", `SELECT pk FROM "hsh" WHERE`, wellFormed + "Unexpected term"},
		{"WHERE at the end of an UPDATE", `UPDATE "hsh" SET a = 1 WHERE`, wellFormed + "Unexpected term"},
		{"WHERE at the end of a DELETE", `DELETE FROM "hsh" WHERE`, wellFormed + "Unexpected term"},
		{"WHERE NOT with nothing after it", `SELECT * FROM "hsh" WHERE NOT`, wellFormed + "Unexpected term"},
		{"WHERE ( with nothing after it", `SELECT * FROM "hsh" WHERE (`, wellFormed + "Unexpected term"},
		{"a condition ending in OR", `SELECT * FROM "hsh" WHERE pk = 'p1' OR`, wellFormed + "Missing right-hand side expression of infix operator"},
		{"IS INT4 parses as a type test", `x IS INT4`, "Unsupported operation: IsType"},
		{"IS INT8 parses as a type test", `x IS INT8`, "Unsupported operation: IsType"},
		{"IS DOUBLE PRECISION parses as a type test", `x IS DOUBLE PRECISION`, "Unsupported operation: IsType"},
		{"IS CHARACTER VARYING parses as a type test", `x IS CHARACTER VARYING`, "Unsupported operation: IsType"},
		{"LIKE where a comparison operand should start", `SELECT * FROM "hsh" WHERE pk = LIKE`, wellFormed + "Unexpected operator"},
		{"DELETE FROM with no table", `DELETE FROM`, wellFormed + "Expected identifier for simple path"},
		{"DELETE FROM then spaces with no table", `DELETE FROM   `, wellFormed + "Expected identifier for simple path"},
		{"DELETE FROM then a semicolon with no table", `DELETE FROM;`, wellFormed + "Expected identifier for simple path"},
		{"FROM ... REMOVE with no WHERE", `FROM "hsh" REMOVE a`, keyEquality},
		{"FROM ... SET ... WHERE ... SET", `FROM "hsh" SET c = 1 WHERE pk = 'pq-ff-msg' SET d = 2`, leftover},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ql(c, tc.stmt)
			wantValidation(t, err, tc.msg)
		})
	}
	// "a DELETE with a table alias is refused and deletes nothing" and its
	// kin in tests/tier2/partiql/grammar.test.ts: nothing is written.
	put(t, c, "hsh", item{"pk": S("x")})
	for _, stmt := range []string{
		`DELETE FROM "hsh" t WHERE pk = 'x'`,
		`DELETE FROM "hsh" WHERE pk = 'x' ORDER BY pk`,
		`INSERT INTO "hshn" VALUE {'pk': 7330000} foo`,
	} {
		if _, err := ql(c, stmt); err == nil {
			t.Errorf("%s: accepted", stmt)
		}
	}
	if get(t, c, "hsh", item{"pk": S("x")}) == nil || get(t, c, "hshn", item{"pk": N("7330000")}) != nil {
		t.Error("a refused statement wrote")
	}
}

func TestPartiQLExactFunctionMessages(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "hsh", types.ScalarAttributeTypeS)
	put(t, c, "hsh", item{"pk": S("pq-fn-msg"), "ss": SS("a", "b", "c"), "ns": NS("1", "2", "3"), "s": S("str"),
		"m": M(item{"inner": SS("x")})})
	update := func(set string) string { return `UPDATE "hsh" SET ` + set + ` WHERE pk = 'pq-fn-msg'` }
	// partiqlFunctions.test.ts, by test name.
	cases := []struct {
		name, stmt string
		params     []types.AttributeValue
		msg        func(stmt string) string
	}{
		{name: "attribute_exists with a parameter", stmt: `SELECT * FROM "hsh" WHERE pk = 'pq-fn-msg' AND attribute_exists(?)`,
			params: []types.AttributeValue{S("ss")},
			msg: func(string) string {
				return "Operator or function requires a document path; operator or function: attribute_exists"
			}},
		{name: "set_add whose first argument is not a path", stmt: update(`ss = set_add(<<'a'>>, <<'b'>>)`),
			msg: func(s string) string {
				return "The first argument to SET_ADD must equal the assignment value at " + at(s, "set_add", 7, 0)
			}},
		{name: "set_add with a list to add", stmt: update(`ss = set_add(ss, ['x'])`),
			msg: func(s string) string {
				return "The second argument to SET_ADD must be a value with type SET at " + at(s, "ss", 2, strings.Index(s, "set_add("))
			}},
		{name: "set_add with three arguments", stmt: update(`ss = set_add(ss, <<'x'>>, <<'y'>>)`),
			msg: func(s string) string { return "SET_ADD must have exactly two arguments at " + at(s, "set_add", 7, 0) }},
		{name: "set_add on a path through an attribute named inner", stmt: update(`m.inner = set_add(m.inner, <<'y'>>)`),
			msg: func(string) string { return wellFormed + "Invalid path dot component" }},
		{name: "set_delete with a string to remove", stmt: update(`ss = set_delete(ss, 'a')`),
			msg: func(s string) string {
				return "The second argument to SET_DELETE must be a value with type SET at " + at(s, "ss", 2, strings.Index(s, "set_delete("))
			}},
		{name: "set_delete of a number from a string set", stmt: update(`ss = set_delete(ss, <<1>>)`),
			msg: func(string) string { return "An operand in the update expression has an incorrect data type" }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ql(c, tc.stmt, tc.params...)
			wantValidation(t, err, tc.msg(tc.stmt))
		})
	}
}

func TestPartiQLExactMultiAttributeIndexMessages(t *testing.T) {
	_, c := start(t)
	const refused = "PartiQL statements cannot be executed on tables with multi-attribute HASH keys or multi-attribute RANGE keys."
	// The tables of partiqlMultiAttributeIndex.test.ts: a GSI of two HASH
	// attributes and one RANGE, and one of one each.
	for name, hash := range map[string][]string{"pqMultiHhR": {"h1", "h2"}, "pqMultiCtrl": {"h1"}} {
		d := []string{"id", "S", "r1", "S"}
		for _, h := range hash {
			d = append(d, h, "S")
		}
		_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
			TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs(d...), KeySchema: ks("id"),
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"), KeySchema: mkSchema(hash, "r1"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		put(t, c, name, item{"id": S("i1"), "h1": S("a"), "h2": S("x"), "r1": S("m")})
	}
	for _, tc := range []struct{ name, stmt, msg string }{
		{"a SELECT on a GSI with two HASH attributes and one RANGE", `SELECT * FROM "pqMultiHhR"."gsi" WHERE h1 = 'a'`, refused},
		{"a number literal that cannot be converted is reported ahead of the refusal", `SELECT * FROM "pqMultiHhR"."gsi" WHERE h1 = 1e99999999999`, wellFormed},
		{"the refusal is reported ahead of a key type mismatch", `SELECT * FROM "pqMultiHhR"."gsi" WHERE h1 = 5`, refused},
		{"the refusal is reported ahead of a non-key WHERE", `SELECT * FROM "pqMultiHhR"."gsi" WHERE id = 'i1'`, refused},
		{"the refusal is reported ahead of a missing WHERE", `SELECT * FROM "pqMultiHhR"."gsi"`, refused},
		{"the refusal is reported ahead of COUNT(*)", `SELECT COUNT(*) FROM "pqMultiHhR"."gsi"`, refused},
		// COUNT(*) elsewhere: no recording of the text; dynago answers as
		// for another projection item that is not a path.
		{"COUNT(*) on a table", `SELECT COUNT(*) FROM "pqMultiHhR" WHERE id = 'i1'`, "Unexpected path component at 1:8:5"},
		{"COUNT(*) on a GSI of one HASH and one RANGE attribute", `SELECT COUNT(*) FROM "pqMultiCtrl"."gsi" WHERE h1 = 'a'`, "Unexpected path component at 1:8:5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ql(c, tc.stmt)
			wantValidation(t, err, tc.msg)
		})
	}
	// "in a BatchExecuteStatement only the statement reading the index
	// fails, ahead of the key-only rule".
	out, err := c.BatchExecuteStatement(bg(), &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(`SELECT * FROM "pqMultiCtrl"."gsi" WHERE h1 = 'a' AND r1 = 'm'`)},
		{Statement: aws.String(`SELECT * FROM "pqMultiHhR"."gsi" WHERE h1 = 'a' AND h2 = 'x' AND r1 = 'm'`)},
		{Statement: aws.String(`SELECT * FROM "pqMultiHhR" WHERE id = 'i1'`)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	r := out.Responses
	if len(r) != 3 {
		t.Fatalf("responses: %+v", r)
	}
	if e := r[0].Error; e == nil || e.Code != types.BatchStatementErrorCodeEnumValidationError ||
		aws.ToString(e.Message) != "Select statements within BatchExecuteStatement must specify the primary key in the where clause." {
		t.Errorf("control: %+v", e)
	}
	if e := r[1].Error; e == nil || e.Code != types.BatchStatementErrorCodeEnumValidationError || aws.ToString(e.Message) != refused {
		t.Errorf("multi-attribute index: %+v", e)
	}
	if r[2].Error != nil || render(r[2].Item["id"]) != render(S("i1")) {
		t.Errorf("base table: %+v", r[2])
	}
	// COUNT(*) by key in a batch: refused, not read as SELECT * (no
	// recording of the text).
	out, err = c.BatchExecuteStatement(bg(), &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(`SELECT COUNT(*) FROM "pqMultiHhR" WHERE id = 'i1'`)}}})
	if err != nil {
		t.Fatal(err)
	}
	if e := out.Responses[0].Error; e == nil || aws.ToString(e.Message) != "Unexpected path component at 1:8:5" || out.Responses[0].Item != nil {
		t.Errorf("COUNT(*) in a batch: %+v", out.Responses[0])
	}
}

// deepMap is depth map levels, each {"n": ...}, around leaf.
func deepMap(depth int, leaf types.AttributeValue) types.AttributeValue {
	v := leaf
	for range depth {
		v = M(item{"n": v})
	}
	return v
}

func TestPartiQLExactParameterNumberMessages(t *testing.T) {
	_, c := start(t)
	createRange(t, c, "cmp", types.ScalarAttributeTypeS)
	const unconvertible = "The parameter cannot be converted to a numeric value"
	const underflow = "Number underflow. Attempting to store a number with magnitude smaller than supported range"
	const nest = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
	// partiqlParameterNumbers.test.ts: "the parameter %s in %s cannot be
	// converted" and "the parameter 1e2147483647 in %s underflows".
	positions := []string{
		`SELECT * FROM "cmp" WHERE pk = 'pq-pn' AND n = ?`,
		`INSERT INTO "cmp" VALUE {'pk': 'pq-pn-insert', 'sk': 's', 'n': ?}`,
		`UPDATE "cmp" SET n = ? WHERE pk = 'pq-pn' AND sk = 's'`,
		`SELECT * FROM "cmp" WHERE pk = ?`,
	}
	for _, stmt := range positions {
		for _, v := range []string{"-1e99999999999", "1e-99999999999", "1e2147483648", "1e-2147483648"} {
			_, err := ql(c, stmt, N(v))
			t.Run(v+" in "+stmt, func(t *testing.T) { wantValidation(t, err, unconvertible+": "+v) })
		}
		_, err := ql(c, stmt, N("1e2147483647"))
		t.Run("1e2147483647 in "+stmt, func(t *testing.T) { wantValidation(t, err, underflow) })
	}
	for name, p := range map[string]types.AttributeValue{
		"an unconvertible number inside a map parameter":    M(item{"x": N("1e99999999999")}),
		"an unconvertible member of a number set parameter": NS("1", "1e99999999999"),
	} {
		_, err := ql(c, positions[0], p)
		t.Run(name, func(t *testing.T) { wantValidation(t, err, unconvertible+": 1e99999999999") })
	}
	out, err := c.BatchExecuteStatement(bg(), &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{{
		Statement:  aws.String(`SELECT * FROM "cmp" WHERE pk = 'pq-pn' AND sk = 's' AND n = ?`),
		Parameters: []types.AttributeValue{N("1e99999999999")}}}})
	if err != nil {
		t.Fatal(err)
	}
	if e := out.Responses[0].Error; e == nil || e.Code != types.BatchStatementErrorCodeEnumValidationError || aws.ToString(e.Message) != unconvertible+": 1e99999999999" {
		t.Errorf("an unconvertible number in BatchExecuteStatement: %+v", e)
	}

	// "Too deep and unconvertible: the first problem in document order".
	pair := `SELECT * FROM "cmp" WHERE pk = 'pq-pn' AND x = ? AND y = ?`
	single := `SELECT * FROM "cmp" WHERE pk = 'pq-pn' AND x = ?`
	for _, depth := range []int{40, 100} {
		deep := deepMap(depth, S("leaf"))
		for _, tc := range []struct {
			name, stmt string
			params     []types.AttributeValue
			msg        string
		}{
			{"a deep parameter before an unconvertible one", pair, []types.AttributeValue{deep, N("abc")}, nest},
			{"an unconvertible parameter before a deep one", pair, []types.AttributeValue{N("abc"), deep}, unconvertible + ": abc"},
			{"an unconvertible number at the bottom of a deep value", single, []types.AttributeValue{deepMap(depth, N("abc"))}, nest},
			{"a deep parameter before one past the largest number", pair, []types.AttributeValue{deep, N("1e126")}, nest},
		} {
			_, err := ql(c, tc.stmt, tc.params...)
			t.Run(tc.name+" "+strconv.Itoa(depth), func(t *testing.T) { wantValidation(t, err, tc.msg) })
		}
		_, err := c.ExecuteTransaction(bg(), &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{{
			Statement:  aws.String(`UPDATE "cmp" SET x = ? SET y = ? WHERE pk = 'pq-pn' AND sk = '1'`),
			Parameters: []types.AttributeValue{deep, N("abc")}}}})
		t.Run("in ExecuteTransaction "+strconv.Itoa(depth), func(t *testing.T) { wantValidation(t, err, nest) })
		out, err := c.BatchExecuteStatement(bg(), &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{{
			Statement: aws.String(pair), Parameters: []types.AttributeValue{deep, N("abc")}}}})
		if err != nil {
			t.Fatal(err)
		}
		if e := out.Responses[0].Error; e == nil || e.Code != types.BatchStatementErrorCodeEnumValidationError || aws.ToString(e.Message) != nest {
			t.Errorf("in BatchExecuteStatement %d: %+v", depth, e)
		}
	}
}

// partiqlParameterNumbers.test.ts, "an unconvertible member of a map
// before a deep one": sent as JSON, since a Go map has no order.
func TestPartiQLExactParameterMapOrder(t *testing.T) {
	s, c := start(t)
	createRange(t, c, "cmp", types.ScalarAttributeTypeS)
	const (
		val    = nsValidation + "ValidationException"
		bad    = "The parameter cannot be converted to a numeric value: abc"
		single = `"Statement":"SELECT * FROM \"cmp\" WHERE pk = 'pq-pn' AND x = ?"`
	)
	for _, depth := range []int{40, 100} {
		d := nestedValue(depth)
		t.Run("an unconvertible member of a map before a deep one "+strconv.Itoa(depth), func(t *testing.T) {
			checkRaw(t, s.Raw(t, "ExecuteStatement", `{`+single+`,"Parameters":[{"M":{"bad":{"N":"abc"},"d":`+d+`}}]}`), 400, val, bad)
		})
	}
}
