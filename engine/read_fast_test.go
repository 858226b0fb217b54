package engine

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

// randomAttr returns a random valid attribute value of any type, nested
// maps and lists included.
func randomAttr(r *rand.Rand, depth int) attr.Value {
	strs := []string{"", "a", "ab", "abc", "b", "é𝄞", "x\"y\\z\n", "\u2028", "zz top"}
	nums := []string{"0", "1", "-1", "2", "2.50", "1e3", "-0.001", "123456789012345678901234567890", "7"}
	k := r.IntN(10)
	if depth > 3 && (k == 6 || k == 7) {
		k = r.IntN(6)
	}
	switch k {
	case 0:
		return attr.S(strs[r.IntN(len(strs))])
	case 1:
		return attr.N(nums[r.IntN(len(nums))])
	case 2:
		return attr.B([]byte(strs[r.IntN(len(strs))]))
	case 3:
		return attr.Bool(r.IntN(2) == 0)
	case 4:
		return attr.Null()
	case 5:
		ss := map[string]bool{}
		for range r.IntN(4) + 1 {
			ss[strs[r.IntN(len(strs))]] = true
		}
		v := attr.Value{Type: attr.TypeSS}
		for s := range ss {
			v.SS = append(v.SS, s)
		}
		if r.IntN(2) == 0 {
			v.Type = attr.TypeBS
			for s := range ss {
				v.BS = append(v.BS, []byte(s))
			}
			v.SS = nil
		}
		if v.Type == attr.TypeSS && ss[""] || v.Type == attr.TypeBS && ss[""] {
			delete(ss, "")
			return attr.S("no empty set member")
		}
		return v
	case 6:
		m := map[string]attr.Value{}
		for range r.IntN(4) {
			m[fmt.Sprint("k", r.IntN(4))] = randomAttr(r, depth+1)
		}
		return attr.Value{Type: attr.TypeM, M: m}
	case 7:
		l := make([]attr.Value, r.IntN(4))
		for i := range l {
			l[i] = randomAttr(r, depth+1)
		}
		return attr.Value{Type: attr.TypeL, L: l}
	case 8:
		ns := map[string]bool{}
		for range r.IntN(4) + 1 {
			ns[nums[r.IntN(len(nums))]] = true
		}
		v := attr.Value{Type: attr.TypeNS}
		for s := range ns {
			v.SS = append(v.SS, s)
		}
		return v
	}
	return attr.S(strings.Repeat("s", r.IntN(50)))
}

