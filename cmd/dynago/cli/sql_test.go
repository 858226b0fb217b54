package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/testserver"
)

// sqlEnv keeps the SDK's configuration loading to the test's own
// settings: no profile, config file or instance metadata of the machine.
func sqlEnv(t *testing.T) {
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_CONFIG_FILE": filepath.Join(dir, "config"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, "credentials"),
		"AWS_EC2_METADATA_DISABLED": "true", "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
		"AWS_PROFILE": "", "AWS_ENDPOINT_URL": "", "AWS_ENDPOINT_URL_DYNAMODB": "", "AWS_REGION": "us-east-1",
	} {
		t.Setenv(k, v)
	}
}

// sqlRun runs dynago sql with args and stdin, returning the exit code
// and what it printed.
func sqlRun(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(append([]string{"sql", "--history", ""}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func sqlServer(t *testing.T) *testserver.Server {
	sqlEnv(t)
	s := testserver.Start(t)
	_, err := s.Client.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName: aws.String("Orders"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("OrderDate"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("Status"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("byDate"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("OrderDate"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byStatus"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("Status"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("OrderDate"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	statuses := []string{"PLACED", "SHIPPED", "DELIVERED"}
	for u := 1; u <= 3; u++ {
		for o := 0; o < 10; o++ {
			_, err := s.Client.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Orders"), Item: map[string]types.AttributeValue{
				"PK": &types.AttributeValueMemberS{Value: fmt.Sprintf("USER#%d", u)}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("ORDER#%d", o)},
				"OrderDate": &types.AttributeValueMemberS{Value: fmt.Sprintf("2023-01-%02d", 1+o*3)},
				"Status":    &types.AttributeValueMemberS{Value: statuses[(u+o)%3]},
				"Total":     &types.AttributeValueMemberN{Value: fmt.Sprint(10 * (o + u))},
				"Pad":       &types.AttributeValueMemberS{Value: strings.Repeat("x", 1500)},
			}})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return s
}

func TestSQLHelp(t *testing.T) {
	code, out, _ := sqlRun(t, "", "--help")
	if code != 0 || !strings.Contains(out, "Usage: dynago sql") || !strings.Contains(out, "dynago sql --explain") || !strings.Contains(out, "-endpoint-url") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestSQLStatements(t *testing.T) {
	s := sqlServer(t)
	// -e: a write, then a read printed as a table, with its bill.
	code, out, errs := sqlRun(t, "", "--endpoint-url", s.URL, "-e", `INSERT INTO "Orders" VALUE {'PK': 'USER#9', 'SK': 'PROFILE', 'Name': 'Alex'}`)
	if code != 0 || !strings.Contains(out, "-- 0 item(s), consumed 1 capacity unit(s)") {
		t.Fatalf("insert: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = sqlRun(t, "", "--endpoint-url", s.URL, "-e", `SELECT PK, SK, Name FROM "Orders" WHERE PK = 'USER#9' AND SK = 'PROFILE'`)
	want := "PK       | SK        | Name\n---------+-----------+-------\n'USER#9' | 'PROFILE' | 'Alex'\n-- 1 item(s), consumed 0.5 capacity unit(s)\n"
	if code != 0 || out != want {
		t.Fatalf("select: exit %d\n%q\nwant\n%q\n%s", code, out, want, errs)
	}
	// An error as DynamoDB words it, and exit status 1.
	code, _, errs = sqlRun(t, "", "--endpoint-url", s.URL, "-e", `INSERT INTO "Orders" VALUE {'PK': 'USER#9', 'SK': 'PROFILE'}`)
	if code != 1 || !strings.Contains(errs, "DuplicateItemException: Duplicate primary key exists in table") {
		t.Fatalf("duplicate: exit %d\n%s", code, errs)
	}
	// Statements piped on stdin: several lines, ended by ";" or a blank
	// line; \history lists them; a failed one is reported and the rest
	// run.
	stdin := "SELECT Name\nFROM \"Orders\"\nWHERE PK = 'USER#9';\nSELECT * FROM \"Nope\"\n\nUPDATE \"Orders\" SET Name = 'Sam' WHERE PK = 'USER#9' AND SK = 'PROFILE'\n\\history\n"
	code, out, errs = sqlRun(t, stdin, "--endpoint-url", s.URL)
	if code != 1 || !strings.Contains(out, "Name\n------\n'Alex'\n-- 1 item(s), consumed 0.5 capacity unit(s)") ||
		!strings.Contains(errs, "ResourceNotFoundException: Requested resource not found") ||
		!strings.Contains(out, `   1  SELECT Name FROM "Orders" WHERE PK = 'USER#9';`) ||
		!strings.Contains(out, `   3  UPDATE "Orders" SET Name = 'Sam' WHERE PK = 'USER#9' AND SK = 'PROFILE'`) {
		t.Fatalf("stdin: exit %d\n%s\n%s", code, out, errs)
	}
	// JSON, plain and DynamoDB's.
	code, out, _ = sqlRun(t, "", "--endpoint-url", s.URL, "--output", "json", "-e", `SELECT Name, Total FROM "Orders" WHERE PK = 'USER#1' AND SK = 'ORDER#2'`)
	if code != 0 || strings.TrimSpace(out) != `{"Total":30}` {
		t.Fatalf("json: exit %d %q", code, out)
	}
	code, out, _ = sqlRun(t, "", "--endpoint-url", s.URL, "--output", "json", "--dynamodb-json", "-e", `SELECT Name FROM "Orders" WHERE PK = 'USER#9' AND SK = 'PROFILE'`)
	if code != 0 || strings.TrimSpace(out) != `{"Name":{"S":"Sam"}}` {
		t.Fatalf("dynamodb json: exit %d %q", code, out)
	}
}

// TestSQLHistoryFile: the shell appends each statement to its history
// file, which the next shell lists.
func TestSQLHistoryFile(t *testing.T) {
	s := sqlServer(t)
	hist := filepath.Join(t.TempDir(), "dynago", "sql_history")
	var out, errb bytes.Buffer
	Main([]string{"sql", "--endpoint-url", s.URL, "--history", hist}, strings.NewReader("SELECT * FROM \"Orders\" WHERE PK = 'USER#1' AND SK = 'ORDER#1';\n"), &out, &errb)
	out.Reset()
	Main([]string{"sql", "--endpoint-url", s.URL, "--history", hist}, strings.NewReader("\\history\n"), &out, &errb)
	if !strings.Contains(out.String(), `1  SELECT * FROM "Orders" WHERE PK = 'USER#1' AND SK = 'ORDER#1';`) {
		t.Fatalf("history:\n%s%s", out.String(), errb.String())
	}
}

// TestSQLPages: a Scan of more than 1 MB has a NextToken: without --all
// the verb says there are more rows, with it it reads them all.
func TestSQLPages(t *testing.T) {
	s := sqlServer(t)
	big := strings.Repeat("y", 10_000)
	for i := 0; i < 120; i++ {
		_, err := s.Client.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Orders"), Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: fmt.Sprintf("BIG#%d", i)}, "SK": &types.AttributeValueMemberS{Value: "X"},
			"Pad": &types.AttributeValueMemberS{Value: big}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := sqlRun(t, "", "--endpoint-url", s.URL, "--output", "json", "-e", `SELECT PK FROM "Orders"`)
	lines := strings.Count(out, "\n")
	if code != 0 || !strings.Contains(errs, "-- more rows: pass --all") || lines >= 150 {
		t.Fatalf("first page: exit %d, %d lines\n%s", code, lines, errs)
	}
	code, out, errs = sqlRun(t, "", "--endpoint-url", s.URL, "--output", "json", "--all", "-e", `SELECT PK FROM "Orders"`)
	if lines := strings.Count(out, "\n"); code != 0 || lines != 150 || strings.Contains(errs, "more rows") || !strings.Contains(errs, "-- 150 item(s)") {
		t.Fatalf("--all: exit %d, %d lines\n%s", code, lines, errs)
	}
}

// TestSQLExplainMatchesExecution: for each statement, --explain's plan
// (operation, table or index, request) is what execution does: running
// the statement bills exactly what the request explain shows bills when
// sent as that operation, index by index, and returns the same items.
func TestSQLExplainMatchesExecution(t *testing.T) {
	s := sqlServer(t)
	ctx := context.Background()
	cases := []struct {
		stmt, op, index string
	}{
		{`SELECT * FROM "Orders" WHERE PK = 'USER#1' AND SK = 'ORDER#3'`, "GetItem", ""},
		{`SELECT * FROM "Orders" WHERE PK = 'USER#1'`, "Query", ""},
		{`SELECT Total FROM "Orders" WHERE PK = 'USER#1' AND begins_with(SK, 'ORDER#1')`, "Query", ""},
		{`SELECT * FROM "Orders" WHERE PK IN ['USER#1', 'USER#2'] AND Total > 50`, "Query", ""},
		{`SELECT * FROM "Orders" WHERE 'USER#3' = PK AND SK > 'ORDER#4' ORDER BY SK DESC`, "Query", ""},
		{`SELECT * FROM "Orders"."byStatus" WHERE Status = 'SHIPPED' AND OrderDate BETWEEN '2023-01-01' AND '2023-01-15'`, "Query", "byStatus"},
		{`SELECT * FROM "Orders"."byDate" WHERE PK = 'USER#2' AND OrderDate < '2023-01-10' AND Total <> 30`, "Query", "byDate"},
		{`SELECT * FROM "Orders" WHERE Total > 50`, "Scan", ""},
		{`SELECT * FROM "Orders" WHERE SK = 'ORDER#1'`, "Scan", ""},
		{`SELECT * FROM "Orders"."byStatus" WHERE Total > 50 AND Status <> 'PLACED'`, "Scan", "byStatus"},
	}
	for _, c := range cases {
		e, err := ExplainSQL(ctx, s.Client, c.stmt, false)
		if err != nil {
			t.Fatalf("%s: %v", c.stmt, err)
		}
		if e.Operation != c.op || e.Index != c.index {
			t.Errorf("%s: explained %s on %q, want %s on %q\n%s", c.stmt, e.Operation, e.Index, c.op, c.index, e)
			continue
		}
		// The statement, with every index's bill.
		got, err := s.Client.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(c.stmt), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		if err != nil || got.NextToken != nil {
			t.Fatalf("%s: %v", c.stmt, err)
		}
		// The explained request, sent as its operation.
		var items []map[string]types.AttributeValue
		var cc []*types.ConsumedCapacity
		r := e.Request
		names, values := r.ExpressionAttributeNames, sdkItem(r.ExpressionAttributeValues)
		if len(names) == 0 {
			names = nil
		}
		opt := func(s string) *string {
			if s == "" {
				return nil
			}
			return aws.String(s)
		}
		switch e.Operation {
		case "GetItem":
			out, err := s.Client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Orders"), Key: sdkItem(r.Key),
				ProjectionExpression: opt(r.ProjectionExpression), ExpressionAttributeNames: names, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
			if err != nil {
				t.Fatal(err)
			}
			if out.Item != nil {
				items = append(items, out.Item)
			}
			cc = append(cc, out.ConsumedCapacity)
		case "Query":
			if len(e.Partitions) != e.Queries {
				t.Fatalf("%s: %d partitions, %d queries", c.stmt, len(e.Partitions), e.Queries)
			}
			for _, part := range r.PartitionValues {
				values[r.PartitionPlaceholder] = sdkItem(attr.Item{"v": part})["v"]
				out, err := s.Client.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("Orders"), IndexName: opt(e.Index),
					KeyConditionExpression: opt(r.KeyConditionExpression), FilterExpression: opt(r.FilterExpression),
					ProjectionExpression: opt(r.ProjectionExpression), ScanIndexForward: r.ScanIndexForward,
					ExpressionAttributeNames: names, ExpressionAttributeValues: values, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
				if err != nil {
					t.Fatalf("%s: %v", c.stmt, err)
				}
				items = append(items, out.Items...)
				cc = append(cc, out.ConsumedCapacity)
			}
		case "Scan":
			if len(values) == 0 {
				values = nil
			}
			out, err := s.Client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("Orders"), IndexName: opt(e.Index),
				FilterExpression: opt(r.FilterExpression), ProjectionExpression: opt(r.ProjectionExpression),
				ExpressionAttributeNames: names, ExpressionAttributeValues: values, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
			if err != nil {
				t.Fatalf("%s: %v", c.stmt, err)
			}
			items, cc = out.Items, append(cc, out.ConsumedCapacity)
		}
		if g, w := capacityOf(got.ConsumedCapacity), capacityOf(cc...); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: statement billed %v, explained %s billed %v\n%s", c.stmt, g, e.Operation, w, e)
		}
		if g, w := jsonOf(t, got.Items), jsonOf(t, items); g != w {
			t.Errorf("%s: statement returned\n%s\nexplained request returned\n%s", c.stmt, g, w)
		}
		// The verb prints the same explanation.
		code, out, errs := sqlRun(t, "", "--endpoint-url", s.URL, "--explain", c.stmt)
		if code != 0 || out != e.String() {
			t.Errorf("%s: exit %d\n%s%s", c.stmt, code, out, errs)
		}
	}
	// The shell's EXPLAIN, and a statement that cannot be planned.
	_, out, _ := sqlRun(t, "EXPLAIN SELECT * FROM \"Orders\" WHERE Total > 50;\n", "--endpoint-url", s.URL)
	if !strings.Contains(out, `Scan on table "Orders"`) || !strings.Contains(out, "reads every item in the table; bills for all of them") {
		t.Errorf("EXPLAIN:\n%s", out)
	}
	// Worded as ExecuteStatement answers it, without the index's name
	// (paritysuite/dynamodb-conformance, tests/tier3/error-messages/
	// indexReads.test.ts, eu-west-1, 2026-09-02).
	code, _, errs := sqlRun(t, "", "--endpoint-url", s.URL, "--explain", `SELECT * FROM "Orders"."nope" WHERE PK = 'a'`)
	if code != 1 || !strings.Contains(errs, "ValidationException: The table does not have the specified index\n") {
		t.Errorf("no index: exit %d %s", code, errs)
	}
}

// capacityOf sums bills: total, table and each index.
func capacityOf(ccs ...*types.ConsumedCapacity) map[string]float64 {
	m := map[string]float64{}
	for _, c := range ccs {
		if c == nil {
			continue
		}
		m["total"] += aws.ToFloat64(c.CapacityUnits)
		if c.Table != nil {
			m["table"] += aws.ToFloat64(c.Table.CapacityUnits)
		}
		for k, v := range c.GlobalSecondaryIndexes {
			m["gsi "+k] += aws.ToFloat64(v.CapacityUnits)
		}
		for k, v := range c.LocalSecondaryIndexes {
			m["lsi "+k] += aws.ToFloat64(v.CapacityUnits)
		}
	}
	return m
}

func jsonOf(t *testing.T, items []map[string]types.AttributeValue) string {
	var sb strings.Builder
	for _, it := range items {
		b, err := json.Marshal(plainItem(it))
		if err != nil {
			t.Fatal(err)
		}
		sb.Write(b)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// sdkItem converts the scalar values explain shows to the SDK's.
func sdkItem(it attr.Item) map[string]types.AttributeValue {
	m := map[string]types.AttributeValue{}
	for k, v := range it {
		switch v.Type {
		case attr.TypeS:
			m[k] = &types.AttributeValueMemberS{Value: v.S}
		case attr.TypeN:
			m[k] = &types.AttributeValueMemberN{Value: v.S}
		case attr.TypeBOOL:
			m[k] = &types.AttributeValueMemberBOOL{Value: v.Bool}
		}
	}
	return m
}

// TestSQLCellText: the shell's table shows each value by its DynamoDB
// type, in the notation of PartiQL for DynamoDB (the developer guide's
// "PartiQL data types for DynamoDB",
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.data-types.html:
// strings in single quotes with a quote doubled, numbers bare, sets in
// << >>, lists in [ ], maps in { }, NULL, booleans). Binary has no
// PartiQL literal there ("only supported via code"): it shows as base64
// marked binary('...'), so it cannot pass for a string.
func TestSQLCellText(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    types.AttributeValue
		want string
	}{
		{"string", &types.AttributeValueMemberS{Value: "Alex"}, `'Alex'`},
		{"string with a quote", &types.AttributeValueMemberS{Value: "it's"}, `'it''s'`},
		{"string with a newline", &types.AttributeValueMemberS{Value: "a\nb"}, `'a\nb'`},
		{"string of digits", &types.AttributeValueMemberS{Value: "42"}, `'42'`},
		{"number", &types.AttributeValueMemberN{Value: "12345678901234567890.5"}, `12345678901234567890.5`},
		{"binary", &types.AttributeValueMemberB{Value: []byte{1, 2, 3}}, `binary('AQID')`},
		{"true", &types.AttributeValueMemberBOOL{Value: true}, `true`},
		{"null", &types.AttributeValueMemberNULL{Value: true}, `NULL`},
		{"string set", &types.AttributeValueMemberSS{Value: []string{"a", "b'c"}}, `<<'a', 'b''c'>>`},
		{"number set", &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}}, `<<1, 2.5>>`},
		{"binary set", &types.AttributeValueMemberBS{Value: [][]byte{{0}, {255}}}, `<<binary('AA=='), binary('/w==')>>`},
		{"list", &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberN{Value: "1"}, &types.AttributeValueMemberS{Value: "x"},
			&types.AttributeValueMemberSS{Value: []string{"s"}}, &types.AttributeValueMemberL{}}}, `[1, 'x', <<'s'>>, []]`},
		{"map, names in order", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"z": &types.AttributeValueMemberB{Value: []byte("hi")}, "a": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"n": &types.AttributeValueMemberNS{Value: []string{"7"}}}}}}, `{'a': {'n': <<7>>}, 'z': binary('aGk=')}`},
		{"empty map", &types.AttributeValueMemberM{}, `{}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := cellText(tc.v); got != tc.want {
				t.Errorf("cellText = %s, want %s", got, tc.want)
			}
		})
	}
}

// TestSQLShowsTypes: a SELECT's table shows sets as sets and a binary as
// one, not as the list and string they used to look like.
func TestSQLShowsTypes(t *testing.T) {
	s := sqlServer(t)
	_, err := s.Client.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Orders"), Item: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "T"}, "SK": &types.AttributeValueMemberS{Value: "1"},
		"Tags": &types.AttributeValueMemberSS{Value: []string{"gift", "red"}}, "Blob": &types.AttributeValueMemberB{Value: []byte("hi")},
		"Sizes": &types.AttributeValueMemberNS{Value: []string{"42"}}, "Parts": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "gift"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := sqlRun(t, "", "--endpoint-url", s.URL, "-e", `SELECT Tags, "Blob", Sizes, Parts FROM "Orders" WHERE PK = 'T' AND SK = '1'`)
	want := "Blob           | Parts    | Sizes  | Tags\n---------------+----------+--------+------------------\nbinary('aGk=') | ['gift'] | <<42>> | <<'gift', 'red'>>\n"
	if code != 0 || !strings.HasPrefix(out, want) {
		t.Fatalf("exit %d\n%s\nwant\n%s%s", code, out, want, errs)
	}
}

// keyboard is a terminal as the line editor sees it: the keys typed,
// then the end of input, and everything written back.
type keyboard struct {
	keys *strings.Reader
	out  *bytes.Buffer
}

func (k keyboard) Read(p []byte) (int, error)  { return k.keys.Read(p) }
func (k keyboard) Write(p []byte) (int, error) { return k.out.Write(p) }

// TestSQLLineEditing: on a terminal the shell edits lines and recalls its
// statements: typed keys (as a VT100 terminal sends them) run through the
// editor the shell uses on one, without the terminal's raw mode.
func TestSQLLineEditing(t *testing.T) {
	s := sqlServer(t)
	const (
		up        = "\x1b[A"
		down      = "\x1b[B"
		left      = "\x1b[D"
		backspace = "\x7f"
		ctrlA     = "\x01"
		ctrlE     = "\x05"
		ctrlD     = "\x04"
		enter     = "\r"
	)
	hist := filepath.Join(t.TempDir(), "sql_history")
	if err := os.WriteFile(hist, []byte("SELECT Total FROM \"Orders\" WHERE PK = 'USER#3' AND SK = 'ORDER#0';\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, keys string
		ran        []string // the statements run, as the history keeps them
		totals     []string // the Total each printed
	}{
		{"typed", `SELECT Total FROM "Orders" WHERE PK = 'USER#1' AND SK = 'ORDER#2';` + enter + ctrlD,
			[]string{`SELECT Total FROM "Orders" WHERE PK = 'USER#1' AND SK = 'ORDER#2';`}, []string{"30"}},
		{"the last statement recalled and edited at its end", `SELECT Total FROM "Orders" WHERE PK = 'USER#1' AND SK = 'ORDER#2';` + enter +
			up + backspace + backspace + backspace + `5';` + enter + ctrlD,
			[]string{`SELECT Total FROM "Orders" WHERE PK = 'USER#1' AND SK = 'ORDER#2';`, `SELECT Total FROM "Orders" WHERE PK = 'USER#1' AND SK = 'ORDER#5';`}, []string{"30", "60"}},
		{"a statement of the history file, past the oldest and back, edited in the middle", `SELECT Total FROM "Orders" WHERE PK = 'USER#2' AND SK = 'ORDER#1';` + enter +
			up + up + up + down + up + ctrlA + ctrlE + strings.Repeat(left, len(`' AND SK = 'ORDER#0';`)) + backspace + "1" + enter + ctrlD,
			[]string{`SELECT Total FROM "Orders" WHERE PK = 'USER#2' AND SK = 'ORDER#1';`, `SELECT Total FROM "Orders" WHERE PK = 'USER#1' AND SK = 'ORDER#0';`}, []string{"30", "10"}},
		{"a word typed at the start of the line", `ELECT Total FROM "Orders" WHERE PK = 'USER#2' AND SK = 'ORDER#2';` + ctrlA + "S" + enter + ctrlD,
			[]string{`SELECT Total FROM "Orders" WHERE PK = 'USER#2' AND SK = 'ORDER#2';`}, []string{"40"}},
		{"a statement over two lines", `SELECT Total FROM "Orders"` + enter + `WHERE PK = 'USER#3' AND SK = 'ORDER#1'` + enter + enter + ctrlD,
			[]string{`SELECT Total FROM "Orders" WHERE PK = 'USER#3' AND SK = 'ORDER#1'`}, []string{"40"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "history")
			b, _ := os.ReadFile(hist)
			if err := os.WriteFile(file, b, 0o600); err != nil {
				t.Fatal(err)
			}
			client, err := sqlClient(context.Background(), s.URL, "", "")
			if err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			sh := &sqlShell{env: &Env{Ctx: context.Background(), Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, client: client, interactive: true, histFile: file}
			sh.lines = newEditor(keyboard{strings.NewReader(tc.keys), &out}, -1, sh)
			if err := sh.loop(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := sh.history[1:]; !reflect.DeepEqual(got, tc.ran) {
				t.Errorf("statements run:\n%q\nwant\n%q\n%s%s", got, tc.ran, out.String(), errb.String())
			}
			var totals []string
			for _, part := range strings.Split(out.String(), "Total\n-----\n")[1:] {
				totals = append(totals, strings.SplitN(part, "\n", 2)[0])
			}
			if !reflect.DeepEqual(totals, tc.totals) {
				t.Errorf("totals printed %q, want %q:\n%s%s", totals, tc.totals, out.String(), errb.String())
			}
		})
	}
}

// TestSQLPlainLines: without a terminal the shell reads its input as it
// comes: an escape sequence in a script is text, not a key.
func TestSQLPlainLines(t *testing.T) {
	p := &plainLines{in: bufio.NewReader(strings.NewReader("a\x1b[Ab\r\nlast")), out: io.Discard}
	var got []string
	for {
		line, err := p.readLine("> ")
		if line != "" {
			got = append(got, line)
		}
		if err != nil {
			break
		}
	}
	if want := []string{"a\x1b[Ab", "last"}; !reflect.DeepEqual(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
}
