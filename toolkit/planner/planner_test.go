package planner

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// commentsModel is seed 002's design: four GSIs sharing the date sort key.
const commentsModel = `{
  "table": "Comments", "sortKey": "GSISK", "tableKeys": ["PK", "SK"],
  "dimensions": [
    {"name": "product"}, {"name": "language"},
    {"name": "rating", "values": ["1", "2", "3", "4", "5"]}
  ],
  "indexes": [
    {"name": "all", "partitionKey": "GSI4PK", "format": "PRODUCT#{product}"},
    {"name": "byLang", "partitionKey": "GSI2PK", "format": "PRODUCT#{product}/{language}"},
    {"name": "byRating", "partitionKey": "GSI3PK", "format": "PRODUCT#{product}/{rating}"},
    {"name": "byLangAndRating", "partitionKey": "GSIPK", "format": "PRODUCT#{product}/{language}/{rating}"}
  ]
}`

func TestPlanChoices(t *testing.T) {
	m, err := ParseModel([]byte(commentsModel))
	if err != nil {
		t.Fatal(err)
	}
	pl := &Planner{Model: m}
	cases := []struct {
		where     map[string][]string
		index     string
		keys      []string
		explained string
	}{
		// AP1: everything for a product.
		{map[string][]string{"product": {"42"}}, "all", []string{"PRODUCT#42"}, `Query index all where GSI4PK = "PRODUCT#42"`},
		// AP2: one language.
		{map[string][]string{"product": {"42"}, "language": {"en"}}, "byLang", []string{"PRODUCT#42/en"}, "byLang"},
		// AP2 again: all five ratings filter nothing.
		{map[string][]string{"product": {"42"}, "language": {"en"}, "rating": {"5", "4", "3", "2", "1"}}, "byLang", []string{"PRODUCT#42/en"}, "any rating"},
		// AP3a: some ratings in one language, one query each.
		{map[string][]string{"product": {"42"}, "language": {"en"}, "rating": {"5", "2", "3"}}, "byLangAndRating", []string{"PRODUCT#42/en/2", "PRODUCT#42/en/3", "PRODUCT#42/en/5"}, "3 parallel Queries"},
		// AP3b: one rating, any language.
		{map[string][]string{"product": {"42"}, "rating": {"2"}}, "byRating", []string{"PRODUCT#42/2"}, "byRating"},
		// AP3c: several ratings, any language.
		{map[string][]string{"product": {"42"}, "rating": {"3", "5"}}, "byRating", []string{"PRODUCT#42/3", "PRODUCT#42/5"}, "merged newest first"},
	}
	for _, c := range cases {
		p, err := pl.Plan(context.Background(), Request{Where: c.where, PageSize: 20})
		if err != nil {
			t.Fatal(err)
		}
		if p.Index != c.index || !slices.Equal(p.Keys, c.keys) || !strings.Contains(p.String(), c.explained) {
			t.Errorf("%v: got %s %v\n%s", c.where, p.Index, p.Keys, p)
		}
	}
	for _, bad := range []map[string][]string{
		{"language": {"en"}},           // no product: every index needs it
		{"product": {"1"}, "x": {"y"}}, // unknown dimension
		{"product": {"1"}, "rating": {"6"}},
	} {
		if _, err := pl.Plan(context.Background(), Request{Where: bad}); err == nil {
			t.Errorf("%v planned", bad)
		}
	}
}

// mergeModel partitions one table by product, language and rating, so a
// request for several languages and ratings merges many branches.
const mergeModel = `{
  "table": "Merge", "sortKey": "date", "tableKeys": ["pk", "date"],
  "dimensions": [
    {"name": "product"},
    {"name": "language", "values": ["de", "en", "fr"]},
    {"name": "rating", "values": ["1", "2", "3", "4", "5"]}
  ],
  "indexes": [{"name": "", "partitionKey": "pk", "format": "P#{product}/{language}/{rating}"}]
}`

type comment struct {
	pk, date string
	lang     string
	rating   string
}