// TestScanFastPathsMatch checks, on random items of every type, that a
// Scan's filter given only the attributes it names keeps exactly the items
// the filter keeps when evaluated on whole items, and that the items a
// Scan returns in their stored encoding are the items it returns decoded.
func TestScanFastPathsMatch(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	mustCreate(t, db, "fast", true)
	r := rand.New(rand.NewPCG(29, 3))
	names := []string{"s", "n", "b", "flag", "nul", "m", "l", "ss", "ns", "bs", "x"}
	for i := 0; i < 400; i++ {
		it := attr.Item{"pk": attr.S(fmt.Sprint("p", i%7)), "sk": attr.N(fmt.Sprint(i))}
		for _, name := range names {
			if r.IntN(5) > 0 {
				it[name] = randomAttr(r, 1)
			}
		}
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "fast", Item: it}); err != nil {
			t.Fatalf("put %v: %v", it, err)
		}
	}
	values := attr.Item{
		":a": attr.S("a"), ":n": attr.N("1"), ":lo": attr.N("-1"), ":hi": attr.N("2.5"),
		":b": attr.B([]byte("a")), ":two": attr.N("2"), ":t": attr.Bool(true), ":nul": attr.Null(),
		":abc": attr.S("abc"), ":M": attr.S("M"), ":big": attr.N("123456789012345678901234567890"),
	}
	filters := []string{
		"attribute_exists(#s)",
		"attribute_not_exists(m.k1)",
		"attribute_type(m, :M) AND attribute_exists(m.k0)",
		"begins_with(s, :a)",
		"begins_with(b, :b)",
		"contains(s, :a) OR contains(ss, :a) OR contains(bs, :b)",
		"contains(ns, :n) OR contains(l, :n) OR contains(l, :a)",
		"size(s) > :two",
		"size(m) = :two OR size(l) >= :two OR size(ss) < :two OR size(b) <= :two",
		"n < :n", "n <= :n", "n > :hi", "n >= :big", "n = :n", "n <> :n",
		"s < :abc", "b > :b",
		"n BETWEEN :lo AND :hi",
		"s IN (:a, :abc, :n)",
		"m.k0 = :n OR NOT (n > :n)",
		"l[0] = :n OR attribute_exists(l[1])",
		"attribute_exists(l[1].k0) OR attribute_exists(m.k2[0]) OR m.k0.k1 = :t",
		"flag = :t AND NOT nul = :nul",
		"nul = :nul OR x = :n",
		"sk > :hi AND (s = :a OR NOT contains(s, :a))",
		"NOT (attribute_exists(n) AND attribute_exists(s)) AND size(x) > :n",
	}
	for _, f := range filters {
		t.Run(f, func(t *testing.T) {
			in := &dynamo.ScanInput{TableName: "fast", FilterExpression: f, ExpressionAttributeValues: attr.Item{}}
			if strings.Contains(f, "#s") {
				in.ExpressionAttributeNames = map[string]string{"#s": "s"}
			}
			for k, v := range values {
				if strings.Contains(f, k+" ") || strings.Contains(f, k+")") || strings.HasSuffix(f, k) || strings.Contains(f, k+",") {
					in.ExpressionAttributeValues[k] = v
				}
			}
			if len(in.ExpressionAttributeValues) == 0 {
				in.ExpressionAttributeValues = nil
			}
			x, err := compileRead(readRequest{op: expr.OpScan, filter: f, names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, filterParam: "ScanFilter"})
			if err != nil {
				t.Fatal(err)
			}
			// The filter on whole items, every item read one by one.
			var want [][]byte
			all := scanAll(t, db, &dynamo.ScanInput{TableName: "fast"}, false)
			for _, it := range all {
				if x.filter.Eval(it) {
					want = append(want, attr.AppendItem(nil, it))
				}
			}
			t.Logf("%d of %d items kept", len(want), len(all))
			for _, encoded := range []bool{false, true} {
				c := *in
				got := scanAll(t, db, &c, encoded)
				if len(got) != len(want) {
					t.Fatalf("encoded=%v: %d items, want %d", encoded, len(got), len(want))
				}
				for i := range got {
					if b := attr.AppendItem(nil, got[i]); !bytes.Equal(b, want[i]) {
						t.Fatalf("encoded=%v: item %d is %v, want %x", encoded, i, got[i], want[i])
					}
				}
			}
		})
	}
}

