package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// PartiQL through ExecuteStatement, BatchExecuteStatement and
// ExecuteTransaction, each statement checked against the operation it
// stands for. The expected answers follow AWS's developer guide ("PartiQL
// select/insert/update/delete statements for DynamoDB", "Performing
// transactions with PartiQL", "Running batch operations with PartiQL") and
// AWS's answers recorded by paritysuite/dynamodb-conformance
// (tests/tier2/partiql/*.test.ts, eu-west-2, October 2026); the exact
// error texts are in partiql_exact_test.go.

func ql(c local.API, stmt string, params ...types.AttributeValue) (*dynamodb.ExecuteStatementOutput, error) {
	in := &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt)}
	if len(params) > 0 {
		in.Parameters = params
	}
	return c.ExecuteStatement(bg(), in)
}

// plain returns the S or N values of attribute name in items, in order.
func plain(items []item, name string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		switch v := it[name].(type) {
		case *types.AttributeValueMemberS:
			out[i] = v.Value
		case *types.AttributeValueMemberN:
			out[i] = v.Value
		default:
			out[i] = render(v)
		}
	}
	return out
}

func mustQL(t *testing.T, c local.API, stmt string, params ...types.AttributeValue) []item {
	t.Helper()
	out, err := ql(c, stmt, params...)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	return out.Items
}

// seedOrders creates "orders" (pk S, sk N) with three items in each of
// partitions a, b and c.
func seedOrders(t *testing.T, c local.API) {
	t.Helper()
	createRange(t, c, "orders", types.ScalarAttributeTypeN)
	for _, p := range []string{"a", "b", "c"} {
		for i := 1; i <= 3; i++ {
			put(t, c, "orders", item{"pk": S(p), "sk": N(strconv.Itoa(i)), "qty": N(strconv.Itoa(i * 10)),
				"tag": S(p + strconv.Itoa(i)), "m": M(item{"x": L(N("1"), N(strconv.Itoa(i)))})})
		}
	}
}

