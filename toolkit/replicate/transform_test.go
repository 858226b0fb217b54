package replicate

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

func TestParseAssignment(t *testing.T) {
	a, err := ParseAssignment("gsi1pk=CUST#{customerId}={x}")
	if err != nil || a.Name != "gsi1pk" || a.Template.String() != "CUST#{customerId}={x}" {
		t.Fatalf("%+v %v", a, err)
	}
	for _, bad := range []string{"", "name", "=x{a}", "name=", "name=no attribute", "name={unclosed"} {
		if _, err := ParseAssignment(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

func TestMapper(t *testing.T) {
	src := map[string]types.AttributeValue{"pk": sv("c1"), "sk": nv(7), "name": sv("bob"), "old": sv("x")}
	// No transform: the item as it is.
	m, err := newMapper(nil, []string{"pk", "sk"})
	if err != nil {
		t.Fatal(err)
	}
	if it, ok := m.item(src); !ok || len(it) != 4 || !m.keyOnly() {
		t.Fatalf("copy: %v %v", it, ok)
	}
	// Derived attributes: set, or removed when a source is missing.
	tr := &Transform{Set: []Assignment{*mustParse("label={pk}/{name}"), *mustParse("old={missing}")}, Hash: mustParse("id={pk}#{sk}")}
	if m, err = newMapper(tr, []string{"pk", "sk"}); err != nil {
		t.Fatal(err)
	}
	it, ok := m.item(src)
	if !ok || !equalValues(it["label"], sv("c1/bob")) || it["old"] != nil || !equalValues(it["id"], sv("c1#7")) || !equalValues(it["pk"], sv("c1")) {
		t.Fatalf("transformed: %v", it)
	}
	if !m.keyOnly() || fmt.Sprint(m.dstKeys) != "[id]" {
		t.Fatalf("keyOnly %v, keys %v", m.keyOnly(), m.dstKeys)
	}
	k, _ := m.key(src)
	if got := decodeKey(m.keyString(k), m.dstKeys); !equalValues(got["id"], k["id"]) {
		t.Fatalf("decodeKey: %v", got)
	}
	// A key that cannot render: no target item.
	if _, ok := m.item(map[string]types.AttributeValue{"pk": sv("c1")}); ok {
		t.Fatal("an item without sk got a key")
	}
	// A key from a non-key attribute.
	m2, _ := newMapper(&Transform{Hash: mustParse("g={name}")}, []string{"pk", "sk"})
	if m2.keyOnly() {
		t.Fatal("a key from name is key-only")
	}
	// Refused: a derived attribute named like a target key, a sort key
	// alone, twice the same attribute.
	for _, tr := range []*Transform{
		{Set: []Assignment{*mustParse("pk={name}")}},
		{Range: mustParse("s={name}")},
		{Set: []Assignment{*mustParse("a={name}"), *mustParse("a={pk}")}},
		{Hash: mustParse("k={pk}"), Range: mustParse("k={sk}")},
	} {
		if _, err := newMapper(tr, []string{"pk", "sk"}); err == nil {
			t.Errorf("%s was accepted", tr)
		}
	}
}

func mustParse(s string) *Assignment {
	a, err := ParseAssignment(s)
	if err != nil {
		panic(err)
	}
	return &a
}

func TestCanonical(t *testing.T) {
	a := map[string]types.AttributeValue{
		"ss": &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		"m":  &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"x": nv(1), "y": &types.AttributeValueMemberNULL{Value: true}}},
		"l":  &types.AttributeValueMemberL{Value: []types.AttributeValue{sv("1"), nv(1)}},
	}
	b := map[string]types.AttributeValue{
		"l":  &types.AttributeValueMemberL{Value: []types.AttributeValue{sv("1"), nv(1)}},
		"ss": &types.AttributeValueMemberSS{Value: []string{"b", "a"}},
		"m":  &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"y": &types.AttributeValueMemberNULL{Value: true}, "x": nv(1)}},
	}
	if digest(a) != digest(b) || len(diffAttributes(a, b)) != 0 {
		t.Fatal("equal items differ")
	}
	b["l"] = &types.AttributeValueMemberL{Value: []types.AttributeValue{nv(1), sv("1")}}
	b["extra"] = sv("")
	if digest(a) == digest(b) || fmt.Sprint(diffAttributes(a, b)) != "[extra l]" {
		t.Fatalf("different items: %v", diffAttributes(a, b))
	}
	if equalValues(sv("1"), nv(1)) {
		t.Fatal("S 1 equals N 1")
	}
}

func TestFromStream(t *testing.T) {
	in := map[string]st.AttributeValue{
		"s": &st.AttributeValueMemberS{Value: "x"}, "n": &st.AttributeValueMemberN{Value: "1"},
		"b": &st.AttributeValueMemberB{Value: []byte{1}}, "t": &st.AttributeValueMemberBOOL{Value: true},
		"z": &st.AttributeValueMemberNULL{Value: true}, "ss": &st.AttributeValueMemberSS{Value: []string{"a"}},
		"ns": &st.AttributeValueMemberNS{Value: []string{"2"}}, "bs": &st.AttributeValueMemberBS{Value: [][]byte{{3}}},
		"l": &st.AttributeValueMemberL{Value: []st.AttributeValue{&st.AttributeValueMemberS{Value: "e"}}},
		"m": &st.AttributeValueMemberM{Value: map[string]st.AttributeValue{"k": &st.AttributeValueMemberN{Value: "3"}}},
	}
	want := map[string]types.AttributeValue{
		"s": sv("x"), "n": nv(1), "b": &types.AttributeValueMemberB{Value: []byte{1}}, "t": &types.AttributeValueMemberBOOL{Value: true},
		"z": &types.AttributeValueMemberNULL{Value: true}, "ss": &types.AttributeValueMemberSS{Value: []string{"a"}},
		"ns": &types.AttributeValueMemberNS{Value: []string{"2"}}, "bs": &types.AttributeValueMemberBS{Value: [][]byte{{3}}},
		"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{sv("e")}},
		"m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": nv(3)}},
	}
	if got := fromStream(in); digest(got) != digest(want) || len(got) != len(want) {
		t.Fatalf("fromStream: %v", got)
	}
	if fromStream(nil) != nil {
		t.Fatal("nil did not stay nil")
	}
}