// scanAll reads every page of a Scan with a small Limit, so that pages
// stop inside the table, asking for encoded items or not, and returns the
// items decoded. Encoded items are copied into a buffer of the caller's
// as far as it goes, one buffer for every page, as the server's are.
func scanAll(t *testing.T, db *DB, in *dynamo.ScanInput, encoded bool) []attr.Item {
	t.Helper()
	in.Limit = new(int32(37))
	in.EncodedItems = encoded
	if encoded {
		in.EncodedBuffer = make([]byte, 0, 3000)
	}
	var items []attr.Item
	for {
		out, err := db.Scan(in)
		if err != nil {
			t.Fatal(err)
		}
		if encoded != (out.Items == nil) || encoded != (out.EncodedItems != nil) {
			t.Fatalf("encoded=%v: Items %v, EncodedItems %v", encoded, out.Items != nil, out.EncodedItems != nil)
		}
		if len(out.Items)+len(out.EncodedItems) != out.Count {
			t.Fatalf("%d items, Count %d", len(out.Items)+len(out.EncodedItems), out.Count)
		}
		items = append(items, out.Items...)
		for _, b := range out.EncodedItems {
			it, err := attr.DecodeItem(b)
			if err != nil {
				t.Fatal(err)
			}
			items = append(items, it)
		}
		if out.LastEvaluatedKey == nil {
			return items
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// TestGetItemFastPathsMatch checks, on random items of every type, that
// GetItem's item in its stored encoding is the item it returns decoded,
// and that a projection, given only the attributes it reads, gives what
// it gives on the whole item.
func TestGetItemFastPathsMatch(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	mustCreate(t, db, "fast", true)
	r := rand.New(rand.NewPCG(29, 5))
	names := []string{"s", "n", "b", "flag", "nul", "m", "l", "ss", "ns", "bs", "x"}
	projections := []string{
		"s", "pk, sk", "m.k0", "l[1], l[0]", "x, s, n, b", "#f, nul, ss, ns, bs",
		"m.k1.k0, m.k2[0], l[0].k1", "nothere", "sk, m, l, flag",
	}
	toGet := [][]string{{"s"}, {"pk", "sk"}, {"x", "m", "b"}, {"nothere"}, {"ss", "ns", "bs", "nul", "flag", "l"}}
	const n = 300
	for i := 0; i < n; i++ {
		it := attr.Item{"pk": attr.S(fmt.Sprint("p", i%7)), "sk": attr.N(fmt.Sprint(i))}
		for _, name := range names {
			if r.IntN(5) > 0 {
				it[name] = randomAttr(r, 1)
			}
		}
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "fast", Item: it}); err != nil {
			t.Fatalf("put %v: %v", it, err)
		}
	}
	buf := make([]byte, 0, 400) // the encoded items' buffer: some fit
	for i := 0; i < n+10; i++ { // the last ten are misses
		key := attr.Item{"pk": attr.S(fmt.Sprint("p", i%7)), "sk": attr.N(fmt.Sprint(i))}
		whole, err := db.GetItem(&dynamo.GetItemInput{TableName: "fast", Key: key})
		if err != nil {
			t.Fatal(err)
		}
		if (whole.Item == nil) != (i >= n) || whole.EncodedItem != nil {
			t.Fatalf("item %d: Item %v, EncodedItem %x", i, whole.Item, whole.EncodedItem)
		}
		enc, err := db.GetItem(&dynamo.GetItemInput{TableName: "fast", Key: key, EncodedItem: true, EncodedBuffer: buf})
		if err != nil {
			t.Fatal(err)
		}
		if enc.Item != nil || (enc.EncodedItem == nil) != (i >= n) {
			t.Fatalf("item %d encoded: Item %v, EncodedItem %x", i, enc.Item, enc.EncodedItem)
		}
		if want := attr.AppendItem(nil, whole.Item); whole.Item != nil && !bytes.Equal(enc.EncodedItem, want) {
			t.Fatalf("item %d: encoded %x, want %x", i, enc.EncodedItem, want)
		}
		for _, p := range projections {
			in := &dynamo.GetItemInput{TableName: "fast", Key: key, ProjectionExpression: p, EncodedItem: true}
			if strings.Contains(p, "#f") {
				in.ExpressionAttributeNames = map[string]string{"#f": "flag"}
			}
			out, err := db.GetItem(in)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			c, err := expr.Compile(expr.Input{Operation: expr.OpGetItem, Projection: p, Names: in.ExpressionAttributeNames})
			if err != nil {
				t.Fatal(err)
			}
			want := c.Projection.Apply(whole.Item)
			if out.EncodedItem != nil || (out.Item == nil) != (want == nil) || !bytes.Equal(attr.AppendItem(nil, out.Item), attr.AppendItem(nil, want)) {
				t.Fatalf("item %d, %s: %v, want %v", i, p, out.Item, want)
			}
		}
		for _, names := range toGet {
			out, err := db.GetItem(&dynamo.GetItemInput{TableName: "fast", Key: key, AttributesToGet: names, EncodedItem: true})
			if err != nil {
				t.Fatalf("%v: %v", names, err)
			}
			want := project(whole.Item, names)
			if out.EncodedItem != nil || (out.Item == nil) != (want == nil) || !bytes.Equal(attr.AppendItem(nil, out.Item), attr.AppendItem(nil, want)) {
				t.Fatalf("item %d, %v: %v, want %v", i, names, out.Item, want)
			}
		}
	}
}