func TestPartiQLSelect(t *testing.T) {
	_, c := start(t)
	seedOrders(t, c)

	// By the whole key: one item, with a projection of nested paths.
	got := mustQL(t, c, `SELECT tag, m.x[1] FROM "orders" WHERE pk = 'b' AND sk = 2`)
	if len(got) != 1 {
		t.Fatalf("got %d items", len(got))
	}
	itemEqual(t, "by key", got[0], item{"tag": S("b2"), "m": M(item{"x": L(N("2"))})})
	if got := mustQL(t, c, `SELECT * FROM "orders" WHERE pk = 'b' AND sk = 9`); len(got) != 0 {
		t.Fatalf("missing key: %v", got)
	}

	// By partition, with a sort key condition and a filter; in sort key
	// order, and reversed with ORDER BY ... DESC.
	got = mustQL(t, c, `SELECT sk FROM "orders" WHERE pk = ? AND sk >= ? AND qty <> 20`, S("a"), N("1"))
	if k := plain(got, "sk"); strings.Join(k, ",") != "1,3" {
		t.Fatalf("query: %v", k)
	}
	got = mustQL(t, c, `SELECT * FROM "orders" WHERE pk = 'a' ORDER BY sk DESC`)
	if k := plain(got, "sk"); strings.Join(k, ",") != "3,2,1" {
		t.Fatalf("order by desc: %v", k)
	}
	got = mustQL(t, c, `SELECT * FROM "orders" WHERE pk = 'c' AND sk BETWEEN 2 AND 3`)
	if k := plain(got, "sk"); strings.Join(k, ",") != "2,3" {
		t.Fatalf("between: %v", k)
	}
	got = mustQL(t, c, `SELECT * FROM "orders" WHERE pk = 'c' AND sk > 1 AND sk < 3`)
	if k := plain(got, "sk"); strings.Join(k, ",") != "2" {
		t.Fatalf("two sort key bounds: %v", k)
	}
	got = mustQL(t, c, `SELECT * FROM "orders" WHERE 2 < sk AND pk = 'c'`)
	if k := plain(got, "sk"); strings.Join(k, ",") != "3" {
		t.Fatalf("flipped comparison: %v", k)
	}

	// An IN list of partition keys, and its OR form.
	for _, stmt := range []string{
		`SELECT * FROM "orders" WHERE pk IN ['c', 'a'] AND sk = 1`,
		`SELECT * FROM "orders" WHERE (pk = 'c' OR pk = 'a') AND sk = 1`,
	} {
		got = mustQL(t, c, stmt)
		if k := plain(got, "tag"); strings.Join(k, ",") != "c1,a1" {
			t.Fatalf("%s: %v", stmt, k)
		}
	}
	got = mustQL(t, c, `SELECT * FROM "orders" WHERE pk IN ['c', 'a'] AND sk = 1 ORDER BY pk`)
	if k := plain(got, "tag"); strings.Join(k, ",") != "a1,c1" {
		t.Fatalf("IN ordered by pk: %v", k)
	}

	// Anything else scans, with the WHERE as a filter.
	got = mustQL(t, c, `SELECT tag FROM "orders" WHERE qty > 20 AND begins_with(tag, 'b') OR tag IN ('a1', 'zz')`)
	if k := sorted(plain(got, "tag")); strings.Join(k, ",") != "a1,b3" {
		t.Fatalf("scan: %v", k)
	}
	got = mustQL(t, c, `SELECT * FROM "orders" WHERE missing_attr IS MISSING AND tag IS NOT MISSING AND contains(tag, '2') AND size(tag) = 2 AND attribute_type(qty, 'N')`)
	if len(got) != 3 {
		t.Fatalf("functions: %d items", len(got))
	}
	// OR branches with a negated sort key condition run, as the union of
	// the branches (recorded: paritysuite/dynamodb-conformance
	// tests/tier2/partiql/whereOverlap.test.ts).
	for where, want := range map[string]string{
		`pk = 'a' AND NOT sk = 1 OR pk = 'a' AND sk = 2`:               "2,3",
		`pk = 'a' AND sk <> 1 OR pk = 'a' AND sk = 2`:                  "2,3",
		`pk = 'a' AND NOT sk IN [1, 3] OR pk = 'a' AND sk = 2`:         "2",
		`pk = 'a' OR pk = 'a' AND NOT sk = 1`:                          "1,2,3",
		`pk = 'a' AND NOT begins_with(sk, 'x') OR pk = 'a' AND sk = 2`: "1,2,3",
	} {
		got = mustQL(t, c, `SELECT * FROM "orders" WHERE `+where)
		if k := sorted(plain(got, "sk")); strings.Join(k, ",") != want {
			t.Errorf("%s: %v, want %s", where, k, want)
		}
	}
	got = mustQL(t, c, `SELECT * FROM "orders" WHERE NOT (qty < 30) AND tag IS STRING`)
	if len(got) != 3 {
		t.Fatalf("NOT and IS STRING: %d items", len(got))
	}
	if got = mustQL(t, c, `SELECT * FROM orders`); len(got) != 9 {
		t.Fatalf("whole table: %d items", len(got))
	}
}

func TestPartiQLSelectIndex(t *testing.T) {
	_, c := start(t)
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:   aws.String("users"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("email"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byEmail"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("email"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	put(t, c, "users", item{"pk": S("u1"), "email": S("a@x")})
	put(t, c, "users", item{"pk": S("u2"), "email": S("b@x")})
	got := mustQL(t, c, `SELECT pk FROM "users"."byEmail" WHERE email = 'b@x'`)
	if k := plain(got, "pk"); strings.Join(k, ",") != "u2" {
		t.Fatalf("index query: %v", k)
	}
	_, err = c.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{
		Statement: aws.String(`SELECT * FROM "users"."byEmail" WHERE email = 'b@x'`), ConsistentRead: aws.Bool(true)})
	wantValidation(t, err, "Strongly consistent read is not supported on Global Secondary Indexes")
}

func TestPartiQLPaging(t *testing.T) {
	_, c := start(t)
	seedOrders(t, c)
	for _, stmt := range []string{
		`SELECT * FROM "orders" WHERE pk = 'a'`,
		`SELECT * FROM "orders" WHERE pk IN ['a', 'b', 'c']`,
		`SELECT * FROM "orders"`,
	} {
		var all []string
		var token *string
		pages := 0
		for {
			out, err := c.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), Limit: aws.Int32(2), NextToken: token})
			if err != nil {
				t.Fatalf("%s page %d: %v", stmt, pages, err)
			}
			pages++
			if len(out.Items) > 2 {
				t.Fatalf("%s: a page of %d items with Limit 2", stmt, len(out.Items))
			}
			all = append(all, plain(out.Items, "tag")...)
			if out.NextToken == nil {
				break
			}
			token = out.NextToken
			if pages > 20 {
				t.Fatal("no end")
			}
		}
		want := 3
		if !strings.Contains(stmt, "pk = 'a'") {
			want = 9
		}
		if len(all) != want {
			t.Fatalf("%s: %d items over %d pages: %v", stmt, len(all), pages, all)
		}
	}
	// A NextToken belongs to its statement.
	out, err := c.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "orders"`), Limit: aws.Int32(1)})
	if err != nil || out.NextToken == nil {
		t.Fatalf("first page: %v", err)
	}
	_, err = c.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "orders" WHERE qty > 0`), NextToken: out.NextToken})
	wantValidation(t, err, "NextToken does not match request")
}

