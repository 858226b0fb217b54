package cli

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"golang.org/x/term"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/partiql"
)

func init() {
	register(verb{name: "sql", summary: "a PartiQL shell (ExecuteStatement) against dynago or DynamoDB; --explain shows how a statement runs", run: runSQL})
}

const sqlSynopsis = `Runs PartiQL statements (ExecuteStatement) against any DynamoDB endpoint:
dynago's by default, AWS's with --endpoint-url aws. Without -e or --explain
it reads statements from standard input, interactively on a terminal.

  dynago sql                                    # a shell on http://127.0.0.1:8000
  dynago sql -e 'SELECT * FROM "Orders" WHERE PK = ''USER#alex'''
  echo 'SELECT * FROM "Orders";' | dynago sql --output json
  dynago sql --endpoint-url aws --region eu-west-1 -e 'SELECT * FROM "Orders"' --all
  dynago sql --explain 'SELECT * FROM "Orders"."byStatus" WHERE status = ''SHIPPED'''

A statement ends with ";" at the end of a line or with a blank line, so it
may span lines. On a terminal the shell edits lines (arrows, Home, End,
Ctrl-A, Ctrl-E, Ctrl-K, Ctrl-U, Ctrl-W) and up and down recall the
statements run, those of --history's file included; Ctrl-D on an empty
line, or Ctrl-C, quits. Piped input is read line by line as it is. In the
shell:

  EXPLAIN <statement>   how the statement runs, without running it
  \history              the statements run so far (also kept in --history)
  \help                 this list
  \q                    quit (so does end of input)

Results print as an aligned table, each value by its DynamoDB type in
PartiQL's notation: 'string' (a quote doubled), 42, <<'a', 'b'>> and
<<1, 2>> for sets, [list], {'name': value}, true, NULL, and a binary as
binary('<base64>'). With --output json they print as one JSON object per
line (plain JSON, or DynamoDB JSON with --dynamodb-json). After
each statement the shell prints the items returned and the capacity
consumed (ReturnConsumedCapacity TOTAL). A result of several pages stops
after the first: press enter for the next on a terminal, or pass --all.
Errors print as DynamoDB words them: "ValidationException: ...".

--explain (or EXPLAIN in the shell) says which operation the statement
runs as (GetItem, Query per partition key value, or Scan), on which table
or index, its key condition and the filter that remains, the DynamoDB
request it amounts to, and what it bills against what it returns. It reads
the table's description (DescribeTable) and plans with the same planner
as dynago's engine, so it works against AWS too.

Credentials, region and profile come from the AWS SDK's usual sources
(environment, ~/.aws/config and credentials, AWS_PROFILE); AWS_ENDPOINT_URL
and AWS_ENDPOINT_URL_DYNAMODB choose the endpoint when --endpoint-url is
not given. Against a non-AWS endpoint without credentials, dummy ones are
used.`

// defaultSQLEndpoint is serve's default address.
const defaultSQLEndpoint = defaultEndpoint

func runSQL(env *Env, args []string) error {
	fs := newFlagSet(env, "sql", sqlSynopsis)
	endpoint := fs.String("endpoint-url", "", `the endpoint; "aws" for AWS's own (default: AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL, else `+defaultSQLEndpoint+`)`)
	region := fs.String("region", "", "the region (default: the SDK's configuration, else us-east-1)")
	profile := fs.String("profile", "", "the shared config profile (default: AWS_PROFILE)")
	output := fs.String("output", "table", "table or json")
	ddbJSON := fs.Bool("dynamodb-json", false, `with --output json, items in DynamoDB JSON ({"S": "x"}) instead of plain JSON`)
	all := fs.Bool("all", false, "read every page of a result instead of stopping after the first")
	consistent := fs.Bool("consistent-read", false, "ConsistentRead on SELECTs")
	stmt := fs.String("e", "", "run this statement and exit")
	explain := fs.String("explain", "", "explain this statement without running it, and exit")
	history := fs.String("history", defaultHistoryFile(), `file the shell appends its statements to ("" for none)`)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *output != "table" && *output != "json" {
		fmt.Fprintf(env.Stderr, "--output: want table or json, got %q\n", *output)
		return errUsage
	}
	client, err := sqlClient(env.Ctx, *endpoint, *region, *profile)
	if err != nil {
		return err
	}
	sh := &sqlShell{env: env, client: client, json: *output == "json", ddbJSON: *ddbJSON, all: *all, consistent: *consistent}
	switch {
	case *explain != "":
		return sh.explain(env.Ctx, *explain)
	case *stmt != "":
		return sh.execute(env.Ctx, *stmt)
	}
	sh.interactive = isTerminal(env.Stdin)
	sh.histFile = *history
	if f, ok := env.Stdin.(*os.File); ok && sh.interactive && term.IsTerminal(int(f.Fd())) {
		// Line editing and history on a terminal; a script on standard
		// input is read line by line as it is.
		sh.lines = newEditor(struct {
			io.Reader
			io.Writer
		}{f, env.Stdout}, int(f.Fd()), sh)
	}
	return sh.loop(env.Ctx)
}

