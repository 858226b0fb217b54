package cli

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/dynago/dynago/toolkit/planner"
)

func init() {
	register(verb{name: "plan", summary: "explain (and run) an access pattern of a declared data model", run: runPlan})
}

const planSynopsis = `Reads a data model (JSON) declaring a table's request dimensions and its
indexes, and explains which index and keys answer a request, like EXPLAIN
in a SQL database:

  dynago plan --model examples/comments/model.json --where product=PRODUCT#42 --where rating=2,5
  dynago plan --model examples/comments/model.json --where product=PRODUCT#42 --where language=en --run

(examples/comments/model.json models the comments of examples/comments.) A
model names the table, the sort key its indexes share (results come
greatest first), the base table's keys, the dimensions (those with a
finite set of values list them), and each index's partition key built
from dimensions:

  {"table": "ProductComments", "sortKey": "GSISK", "tableKeys": ["PK", "SK"],
   "dimensions": [{"name": "product"}, {"name": "language"},
                  {"name": "rating", "values": ["1", "2", "3", "4", "5"]}],
   "indexes": [
     {"name": "all", "partitionKey": "GSI4PK", "format": "{product}"},
     {"name": "byLang", "partitionKey": "GSI2PK", "format": "{product}/{language}"},
     {"name": "byRating", "partitionKey": "GSI3PK", "format": "{product}/{rating}"},
     {"name": "byLangAndRating", "partitionKey": "GSI1PK", "format": "{product}/{language}/{rating}"}]}

The planner picks the index that needs no filter and the fewest queries; a
dimension given all of its values constrains nothing. With --run it runs
the plan against --endpoint-url and prints a page of items as JSON lines, then
the cursor for the next page (pass it back with --cursor).

` + awsSynopsis

// whereFlags collects repeated --where name=v1,v2 flags.
type whereFlags map[string][]string

func (w whereFlags) String() string { return fmt.Sprint(map[string][]string(w)) }

func (w whereFlags) Set(s string) error {
	name, vals, ok := strings.Cut(s, "=")
	if !ok || name == "" || vals == "" {
		return fmt.Errorf("want name=value[,value...], got %q", s)
	}
	w[name] = append(w[name], strings.Split(vals, ",")...)
	return nil
}

func runPlan(env *Env, args []string) error {
	fs := newFlagSet(env, "plan", planSynopsis)
	modelPath := fs.String("model", "", "the data model, a JSON file (required)")
	where := whereFlags{}
	fs.Var(where, "where", "a dimension's value or values, name=v1,v2; repeat for several dimensions")
	pageSize := fs.Int("page-size", 20, "items per page")
	run := fs.Bool("run", false, "run the plan and print a page of items")
	cursor := fs.String("cursor", "", "with --run: the cursor a previous page printed")
	target := addAWSFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *modelPath == "" {
		fmt.Fprintln(env.Stderr, "--model is required")
		return errUsage
	}
	data, err := os.ReadFile(*modelPath)
	if err != nil {
		return err
	}
	m, err := planner.ParseModel(data)
	if err != nil {
		return err
	}
	req := planner.Request{Where: where, PageSize: *pageSize, Cursor: *cursor}
	if !*run {
		p, err := (&planner.Planner{Model: m}).Plan(env.Ctx, req)
		if err != nil {
			return err
		}
		fmt.Fprintln(env.Stdout, p)
		return nil
	}
	client, err := target.dynamo(env.Ctx)
	if err != nil {
		return err
	}
	page, err := (&planner.Planner{Model: m, Client: client}).Run(env.Ctx, req)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, page.Plan)
	for _, it := range page.Items {
		names := make([]string, 0, len(it))
		for n := range it {
			names = append(names, n)
		}
		sort.Strings(names)
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = fmt.Sprintf("%q: %q", n, keyText(it[n]))
		}
		fmt.Fprintf(env.Stdout, "{%s}\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(env.Stdout, "%d items; read %d in %d queries (%.1f read units)\n", len(page.Items), page.Read, page.Queries, page.ReadUnits)
	if page.Cursor != "" {
		fmt.Fprintf(env.Stdout, "next page: --cursor %s\n", page.Cursor)
	}
	return nil
}