func TestPartiQLWrites(t *testing.T) {
	_, c := start(t)
	createRange(t, c, "tbl", types.ScalarAttributeTypeN)

	// INSERT writes the item; an INSERT of the same key is a
	// DuplicateItemException and changes nothing.
	items := mustQL(t, c, `INSERT INTO "tbl" VALUE {'pk': 'a', 'sk': 1, 'n': 5, 'l': [1, 'x', TRUE, NULL], 'm': {'k': <<'p', 'q'>>}, 'p': ?}`, N("1.50"))
	if len(items) != 0 {
		t.Fatalf("INSERT answered %v", items)
	}
	itemEqual(t, "inserted", get(t, c, "tbl", item{"pk": S("a"), "sk": N("1")}), item{"pk": S("a"), "sk": N("1"), "n": N("5"),
		"l": L(N("1"), S("x"), BOOL(true), NULL()), "m": M(item{"k": SS("p", "q")}), "p": N("1.5")})
	_, err := ql(c, `INSERT INTO "tbl" VALUE {'pk': 'a', 'sk': 1}`)
	wantErr(t, err, "DuplicateItemException", "Duplicate primary key exists in table")

	// UPDATE: SET with arithmetic, list_append, set_add, REMOVE, and each
	// RETURNING.
	items = mustQL(t, c, `UPDATE "tbl" SET n = n + 2, l = list_append(l, [9]) SET m.k = set_add(m.k, <<'r'>>) REMOVE p WHERE pk = 'a' AND sk = 1 RETURNING MODIFIED NEW *`)
	if len(items) != 1 {
		t.Fatalf("RETURNING MODIFIED NEW: %v", items)
	}
	itemEqual(t, "modified new", items[0], item{"n": N("7"), "l": L(N("1"), S("x"), BOOL(true), NULL(), N("9")), "m": M(item{"k": SS("p", "q", "r")})})
	items = mustQL(t, c, `UPDATE "tbl" SET n = 1 WHERE pk = 'a' AND sk = 1 RETURNING ALL OLD *`)
	if len(items) != 1 || render(items[0]["n"]) != render(N("7")) {
		t.Fatalf("RETURNING ALL OLD: %v", items)
	}
	items = mustQL(t, c, `UPDATE "tbl" SET m.k = set_delete(m.k, <<'p'>>) WHERE pk = 'a' AND sk = 1 RETURNING ALL NEW *`)
	if len(items) != 1 || render(items[0]["m"]) != render(M(item{"k": SS("q", "r")})) {
		t.Fatalf("RETURNING ALL NEW: %v", items)
	}
	if items = mustQL(t, c, `UPDATE "tbl" SET z = 'x' WHERE pk = 'a' AND sk = 1`); len(items) != 0 {
		t.Fatalf("UPDATE without RETURNING answered %v", items)
	}
	// The FROM-first form of UPDATE.
	mustQL(t, c, `FROM "tbl" WHERE pk = 'a' AND sk = 1 SET y = 'from'`)
	if got := get(t, c, "tbl", item{"pk": S("a"), "sk": N("1")}); render(got["y"]) != render(S("from")) {
		t.Fatalf("FROM ... SET: %v", got)
	}

	// An UPDATE of a missing item, and one whose extra condition fails,
	// are ConditionalCheckFailedExceptions, with the item when asked.
	_, err = ql(c, `UPDATE "tbl" SET n = 1 WHERE pk = 'nope' AND sk = 1`)
	wantCondFailed(t, err)
	_, err = c.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{
		Statement:                           aws.String(`UPDATE "tbl" SET n = 2 WHERE pk = 'a' AND sk = 1 AND n > 100`),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	ccf := wantCondFailed(t, err)
	if ccf.Item == nil || render(ccf.Item["n"]) != render(N("1")) {
		t.Fatalf("condition failure item: %v", ccf.Item)
	}

	// DELETE: a missing item is no error; a failed condition is; RETURNING
	// ALL OLD gives the item.
	if items = mustQL(t, c, `DELETE FROM "tbl" WHERE pk = 'nope' AND sk = 1`); len(items) != 0 {
		t.Fatalf("DELETE of nothing: %v", items)
	}
	_, err = ql(c, `DELETE FROM "tbl" WHERE pk = 'a' AND sk = 1 AND attribute_not_exists(n)`)
	wantCondFailed(t, err)
	items = mustQL(t, c, `DELETE FROM "tbl" WHERE pk = ? AND sk = ? RETURNING ALL OLD *`, S("a"), N("1"))
	if len(items) != 1 || render(items[0]["pk"]) != render(S("a")) {
		t.Fatalf("RETURNING ALL OLD: %v", items)
	}
	if got := get(t, c, "tbl", item{"pk": S("a"), "sk": N("1")}); got != nil {
		t.Fatalf("deleted item still there: %v", got)
	}
}

// The bill of a statement is the bill of the operation it stands for.
func TestPartiQLCapacity(t *testing.T) {
	_, c := start(t)
	seedOrders(t, c)
	units := func(stmt string, consistent bool) float64 {
		t.Helper()
		out, err := c.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt),
			ConsistentRead: aws.Bool(consistent), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		if err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
		if out.ConsumedCapacity == nil || aws.ToString(out.ConsumedCapacity.TableName) != "orders" {
			t.Fatalf("%s: ConsumedCapacity %+v", stmt, out.ConsumedCapacity)
		}
		return aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
	}
	get, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("orders"), Key: item{"pk": S("a"), "sk": N("1")},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	if u := units(`SELECT * FROM "orders" WHERE pk = 'a' AND sk = 1`, false); u != aws.ToFloat64(get.ConsumedCapacity.CapacityUnits) {
		t.Fatalf("SELECT by key: %v, GetItem %v", u, *get.ConsumedCapacity.CapacityUnits)
	}
	if u := units(`SELECT * FROM "orders" WHERE pk = 'a' AND sk = 1`, true); u != 1 {
		t.Fatalf("consistent SELECT by key: %v", u)
	}
	q, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("orders"), KeyConditionExpression: aws.String("pk = :p"),
		ExpressionAttributeValues: item{":p": S("a")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	if u := units(`SELECT * FROM "orders" WHERE pk = 'a' AND qty > 1000`, false); u != aws.ToFloat64(q.ConsumedCapacity.CapacityUnits) {
		t.Fatalf("SELECT by partition: %v, Query %v", u, *q.ConsumedCapacity.CapacityUnits)
	}
	if u := units(`SELECT * FROM "orders" WHERE pk = 'a' AND sk > 0 AND sk < 100`, false); u != aws.ToFloat64(q.ConsumedCapacity.CapacityUnits) {
		t.Fatalf("SELECT by partition with two sort key bounds: %v, Query %v", u, *q.ConsumedCapacity.CapacityUnits)
	}
	s, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("orders"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	if u := units(`SELECT * FROM "orders" WHERE qty > 1000`, false); u != aws.ToFloat64(s.ConsumedCapacity.CapacityUnits) {
		t.Fatalf("SELECT scanning: %v, Scan %v", u, *s.ConsumedCapacity.CapacityUnits)
	}
	out, err := c.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(`UPDATE "orders" SET q = 1 WHERE pk = 'a' AND sk = 1`),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil || out.ConsumedCapacity == nil || aws.ToFloat64(out.ConsumedCapacity.CapacityUnits) != 1 {
		t.Fatalf("UPDATE capacity: %v %+v", err, out)
	}
}

func TestPartiQLBatch(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "tbl", types.ScalarAttributeTypeS)
	put(t, c, "tbl", item{"pk": S("a"), "n": N("1")})

	// Writes, one failing: each in its own slot, the others applied
	// (AWS's API reference, BatchExecuteStatement and BatchStatementError).
	out, err := c.BatchExecuteStatement(bg(), &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(`INSERT INTO "tbl" VALUE {'pk': 'b'}`)},
		{Statement: aws.String(`INSERT INTO "tbl" VALUE {'pk': 'a'}`)},
		{Statement: aws.String(`UPDATE "tbl" SET n = 2 WHERE pk = 'a' AND n = 5`), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld},
		{Statement: aws.String(`UPDATE "tbl" SET n = ? WHERE pk = ?`), Parameters: []types.AttributeValue{N("3"), S("a")}},
		{Statement: aws.String(`DELETE FROM "nope" WHERE pk = 'a'`)},
	}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	r := out.Responses
	if len(r) != 5 || r[0].Error != nil || r[3].Error != nil || aws.ToString(r[0].TableName) != "tbl" {
		t.Fatalf("responses: %+v", r)
	}
	if r[1].Error == nil || r[1].Error.Code != types.BatchStatementErrorCodeEnumDuplicateItem || aws.ToString(r[1].Error.Message) != "Duplicate primary key exists in table" {
		t.Fatalf("duplicate: %+v", r[1].Error)
	}
	if r[2].Error == nil || r[2].Error.Code != types.BatchStatementErrorCodeEnumConditionalCheckFailed || r[2].Error.Item == nil {
		t.Fatalf("condition: %+v", r[2].Error)
	}
	if r[4].Error == nil || r[4].Error.Code != types.BatchStatementErrorCodeEnumResourceNotFound {
		t.Fatalf("missing table: %+v", r[4].Error)
	}
	if len(out.ConsumedCapacity) != 1 || aws.ToFloat64(out.ConsumedCapacity[0].CapacityUnits) != 2 {
		t.Fatalf("capacity: %+v", out.ConsumedCapacity)
	}
	if got := get(t, c, "tbl", item{"pk": S("a")}); render(got["n"]) != render(N("3")) {
		t.Fatalf("a: %v", got)
	}

	// Reads by key: an item, no item, and a SELECT not by key.
	out, err = c.BatchExecuteStatement(bg(), &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(`SELECT * FROM "tbl" WHERE pk = 'b'`)},
		{Statement: aws.String(`SELECT n FROM "tbl" WHERE pk = 'zz'`)},
		{Statement: aws.String(`SELECT * FROM "tbl" WHERE n = 3`)},
		{Statement: aws.String(`SELECT * FROM "tbl" WHERE pk = ?`)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	r = out.Responses
	if r[0].Item == nil || render(r[0].Item["pk"]) != render(S("b")) || r[1].Item != nil || r[1].Error != nil {
		t.Fatalf("reads: %+v", r)
	}
	if r[2].Error == nil || r[2].Error.Code != types.BatchStatementErrorCodeEnumValidationError ||
		aws.ToString(r[2].Error.Message) != "Select statements within BatchExecuteStatement must specify the primary key in the where clause." {
		t.Fatalf("scan in batch: %+v", r[2].Error)
	}
	if r[3].Error == nil || aws.ToString(r[3].Error.Message) != "Number of parameters in request and statement don't match." {
		t.Fatalf("parameters: %+v", r[3].Error)
	}
}

func TestPartiQLTransaction(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "tbl", types.ScalarAttributeTypeS)
	put(t, c, "tbl", item{"pk": S("a"), "n": N("1")})
	put(t, c, "tbl", item{"pk": S("b"), "n": N("1")})
	tx := func(token string, stmts ...string) (*dynamodb.ExecuteTransactionOutput, error) {
		in := &dynamodb.ExecuteTransactionInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
		if token != "" {
			in.ClientRequestToken = aws.String(token)
		}
		for _, s := range stmts {
			in.TransactStatements = append(in.TransactStatements, types.ParameterizedStatement{Statement: aws.String(s)})
		}
		return c.ExecuteTransaction(bg(), in)
	}

	// Writes with a condition check: all applied, an empty Responses list
	// (recorded: writeResponses.test.ts), billed as TransactWriteItems.
	out, err := tx("tok-1",
		`EXISTS(SELECT * FROM "tbl" WHERE pk = 'a' AND n = 1)`,
		`UPDATE "tbl" SET n = n + 1 WHERE pk = 'b'`,
		`INSERT INTO "tbl" VALUE {'pk': 'c'}`)
	if err != nil {
		t.Fatal(err)
	}
	if out.Responses == nil || len(out.Responses) != 0 {
		t.Fatalf("responses: %+v", out.Responses)
	}
	if len(out.ConsumedCapacity) != 1 || aws.ToFloat64(out.ConsumedCapacity[0].CapacityUnits) != 6 {
		t.Fatalf("capacity: %+v", out.ConsumedCapacity)
	}
	// The same token again: success, not applied twice.
	if _, err := tx("tok-1",
		`EXISTS(SELECT * FROM "tbl" WHERE pk = 'a' AND n = 1)`,
		`UPDATE "tbl" SET n = n + 1 WHERE pk = 'b'`,
		`INSERT INTO "tbl" VALUE {'pk': 'c'}`); err != nil {
		t.Fatal(err)
	}
	if got := get(t, c, "tbl", item{"pk": S("b")}); render(got["n"]) != render(N("2")) {
		t.Fatalf("b after a repeated token: %v", got)
	}

	// One failing statement cancels all, with a reason per statement.
	_, err = tx("",
		`UPDATE "tbl" SET n = 9 WHERE pk = 'a'`,
		`INSERT INTO "tbl" VALUE {'pk': 'c'}`,
		`UPDATE "tbl" SET n = 9 WHERE pk = 'missing'`)
	var tce *types.TransactionCanceledException
	if !errorsAs(err, &tce) {
		t.Fatalf("got %v", err)
	}
	var codes []string
	for _, r := range tce.CancellationReasons {
		codes = append(codes, aws.ToString(r.Code))
	}
	if strings.Join(codes, ",") != "None,DuplicateItem,ConditionalCheckFailed" {
		t.Fatalf("reasons: %v", codes)
	}
	if got := get(t, c, "tbl", item{"pk": S("a")}); render(got["n"]) != render(N("1")) {
		t.Fatalf("a after a cancelled transaction: %v", got)
	}

	// Reads: one Item per statement, {} where there is none.
	out, err = tx("", `SELECT n FROM "tbl" WHERE pk = 'b'`, `SELECT * FROM "tbl" WHERE pk = 'zz'`)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Responses) != 2 || render(out.Responses[0].Item["n"]) != render(N("2")) || out.Responses[1].Item != nil {
		t.Fatalf("reads: %+v", out.Responses)
	}
	if len(out.ConsumedCapacity) != 1 || aws.ToFloat64(out.ConsumedCapacity[0].CapacityUnits) != 4 {
		t.Fatalf("read capacity: %+v", out.ConsumedCapacity)
	}
}