// sqlClient is a DynamoDB client from the SDK's configuration, pointed
// at endpoint, as every verb that talks to an endpoint gets one
// (awsTarget).
func sqlClient(ctx context.Context, endpoint, region, profile string) (*dynamodb.Client, error) {
	return (&awsTarget{endpoint: endpoint, region: region, profile: profile}).dynamo(ctx)
}

// defaultHistoryFile is dynago/sql_history in the user's config
// directory, or "" without one.
func defaultHistoryFile() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "dynago", "sql_history")
}

// isTerminal reports whether r is a character device (a terminal).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// sqlShell runs statements and prints their results.
type sqlShell struct {
	env                     *Env
	client                  *dynamodb.Client
	json, ddbJSON, all      bool
	consistent, interactive bool
	histFile                string
	// keyNames caches the key attributes of each table read, which a
	// table of results shows first.
	keyNames map[string][]string
	history  []string
	lines    lineReader
	failed   int
}

// lineReader reads the shell's input a line at a time, showing prompt
// first when it shows any. At the end of the input it returns io.EOF
// (with what was read of a last line without a newline, if anything;
// then io.EOF again).
type lineReader interface {
	readLine(prompt string) (string, error)
}

// plainLines reads lines as they come: a script, or a terminal that
// cannot edit.
type plainLines struct {
	in     *bufio.Reader
	out    io.Writer
	prompt bool
}

func (p *plainLines) readLine(prompt string) (string, error) {
	if p.prompt {
		fmt.Fprint(p.out, prompt)
	}
	line, err := p.in.ReadString('\n')
	if err != nil && line != "" {
		err = nil
	}
	return strings.TrimRight(line, "\r\n"), err
}

// editor reads lines from a terminal with line editing (golang.org/x/term's
// Terminal: arrows, Home and End, Ctrl-A, -E, -K, -U, -W, Alt-arrows by
// word) and the shell's statements as history: up and down recall them,
// the ones loaded from the history file included. Ctrl-D on an empty line,
// or Ctrl-C, ends the input.
type editor struct {
	t  *term.Terminal
	fd int // the terminal put in raw mode while a line is read; -1 for none
}

// newEditor edits lines on rw, a terminal's input and output; fd is that
// terminal's, or -1 when rw needs no raw mode (as in tests).
func newEditor(rw io.ReadWriter, fd int, sh *sqlShell) *editor {
	t := term.NewTerminal(rw, "")
	t.History = statementHistory{sh}
	return &editor{t: t, fd: fd}
}

func (e *editor) readLine(prompt string) (string, error) {
	if e.fd >= 0 {
		// Raw only while a line is read: what the shell prints between
		// lines goes to the terminal as usual.
		if old, err := term.MakeRaw(e.fd); err == nil {
			defer term.Restore(e.fd, old)
		}
		if w, h, err := term.GetSize(e.fd); err == nil && w > 0 && h > 0 {
			e.t.SetSize(w, h)
		}
	}
	e.t.SetPrompt(prompt)
	line, err := e.t.ReadLine()
	if errors.Is(err, term.ErrPasteIndicator) {
		err = nil
	}
	return line, err
}

// statementHistory is the editor's history: the shell's statements, the
// newest first, each on one line. The lines the editor reads are not
// added one by one; the shell adds each statement it runs (remember).
type statementHistory struct{ sh *sqlShell }