// TestMergedPaginationIsExact is the property test: over random data with
// many ties across branches, random requests and page sizes, paging with
// the cursor yields exactly a full sort of the matching items (date
// newest first, ties in branch order), and each page reads little more
// than it returns.
func TestMergedPaginationIsExact(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	_, err := s.Client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String("Merge"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("date"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("date"), KeyType: types.KeyTypeRange},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("Counts"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("k"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("k"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseModel([]byte(mergeModel))
	if err != nil {
		t.Fatal(err)
	}
	counters := &Counters{Client: s.Client, Table: "Counts", KeyAttr: "k", CountAttr: "n", Prefix: "COUNT#"}
	r := rand.New(rand.NewPCG(1, 2))
	var all []comment
	for _, lang := range []string{"de", "en", "fr"} {
		for _, rating := range []string{"1", "2", "3", "4", "5"} {
			if lang == "de" && rating == "3" {
				continue // an empty branch, counted at zero
			}
			pk := "P#42/" + lang + "/" + rating
			// Few distinct dates: many ties across branches.
			n := r.IntN(30)
			dates := r.Perm(40)[:n]
			for _, d := range dates {
				all = append(all, comment{pk: pk, date: fmt.Sprintf("2024-05-%02d", 1+d%30) + fmt.Sprintf("T%02d", d/30), lang: lang, rating: rating})
			}
			if err := counters.Add(ctx, pk, int64(n)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := counters.Add(ctx, "P#42/de/3", 0); err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		_, err := s.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Merge"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: c.pk}, "date": &types.AttributeValueMemberS{Value: c.date},
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	pl := &Planner{Model: m, Client: s.Client, Counts: counters.Counts}
	for trial := 0; trial < 60; trial++ {
		where := map[string][]string{"product": {"42"}}
		if r.IntN(2) == 0 {
			where["language"] = pick(r, []string{"de", "en", "fr"})
		}
		if r.IntN(3) > 0 {
			where["rating"] = pick(r, []string{"1", "2", "3", "4", "5"})
		}
		size := 1 + r.IntN(25)
		plan, err := pl.Plan(ctx, Request{Where: where, PageSize: size})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(plan.Keys, "P#42/de/3") {
			t.Fatalf("the empty branch was not skipped: %s", plan)
		}
		want := expected(all, plan, where)
		var got []string
		cur := ""
		for pages := 0; ; pages++ {
			if pages > len(want)+2 {
				t.Fatalf("%v size %d: paging does not end", where, size)
			}
			page, err := pl.Run(ctx, Request{Where: where, PageSize: size, Cursor: cur})
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Items) > size {
				t.Fatalf("page of %d items, size %d", len(page.Items), size)
			}
			if n := len(plan.Keys); page.Read > 2*size+2*n {
				t.Fatalf("%v size %d, %d branches: a page read %d items", where, size, n, page.Read)
			}
			for _, it := range page.Items {
				got = append(got, it["pk"].(*types.AttributeValueMemberS).Value+"|"+it["date"].(*types.AttributeValueMemberS).Value)
			}
			if page.Cursor == "" {
				break
			}
			if len(page.Items) < size {
				t.Fatalf("a short page (%d of %d) before the end", len(page.Items), size)
			}
			cur = page.Cursor
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%v size %d:\n got %v\nwant %v", where, size, got, want)
		}
	}
}

func pick(r *rand.Rand, vals []string) []string {
	var out []string
	for _, v := range vals {
		if r.IntN(2) == 0 {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		out = vals[:1]
	}
	return out
}

// expected is the brute force: every matching comment, sorted by date
// newest first, ties in the plan's branch order.
func expected(all []comment, plan *Plan, where map[string][]string) []string {
	branch := map[string]int{}
	for i, k := range plan.Keys {
		branch[k] = i
	}
	var match []comment
	for _, c := range all {
		if l, ok := where["language"]; ok && !slices.Contains(l, c.lang) {
			continue
		}
		if r, ok := where["rating"]; ok && !slices.Contains(r, c.rating) {
			continue
		}
		match = append(match, c)
	}
	sort.Slice(match, func(i, j int) bool {
		if match[i].date != match[j].date {
			return match[i].date > match[j].date
		}
		return branch[match[i].pk] < branch[match[j].pk]
	})
	out := make([]string, len(match))
	for i, c := range match {
		out[i] = c.pk + "|" + c.date
	}
	return out
}