// set_add and set_delete: paritysuite/dynamodb-conformance
// tests/tier2/partiql/setFunctions.test.ts (recorded against AWS, eu-west-2,
// October 2026).
func TestPartiQLSetFunctions(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "sets", types.ScalarAttributeTypeS)
	put(t, c, "sets", item{"pk": S("k"), "ss": SS("a", "b", "c"), "ns": NS("1", "2", "3"), "bs": BS([]byte{1}, []byte{2})})
	key := item{"pk": S("k")}
	mustQL(t, c, `UPDATE "sets" SET ss = SET_ADD(ss, <<'0', 'z', 'a'>>) SET ns = set_add(ns, <<4, 1>>) WHERE pk = 'k'`)
	mustQL(t, c, `UPDATE "sets" SET bs = set_add(bs, ?) WHERE pk = 'k'`, BS([]byte{1}, []byte{3}))
	mustQL(t, c, `UPDATE "sets" SET nss = set_add(nss, <<'x'>>) WHERE pk = 'k'`)
	mustQL(t, c, `UPDATE "sets" SET gone = set_delete(gone, <<'a'>>) WHERE pk = 'k'`)
	got := get(t, c, "sets", key)
	itemEqual(t, "after set_add", got, item{"pk": S("k"), "ss": SS("0", "a", "b", "c", "z"), "ns": NS("1", "2", "3", "4"),
		"bs": BS([]byte{1}, []byte{2}, []byte{3}), "nss": SS("x")})
	mustQL(t, c, `UPDATE "sets" SET ns = set_delete(ns, <<2, 99>>) SET nss = set_delete(nss, <<'x'>>) WHERE pk = 'k'`)
	got = get(t, c, "sets", key)
	if render(got["ns"]) != render(NS("1", "3", "4")) || got["nss"] != nil {
		t.Fatalf("after set_delete: %s", renderItem(got))
	}
	_, err := ql(c, `UPDATE "sets" SET ss = set_add(ss, <<'x'>>) WHERE pk = 'absent'`)
	wantCondFailed(t, err)
	if get(t, c, "sets", item{"pk": S("absent")}) != nil {
		t.Fatal("an UPDATE of a missing item created it")
	}
}