func (statementHistory) Add(string) {}

func (h statementHistory) Len() int { return len(h.sh.history) }

func (h statementHistory) At(i int) string { return h.sh.history[len(h.sh.history)-1-i] }

// errStatement reports that a statement failed; the shell has printed why.
var errStatement = errors.New("a statement failed")

// loop reads statements until the end of input or \q.
func (s *sqlShell) loop(ctx context.Context) error {
	if s.lines == nil {
		s.lines = &plainLines{in: bufio.NewReader(s.env.Stdin), out: s.env.Stdout, prompt: s.interactive}
	}
	s.loadHistory()
	if s.interactive {
		fmt.Fprintln(s.env.Stdout, `dynago sql: end statements with ";" or a blank line; \help for help, \q to quit.`)
	}
	var buf []string
	for {
		prompt := "dynago> "
		if len(buf) > 0 {
			prompt = "   ...> "
		}
		line, err := s.lines.readLine(prompt)
		eof := err != nil
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, `\`) {
			// A command ends the statement before it.
			if len(buf) > 0 {
				s.run(ctx, strings.Join(buf, "\n"))
				buf = nil
			}
			if quit := s.command(trimmed); quit {
				break
			}
		} else if trimmed == "" {
			if len(buf) > 0 {
				s.run(ctx, strings.Join(buf, "\n"))
				buf = nil
			}
		} else {
			buf = append(buf, line)
			if strings.HasSuffix(trimmed, ";") {
				s.run(ctx, strings.Join(buf, "\n"))
				buf = nil
			}
		}
		if eof {
			if len(buf) > 0 {
				s.run(ctx, strings.Join(buf, "\n"))
			}
			break
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if s.failed > 0 && !s.interactive {
		return fmt.Errorf("%d statement(s) failed", s.failed)
	}
	return nil
}

// command runs a backslash command; it reports \q.
func (s *sqlShell) command(c string) bool {
	switch strings.Fields(c)[0] {
	case `\q`, `\quit`:
		return true
	case `\history`, `\hist`:
		for i, h := range s.history {
			fmt.Fprintf(s.env.Stdout, "%4d  %s\n", i+1, h)
		}
	case `\help`, `\?`:
		fmt.Fprintln(s.env.Stdout, sqlSynopsis)
	default:
		fmt.Fprintf(s.env.Stderr, "unknown command %s (\\help lists them)\n", c)
	}
	return false
}

// run runs one statement of the shell, EXPLAIN included, recording it.
func (s *sqlShell) run(ctx context.Context, stmt string) {
	s.remember(stmt)
	var err error
	if rest, ok := cutWord(stmt, "EXPLAIN"); ok {
		err = s.explain(ctx, rest)
	} else {
		err = s.execute(ctx, stmt)
	}
	if err != nil {
		s.failed++
		if !errors.Is(err, errStatement) {
			fmt.Fprintln(s.env.Stderr, err)
		}
	}
}

// cutWord cuts a leading keyword, in any case, from s.
func cutWord(s, word string) (string, bool) {
	t := strings.TrimSpace(s)
	if len(t) > len(word) && strings.EqualFold(t[:len(word)], word) && (t[len(word)] == ' ' || t[len(word)] == '\n' || t[len(word)] == '\t') {
		return strings.TrimSpace(t[len(word):]), true
	}
	return s, false
}

// remember adds a statement to the history and its file.
func (s *sqlShell) remember(stmt string) {
	one := strings.Join(strings.Fields(stmt), " ")
	s.history = append(s.history, one)
	if s.histFile == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(s.histFile), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(s.histFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	fmt.Fprintln(f, one)
	f.Close()
}

// loadHistory reads the history file's last 1,000 statements.
func (s *sqlShell) loadHistory() {
	if s.histFile == "" {
		return
	}
	b, err := os.ReadFile(s.histFile)
	if err != nil {
		return
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > 1000 {
		lines = lines[len(lines)-1000:]
	}
	for _, l := range lines {
		if l != "" {
			s.history = append(s.history, l)
		}
	}
}

// info is where notes about a result go: beside the table, or on
// standard error so that JSON output stays JSON.
func (s *sqlShell) info() io.Writer {
	if s.json {
		return s.env.Stderr
	}
	return s.env.Stdout
}

// execute runs a statement, page by page.
func (s *sqlShell) execute(ctx context.Context, stmt string) error {
	in := &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	if s.consistent {
		in.ConsistentRead = aws.Bool(true)
	}
	items, units := 0, 0.0
	for {
		out, err := s.client.ExecuteStatement(ctx, in)
		if err != nil {
			fmt.Fprintln(s.env.Stderr, apiErrorText(err))
			return errStatement
		}
		items += len(out.Items)
		if cc := out.ConsumedCapacity; cc != nil && cc.CapacityUnits != nil {
			units += *cc.CapacityUnits
		}
		if err := s.printItems(out.Items, s.keysOf(ctx, stmt)); err != nil {
			return err
		}
		if out.NextToken == nil {
			break
		}
		in.NextToken = out.NextToken
		if s.all {
			continue
		}
		if !s.interactive || s.lines == nil {
			fmt.Fprintln(s.info(), "-- more rows: pass --all to read every page")
			break
		}
		line, err := s.lines.readLine("-- more rows: press enter (q and enter to stop) ")
		if err != nil || strings.TrimSpace(line) != "" {
			break
		}
	}
	fmt.Fprintf(s.info(), "-- %d item(s), consumed %s capacity unit(s)\n", items, strconv.FormatFloat(units, 'f', -1, 64))
	return nil
}

// keysOf returns the key attributes of the table (and index) a SELECT
// reads, from a DescribeTable made once per table; nil when the
// statement is not a SELECT or the description cannot be had (the table
// then lists its columns in name order).
func (s *sqlShell) keysOf(ctx context.Context, stmt string) []string {
	if s.json {
		return nil
	}
	st, err := partiql.Parse(stmt)
	if err != nil || st.Kind != partiql.Select {
		return nil
	}
	id := st.Table + "\x00" + st.Index
	if keys, ok := s.keyNames[id]; ok {
		return keys
	}
	var keys []string
	if out, err := s.client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(st.Table)}); err == nil {
		add := func(ks []types.KeySchemaElement) {
			for _, k := range ks {
				if n := aws.ToString(k.AttributeName); !slices.Contains(keys, n) {
					keys = append(keys, n)
				}
			}
		}
		for _, g := range out.Table.GlobalSecondaryIndexes {
			if aws.ToString(g.IndexName) == st.Index {
				add(g.KeySchema)
			}
		}
		for _, l := range out.Table.LocalSecondaryIndexes {
			if aws.ToString(l.IndexName) == st.Index {
				add(l.KeySchema)
			}
		}
		add(out.Table.KeySchema)
	}
	if s.keyNames == nil {
		s.keyNames = map[string][]string{}
	}
	s.keyNames[id] = keys
	return keys
}

// apiErrorText words an error as DynamoDB does: "Code: message".
func apiErrorText(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode() + ": " + ae.ErrorMessage()
	}
	return err.Error()
}

// printItems prints a page of items.
func (s *sqlShell) printItems(items []map[string]types.AttributeValue, keys []string) error {
	w := s.env.Stdout
	if s.json {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, it := range items {
			var v any
			if s.ddbJSON {
				v = ddbJSONItem(it)
			} else {
				v = plainItem(it)
			}
			if err := enc.Encode(v); err != nil {
				return err
			}
		}
		return nil
	}
	if len(items) == 0 {
		return nil
	}
	var cols []string
	seen := map[string]bool{}
	for _, it := range items {
		for k := range it {
			if !seen[k] {
				seen[k] = true
				cols = append(cols, k)
			}
		}
	}
	sort.SliceStable(cols, func(i, j int) bool {
		ki, kj := slices.Index(keys, cols[i]), slices.Index(keys, cols[j])
		switch {
		case ki >= 0 && kj >= 0:
			return ki < kj
		case ki >= 0 || kj >= 0:
			return ki >= 0
		}
		return cols[i] < cols[j]
	})
	rows := make([][]string, len(items))
	width := make([]int, len(cols))
	for i, c := range cols {
		width[i] = len([]rune(c))
	}
	for r, it := range items {
		rows[r] = make([]string, len(cols))
		for i, c := range cols {
			if v, ok := it[c]; ok {
				rows[r][i] = cellText(v)
			}
			width[i] = max(width[i], len([]rune(rows[r][i])))
		}
	}
	line := func(cells []string) {
		var sb strings.Builder
		for i, c := range cells {
			if i > 0 {
				sb.WriteString(" | ")
			}
			sb.WriteString(c)
			if i < len(cells)-1 {
				sb.WriteString(strings.Repeat(" ", width[i]-len([]rune(c))))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(sb.String(), " "))
	}
	line(cols)
	rule := make([]string, len(cols))
	for i := range cols {
		rule[i] = strings.Repeat("-", width[i])
	}
	fmt.Fprintln(w, strings.Join(rule, "-+-"))
	for _, r := range rows {
		line(r)
	}
	return nil
}

// cellText writes a value for a table cell by its DynamoDB type, in
// PartiQL's notation for DynamoDB
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.data-types.html):
// strings in single quotes (a quote doubled), numbers bare, sets in
// << >>, lists in [ ], maps in { } with quoted names in order, booleans
// and NULL as words. PartiQL has no binary literal ("only supported via
// code"): a binary is binary('<base64>'). A newline in a string shows as
// \n, so that a row stays one line.
func cellText(v types.AttributeValue) string {
	var sb strings.Builder
	writeValue(&sb, v)
	return sb.String()
}

func writeValue(sb *strings.Builder, v types.AttributeValue) {
	quoted := func(s string) {
		sb.WriteByte('\'')
		sb.WriteString(strings.NewReplacer("'", "''", "\n", `\n`, "\r", `\r`).Replace(s))
		sb.WriteByte('\'')
	}
	binary := func(b []byte) {
		sb.WriteString("binary('")
		sb.WriteString(base64.StdEncoding.EncodeToString(b))
		sb.WriteString("')")
	}
	list := func(open, close string, n int, each func(i int)) {
		sb.WriteString(open)
		for i := 0; i < n; i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			each(i)
		}
		sb.WriteString(close)
	}
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		quoted(x.Value)
	case *types.AttributeValueMemberN:
		sb.WriteString(x.Value)
	case *types.AttributeValueMemberB:
		binary(x.Value)
	case *types.AttributeValueMemberBOOL:
		sb.WriteString(strconv.FormatBool(x.Value))
	case *types.AttributeValueMemberNULL:
		sb.WriteString("NULL")
	case *types.AttributeValueMemberSS:
		list("<<", ">>", len(x.Value), func(i int) { quoted(x.Value[i]) })
	case *types.AttributeValueMemberNS:
		list("<<", ">>", len(x.Value), func(i int) { sb.WriteString(x.Value[i]) })
	case *types.AttributeValueMemberBS:
		list("<<", ">>", len(x.Value), func(i int) { binary(x.Value[i]) })
	case *types.AttributeValueMemberL:
		list("[", "]", len(x.Value), func(i int) { writeValue(sb, x.Value[i]) })
	case *types.AttributeValueMemberM:
		names := slices.Sorted(maps.Keys(x.Value))
		list("{", "}", len(names), func(i int) {
			quoted(names[i])
			sb.WriteString(": ")
			writeValue(sb, x.Value[names[i]])
		})
	}
}

// plainItem and plainValue are an item as plain JSON: numbers keep their
// digits, sets are arrays, binary is base64.
func plainItem(it map[string]types.AttributeValue) map[string]any {
	m := make(map[string]any, len(it))
	for k, v := range it {
		m[k] = plainValue(v)
	}
	return m
}

func plainValue(v types.AttributeValue) any {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return x.Value
	case *types.AttributeValueMemberN:
		return json.Number(x.Value)
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(x.Value)
	case *types.AttributeValueMemberBOOL:
		return x.Value
	case *types.AttributeValueMemberNULL:
		return nil
	case *types.AttributeValueMemberSS:
		return x.Value
	case *types.AttributeValueMemberNS:
		ns := make([]json.Number, len(x.Value))
		for i, n := range x.Value {
			ns[i] = json.Number(n)
		}
		return ns
	case *types.AttributeValueMemberBS:
		bs := make([]string, len(x.Value))
		for i, b := range x.Value {
			bs[i] = base64.StdEncoding.EncodeToString(b)
		}
		return bs
	case *types.AttributeValueMemberL:
		l := make([]any, len(x.Value))
		for i, e := range x.Value {
			l[i] = plainValue(e)
		}
		return l
	case *types.AttributeValueMemberM:
		return plainItem(x.Value)
	}
	return nil
}

// ddbJSONItem and ddbJSONValue are an item in DynamoDB JSON.
func ddbJSONItem(it map[string]types.AttributeValue) map[string]any {
	m := make(map[string]any, len(it))
	for k, v := range it {
		m[k] = ddbJSONValue(v)
	}
	return m
}

func ddbJSONValue(v types.AttributeValue) any {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": x.Value}
	case *types.AttributeValueMemberN:
		return map[string]any{"N": x.Value}
	case *types.AttributeValueMemberB:
		return map[string]any{"B": x.Value}
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": x.Value}
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": true}
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": x.Value}
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": x.Value}
	case *types.AttributeValueMemberBS:
		return map[string]any{"BS": x.Value}
	case *types.AttributeValueMemberL:
		l := make([]any, len(x.Value))
		for i, e := range x.Value {
			l[i] = ddbJSONValue(e)
		}
		return map[string]any{"L": l}
	case *types.AttributeValueMemberM:
		return map[string]any{"M": ddbJSONItem(x.Value)}
	}
	return nil
}

// explain prints how a statement runs, from the table's description.
func (s *sqlShell) explain(ctx context.Context, stmt string) error {
	e, err := ExplainSQL(ctx, s.client, stmt, s.consistent)
	if err != nil {
		fmt.Fprintln(s.env.Stderr, apiErrorText(err))
		return errStatement
	}
	fmt.Fprint(s.env.Stdout, e.String())
	return nil
}

// ExplainSQL explains a statement against the endpoint of client:
// partiql.ExplainStatement on the DescribeTable of the table it names.
func ExplainSQL(ctx context.Context, client *dynamodb.Client, stmt string, consistent bool) (*partiql.Explanation, error) {
	e, err := partiql.ExplainStatement(&partiql.ExplainInput{Statement: stmt, ConsistentRead: consistent}, func(table string) (*dynamo.TableDescription, error) {
		out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		if err != nil {
			return nil, err
		}
		return describedTable(out.Table), nil
	})
	var ee *dynamo.Error
	if errors.As(err, &ee) {
		return nil, &smithy.GenericAPIError{Code: ee.Code, Message: ee.Message}
	}
	return e, err
}

// describedTable is what explaining needs of an SDK table description.
func describedTable(t *types.TableDescription) *dynamo.TableDescription {
	keys := func(ks []types.KeySchemaElement) []dynamo.KeySchemaElement {
		out := make([]dynamo.KeySchemaElement, len(ks))
		for i, k := range ks {
			out[i] = dynamo.KeySchemaElement{AttributeName: aws.ToString(k.AttributeName), KeyType: string(k.KeyType)}
		}
		return out
	}
	proj := func(p *types.Projection) dynamo.Projection {
		if p == nil {
			return dynamo.Projection{ProjectionType: "ALL"}
		}
		return dynamo.Projection{ProjectionType: string(p.ProjectionType), NonKeyAttributes: p.NonKeyAttributes}
	}
	d := &dynamo.TableDescription{TableName: aws.ToString(t.TableName), KeySchema: keys(t.KeySchema)}
	for _, a := range t.AttributeDefinitions {
		d.AttributeDefinitions = append(d.AttributeDefinitions, dynamo.AttributeDefinition{AttributeName: aws.ToString(a.AttributeName), AttributeType: string(a.AttributeType)})
	}
	for _, g := range t.GlobalSecondaryIndexes {
		d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, dynamo.GlobalSecondaryIndexDescription{IndexName: aws.ToString(g.IndexName), KeySchema: keys(g.KeySchema), Projection: proj(g.Projection)})
	}
	for _, l := range t.LocalSecondaryIndexes {
		d.LocalSecondaryIndexes = append(d.LocalSecondaryIndexes, dynamo.LocalSecondaryIndexDescription{IndexName: aws.ToString(l.IndexName), KeySchema: keys(l.KeySchema), Projection: proj(l.Projection)})
	}
	return d
}
