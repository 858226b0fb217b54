package e2e

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// condItem is the item the condition tests evaluate against: every type,
// nested maps and lists, a reserved word and a name with a dot.
func condItem() item {
	return item{
		"pk":     S("c"),
		"s":      S("hello world"),
		"n":      N("10"),
		"b":      B([]byte{1, 2, 3}),
		"t":      BOOL(true),
		"nul":    NULL(),
		"ss":     SS("a", "b"),
		"ns":     NS("1", "2.5"),
		"bs":     BS([]byte{1}, []byte{2}),
		"l":      L(S("x"), N("1"), M(item{"c": S("deep")}), L(N("7"))),
		"m":      M(item{"a": M(item{"b": L(N("0"), M(item{"c": S("v")}))}), "k.dot": S("dotted")}),
		"status": S("active"),
	}
}

// condValues are the values the condition tests may use. Each case
// passes only those it uses, as DynamoDB refuses unused values.
var condValues = item{
	":zero":   N("0"),
	":one":    N("1"),
	":two":    N("2"),
	":three":  N("3"),
	":four":   N("4"),
	":ten":    N("10"),
	":tenf":   N("10.000"),
	":eleven": N("11"),
	":twenty": N("20"),
	":str10":  S("10"),
	":a":      S("a"),
	":c":      S("c"),
	":z":      S("z"),
	":hel":    S("hel"),
	":wor":    S("wor"),
	":x":      S("x"),
	":v":      S("v"),
	":deep":   S("deep"),
	":dotted": S("dotted"),
	":active": S("active"),
	":seven":  N("7"),
	":two5":   N("2.50"),
	":b12":    B([]byte{1, 2}),
	":b23":    B([]byte{2, 3}),
	":b124":   B([]byte{1, 2, 4}),
	":b1230":  B([]byte{1, 2, 3, 0}),
	":b1":     B([]byte{1}),
	":true":   BOOL(true),
	":null":   NULL(),
	":ssba":   SS("b", "a"),
	":N":      S("N"),
	":S":      S("S"),
	":SS":     S("SS"),
	":NULL":   S("NULL"),
	":BOOL":   S("BOOL"),
	":L":      S("L"),
	":M":      S("M"),
}

// usedValues picks the values an expression mentions.
func usedValues(expr string) item {
	v := item{}
	for k, x := range condValues {
		// A placeholder is used when it appears followed by a character
		// that cannot continue it.
		for i := strings.Index(expr, k); i >= 0; {
			end := i + len(k)
			if end == len(expr) || !isPlaceholderChar(expr[end]) {
				v[k] = x
				break
			}
			j := strings.Index(expr[end:], k)
			if j < 0 {
				break
			}
			i = end + j
		}
	}
	if len(v) == 0 {
		return nil
	}
	return v
}

func isPlaceholderChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// TestConditionEvaluation puts the same item again under each condition:
// success means the condition was true, ConditionalCheckFailedException
// that it was false. The item never changes.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html
func TestConditionEvaluation(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "cond", types.ScalarAttributeTypeS)
	put(t, c, "cond", condItem())
	for _, tc := range []struct {
		cond  string
		names map[string]string
		want  bool
	}{
		// Existence.
		{cond: "attribute_exists(pk)", want: true},
		{cond: "attribute_not_exists(pk)", want: false},
		{cond: "attribute_not_exists(nope)", want: true},
		{cond: "attribute_exists(nope)", want: false},
		// Comparators on numbers: by value, whatever the spelling.
		{cond: "n = :ten", want: true},
		{cond: "n = :tenf", want: true},
		{cond: "n <> :ten", want: false},
		{cond: "n <> :eleven", want: true},
		{cond: "n < :eleven", want: true},
		{cond: "n < :ten", want: false},
		{cond: "n <= :ten", want: true},
		{cond: "n > :ten", want: false},
		{cond: "n > :one", want: true},
		{cond: "n >= :tenf", want: true},
		{cond: ":eleven > n", want: true},
		// Strings and binaries compare bytewise.
		{cond: "s > :a", want: true},
		{cond: "s < :z", want: true},
		{cond: "s >= :hel", want: true},
		{cond: "b < :b124", want: true},
		{cond: "b < :b1230", want: true},
		{cond: "b > :b12", want: true},
		// Different types are never equal and never ordered.
		{cond: "n = :str10", want: false},
		{cond: "n <> :str10", want: true},
		{cond: "n < :str10", want: false},
		{cond: "n >= :str10", want: false},
		// A missing attribute equals nothing and differs from everything.
		{cond: "nope = :ten", want: false},
		{cond: "nope <> :ten", want: true},
		{cond: "nope < :ten", want: false},
		{cond: "nope >= :ten", want: false},
		// Other types compare with = and <> only.
		{cond: "t = :true", want: true},
		{cond: "nul = :null", want: true},
		{cond: "ss = :ssba", want: true},
		{cond: "ss <> :ssba", want: false},
		// BETWEEN is inclusive.
		{cond: "n BETWEEN :one AND :ten", want: true},
		{cond: "n BETWEEN :ten AND :twenty", want: true},
		{cond: "n BETWEEN :eleven AND :twenty", want: false},
		{cond: "s BETWEEN :a AND :z", want: true},
		{cond: "s BETWEEN :one AND :ten", want: false},
		{cond: "nope BETWEEN :one AND :ten", want: false},
		// IN.
		{cond: "n IN (:one, :ten)", want: true},
		{cond: "n IN (:one, :two, :tenf)", want: true},
		{cond: "s IN (:a, :one)", want: false},
		{cond: "ss IN (:a, :ssba)", want: true},
		{cond: "nope IN (:a, :one)", want: false},
		// Precedence: NOT binds tighter than AND, AND tighter than OR.
		{cond: "attribute_exists(nope) AND attribute_exists(pk) OR attribute_exists(n)", want: true},
		{cond: "attribute_exists(n) OR attribute_exists(pk) AND attribute_exists(nope)", want: true},
		{cond: "(attribute_exists(n) OR attribute_exists(pk)) AND attribute_exists(nope)", want: false},
		{cond: "NOT attribute_exists(nope) AND attribute_exists(nope2)", want: false},
		{cond: "NOT (attribute_exists(nope) AND attribute_exists(nope2))", want: true},
		{cond: "NOT n = :ten OR n = :ten", want: true},
		{cond: "NOT NOT n = :ten", want: true},
		{cond: "not n = :one and s = :a or attribute_exists(t)", want: true},
		{cond: "n = :one OR n = :two OR n = :three OR n = :ten", want: true},
		{cond: "n > :one AND n < :eleven AND NOT n IN (:two, :three)", want: true},
		// attribute_type.
		{cond: "attribute_type(n, :N)", want: true},
		{cond: "attribute_type(n, :S)", want: false},
		{cond: "attribute_type(ss, :SS)", want: true},
		{cond: "attribute_type(nul, :NULL)", want: true},
		{cond: "attribute_type(t, :BOOL)", want: true},
		{cond: "attribute_type(l, :L)", want: true},
		{cond: "attribute_type(m.a, :M)", want: true},
		{cond: "attribute_type(nope, :S)", want: false},
		// begins_with on strings and binaries.
		{cond: "begins_with(s, :hel)", want: true},
		{cond: "begins_with(s, :wor)", want: false},
		{cond: "begins_with(b, :b12)", want: true},
		{cond: "begins_with(b, :b23)", want: false},
		{cond: "begins_with(n, :hel)", want: false},
		{cond: "begins_with(nope, :hel)", want: false},
		// contains: substring, set member, list element.
		{cond: "contains(s, :wor)", want: true},
		{cond: "contains(s, :z)", want: false},
		{cond: "contains(b, :b23)", want: true},
		{cond: "contains(ss, :a)", want: true},
		{cond: "contains(ss, :c)", want: false},
		{cond: "contains(ns, :two5)", want: true},
		{cond: "contains(ns, :two)", want: false},
		{cond: "contains(bs, :b1)", want: true},
		{cond: "contains(l, :x)", want: true},
		{cond: "contains(l, :one)", want: true},
		{cond: "contains(l, :z)", want: false},
		{cond: "contains(nope, :a)", want: false},
		// size: bytes of S and B, members of sets, elements of L and M.
		{cond: "size(s) = :eleven", want: true},
		{cond: "size(b) = :three", want: true},
		{cond: "size(ss) = :two", want: true},
		{cond: "size(l) = :four", want: true},
		{cond: "size(m) = :two", want: true},
		{cond: "size(m.a.b) < :three", want: true},
		{cond: "size(n) >= :zero", want: false},
		{cond: "size(nope) >= :zero", want: false},
		{cond: "size(l) > size(ss)", want: true},
		// Nested paths, with and without placeholders.
		{cond: "m.a.b[1].c = :v", want: true},
		{cond: "#m.#a.#b[1].#c = :v", names: names("#m", "m", "#a", "a", "#b", "b", "#c", "c"), want: true},
		{cond: "m.a.b[0] = :zero", want: true},
		{cond: "l[2].c = :deep", want: true},
		{cond: "l[3][0] = :seven", want: true},
		{cond: "attribute_not_exists(l[9])", want: true},
		{cond: "attribute_not_exists(l[0].c)", want: true},
		{cond: "attribute_not_exists(m.a.b[1].c.d)", want: true},
		{cond: "m.#k = :dotted", names: names("#k", "k.dot"), want: true},
		{cond: "attribute_exists(m.k.dot)", want: false},
		{cond: "attribute_exists(#k)", names: names("#k", "k.dot"), want: false},
		// A reserved word through a placeholder.
		{cond: "#s = :active", names: names("#s", "status"), want: true},
	} {
		_, err := c.PutItem(bg(), &dynamodb.PutItemInput{
			TableName: aws.String("cond"), Item: condItem(), ConditionExpression: aws.String(tc.cond),
			ExpressionAttributeNames: tc.names, ExpressionAttributeValues: usedValues(tc.cond),
		})
		if tc.want && err != nil {
			t.Errorf("%s: want true, got %v", tc.cond, err)
		}
		if !tc.want {
			if err == nil {
				t.Errorf("%s: want false, the put succeeded", tc.cond)
			} else {
				wantCondFailed(t, err)
			}
		}
	}
	itemEqual(t, "item after the conditions", get(t, c, "cond", item{"pk": S("c")}), condItem())
}

// TestConditionalPutAndDelete covers the everyday patterns: create-only
// puts, optimistic locking on a version number, and conditional deletes,
// with ReturnValuesOnConditionCheckFailure.
func TestConditionalPutAndDelete(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "cpd", types.ScalarAttributeTypeS)
	key := item{"pk": S("k")}
	v1 := item{"pk": S("k"), "v": N("1"), "data": S("one")}
	createOnly := func(it item, rv types.ReturnValuesOnConditionCheckFailure) error {
		_, err := c.PutItem(bg(), &dynamodb.PutItemInput{
			TableName: aws.String("cpd"), Item: it, ConditionExpression: aws.String("attribute_not_exists(pk)"),
			ReturnValuesOnConditionCheckFailure: rv,
		})
		return err
	}
	if err := createOnly(v1, ""); err != nil {
		t.Fatalf("create-only put of a new item: %v", err)
	}
	// The second create fails; the item is only returned when asked for.
	ccf := wantCondFailed(t, createOnly(item{"pk": S("k"), "v": N("9")}, ""))
	if ccf.Item != nil {
		t.Fatalf("Item returned without ReturnValuesOnConditionCheckFailure: %s", renderItem(ccf.Item))
	}
	ccf = wantCondFailed(t, createOnly(item{"pk": S("k"), "v": N("9")}, types.ReturnValuesOnConditionCheckFailureNone))
	if ccf.Item != nil {
		t.Fatalf("Item returned with NONE: %s", renderItem(ccf.Item))
	}
	ccf = wantCondFailed(t, createOnly(item{"pk": S("k"), "v": N("9")}, types.ReturnValuesOnConditionCheckFailureAllOld))
	itemEqual(t, "ALL_OLD on failure", ccf.Item, v1)
	itemEqual(t, "item after failed creates", get(t, c, "cpd", key), v1)

	// Optimistic locking: write version 2 only over version 1.
	versioned := func(it item, expected string) error {
		_, err := c.PutItem(bg(), &dynamodb.PutItemInput{
			TableName: aws.String("cpd"), Item: it, ConditionExpression: aws.String("#v = :expected"),
			ExpressionAttributeNames:  names("#v", "v"),
			ExpressionAttributeValues: item{":expected": N(expected)},
		})
		return err
	}
	v2 := item{"pk": S("k"), "v": N("2"), "data": S("two")}
	if err := versioned(v2, "1"); err != nil {
		t.Fatalf("put over the expected version: %v", err)
	}
	wantCondFailed(t, versioned(item{"pk": S("k"), "v": N("2"), "data": S("lost update")}, "1"))
	itemEqual(t, "after a stale write", get(t, c, "cpd", key), v2)
	// A condition on a missing item sees no attributes.
	wantCondFailed(t, versioned(item{"pk": S("other"), "v": N("1")}, "0"))
	if it := get(t, c, "cpd", item{"pk": S("other")}); it != nil {
		t.Fatalf("a failed conditional put created %s", renderItem(it))
	}

	// ALL_OLD of a failed put of an item that does not exist: no Item.
	_, err := c.PutItem(bg(), &dynamodb.PutItemInput{
		TableName: aws.String("cpd"), Item: item{"pk": S("absent")}, ConditionExpression: aws.String("attribute_exists(pk)"),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	if ccf := wantCondFailed(t, err); ccf.Item != nil {
		t.Fatalf("Item for a missing item: %s", renderItem(ccf.Item))
	}

	// Conditional delete.
	del := func(cond string, v item, rv types.ReturnValuesOnConditionCheckFailure) (*dynamodb.DeleteItemOutput, error) {
		return c.DeleteItem(bg(), &dynamodb.DeleteItemInput{
			TableName: aws.String("cpd"), Key: key, ConditionExpression: aws.String(cond),
			ExpressionAttributeValues: v, ReturnValues: types.ReturnValueAllOld,
			ReturnValuesOnConditionCheckFailure: rv,
		})
	}
	_, err = del("v = :one", item{":one": N("1")}, types.ReturnValuesOnConditionCheckFailureAllOld)
	itemEqual(t, "delete: ALL_OLD on failure", wantCondFailed(t, err).Item, v2)
	itemEqual(t, "after a failed delete", get(t, c, "cpd", key), v2)
	out, err := del("v = :two AND begins_with(#d, :t)", item{":two": N("2"), ":t": S("tw")}, "")
	if err == nil {
		t.Fatal("undefined #d accepted")
	}
	// Enveloped (captures/cross-region-latest.json, 2026-09-20; see
	// TestConditionExpressionErrors).
	wantValidation(t, err, "1 validation error detected: Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #d")
	out, err = c.DeleteItem(bg(), &dynamodb.DeleteItemInput{
		TableName: aws.String("cpd"), Key: key, ConditionExpression: aws.String("v = :two AND begins_with(#d, :t)"),
		ExpressionAttributeNames: names("#d", "data"), ExpressionAttributeValues: item{":two": N("2"), ":t": S("tw")},
		ReturnValues: types.ReturnValueAllOld,
	})
	if err != nil {
		t.Fatalf("conditional delete: %v", err)
	}
	itemEqual(t, "deleted item", out.Attributes, v2)
	if it := get(t, c, "cpd", key); it != nil {
		t.Fatalf("item still there: %s", renderItem(it))
	}
	// Deleting a missing item under attribute_exists fails.
	_, err = c.DeleteItem(bg(), &dynamodb.DeleteItemInput{
		TableName: aws.String("cpd"), Key: key, ConditionExpression: aws.String("attribute_exists(pk)"),
	})
	wantCondFailed(t, err)
}

// TestConditionalCheckFailedWire checks the raw error body: the item is
// sent in DynamoDB JSON beside the message when asked for.
func TestConditionalCheckFailedWire(t *testing.T) {
	s, c := start(t)
	createHash(t, c, "wire", types.ScalarAttributeTypeS)
	put(t, c, "wire", item{"pk": S("a"), "n": N("1")})
	res := s.Raw(t, "PutItem", `{"TableName":"wire","Item":{"pk":{"S":"a"}},"ConditionExpression":"attribute_not_exists(pk)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`)
	checkHeaders(t, res)
	if res.Status != 400 {
		t.Fatalf("status %d", res.Status)
	}
	jsonEqual(t, res.Body, `{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","Item":{"pk":{"S":"a"},"n":{"N":"1"}},"message":"The conditional request failed"}`)
	res = s.Raw(t, "PutItem", `{"TableName":"wire","Item":{"pk":{"S":"a"}},"ConditionExpression":"attribute_not_exists(pk)"}`)
	checkRaw(t, res, 400, "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException", msgCondFailed)
}

// TestConcurrentCreateOnly is half of scenario S3: many writers race to
// create one item with attribute_not_exists; exactly one wins.
func TestConcurrentCreateOnly(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "race", types.ScalarAttributeTypeS)
	const writers = 16
	for round := 0; round < 5; round++ {
		pk := fmt.Sprintf("lock-%d", round)
		var wg sync.WaitGroup
		errs := make([]error, writers)
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				_, errs[w] = c.PutItem(bg(), &dynamodb.PutItemInput{
					TableName: aws.String("race"), Item: item{"pk": S(pk), "owner": N(fmt.Sprint(w))},
					ConditionExpression: aws.String("attribute_not_exists(pk)"),
				})
			}(w)
		}
		wg.Wait()
		winner := -1
		for w, err := range errs {
			if err == nil {
				if winner >= 0 {
					t.Fatalf("round %d: writers %d and %d both created the item", round, winner, w)
				}
				winner = w
				continue
			}
			wantCondFailed(t, err)
		}
		if winner < 0 {
			t.Fatalf("round %d: no writer created the item", round)
		}
		itemEqual(t, "the winner's item", get(t, c, "race", item{"pk": S(pk)}), item{"pk": S(pk), "owner": N(fmt.Sprint(winner))})
	}
}

// TestConditionExpressionErrors checks the ValidationExceptions of
// condition expressions on PutItem and DeleteItem.
func TestConditionExpressionErrors(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "cerr", types.ScalarAttributeTypeS)
	it := item{"pk": S("k"), "n": N("1")}
	put(t, c, "cerr", it)
	// The request-validation problems of PutItem and DeleteItem come
	// inside the envelope, every one of these, ExpressionAttributeValues
	// without an expression with no ": ConditionExpression is null" after
	// it: paritysuite/dynamodb-conformance, tests/tier3/error-messages/
	// putItem.test.ts and deleteItem.test.ts ("request validation
	// envelope", eu-west-2 and us-east-1, 2026-10-09) and
	// captures/cross-region-latest.json (redundant parentheses, a
	// repeated contains operand, unused names and values, the same two
	// regions, 2026-09-20), newer than the bare texts pinned here before.
	const env = "1 validation error detected: "
	for _, tc := range []struct {
		cond   *string
		names  map[string]string
		values item
		msg    string
	}{
		{aws.String("status = :a"), nil, item{":a": S("x")},
			"Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: status"},
		{aws.String("n = :a AND #n = :b"), names("#m", "n"), item{":a": N("1"), ":b": N("1")},
			"Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #n"},
		{aws.String("n = :nope"), nil, item{":a": N("1")},
			"Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :nope"},
		{aws.String("n = :a"), nil, item{":a": N("1"), ":b": N("2"), ":c": N("3")},
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:b, :c}"},
		{aws.String("n = :a"), names("#x", "x"), item{":a": N("1")},
			"Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}"},
		{nil, names("#x", "x"), nil,
			env + "ExpressionAttributeNames can only be specified when using expressions"},
		{nil, nil, item{":a": N("1")},
			env + "ExpressionAttributeValues can only be specified when using expressions"},
		{aws.String("n = :a"), nil, item{},
			env + "ExpressionAttributeValues must not be empty"},
		{aws.String("n = :a"), map[string]string{}, item{":a": N("1")},
			env + "ExpressionAttributeNames must not be empty"},
		{aws.String("n = :a"), names("x", "n"), item{":a": N("1")},
			"ExpressionAttributeNames contains invalid key: Syntax error; key: \"x\""},
		{aws.String("#n = :a"), names("#n", ""), item{":a": N("1")},
			"ExpressionAttributeNames contains invalid value: Empty attribute name for key #n"},
		{aws.String("Attribute_exists(n)"), nil, nil,
			"Invalid ConditionExpression: Invalid function name; function: Attribute_exists"},
		{aws.String("size(n)"), nil, nil,
			"Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: size"},
		{aws.String("attribute_exists(:a)"), nil, item{":a": S("n")},
			"Invalid ConditionExpression: Operator or function requires a document path; operator or function: attribute_exists"},
		{aws.String("n = n"), nil, nil,
			"Invalid ConditionExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [n]"},
		{aws.String("begins_with(n, :a)"), nil, item{":a": N("1")},
			"Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{aws.String("attribute_type(n, :a)"), nil, item{":a": S("STRING")},
			"Invalid ConditionExpression: Invalid attribute type name found; type: STRING, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}"},
		{aws.String("n BETWEEN :b AND :a"), nil, item{":a": N("1"), ":b": N("10")},
			"Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:10}, upper bound operand: AttributeValue: {N:1}"},
		{aws.String("n BETWEEN :b AND :a"), nil, item{":a": S("a"), ":b": N("1")},
			"Invalid ConditionExpression: The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:a}"},
		{aws.String("contains(n)"), nil, nil,
			"Invalid ConditionExpression: Incorrect number of operands for operator or function; operator or function: contains, number of operands: 1"},
		{aws.String("((n = :a))"), nil, item{":a": N("1")},
			"Invalid ConditionExpression: The expression has redundant parentheses;"},
		{aws.String("n = :a AND"), nil, item{":a": N("1")},
			"Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"AND\""},
		{aws.String("n == :a"), nil, item{":a": N("1")},
			"Invalid ConditionExpression: Syntax error; token: \"=\", near: \"== :a\""},
		{aws.String("   "), nil, nil,
			env + "Invalid ConditionExpression: The expression can not be empty;"},
		{aws.String(""), nil, item{":a": N("1")},
			env + "Invalid ConditionExpression: The expression can not be empty;"},
		{aws.String("if_not_exists(n, :a) = :a"), nil, item{":a": N("1")},
			"Invalid ConditionExpression: The function is not allowed in a condition expression; function: if_not_exists"},
		{aws.String("n = :a OR " + strings.Repeat("n = :a OR ", 410) + "n = :a"), nil, item{":a": N("1")},
			"Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4116"},
		{aws.String(strings.Repeat("n = :a OR ", 300) + "n = :a"), nil, item{":a": N("1")},
			"Invalid ConditionExpression: The expression contains too many operators; operator count: 301"},
		{aws.String("n IN (" + strings.Repeat(":a, ", 100) + ":a)"), nil, item{":a": N("1")},
			"Invalid ConditionExpression: The IN operator is provided with too many operands; number of operands: 101"},
	} {
		_, err := c.PutItem(bg(), &dynamodb.PutItemInput{
			TableName: aws.String("cerr"), Item: item{"pk": S("k"), "changed": BOOL(true)}, ConditionExpression: tc.cond,
			ExpressionAttributeNames: tc.names, ExpressionAttributeValues: tc.values,
		})
		want := env + strings.TrimPrefix(tc.msg, env)
		wantValidation(t, err, want)
		_, err = c.DeleteItem(bg(), &dynamodb.DeleteItemInput{
			TableName: aws.String("cerr"), Key: item{"pk": S("k")}, ConditionExpression: tc.cond,
			ExpressionAttributeNames: tc.names, ExpressionAttributeValues: tc.values,
		})
		wantValidation(t, err, want)
	}
	itemEqual(t, "item after refused writes", get(t, c, "cerr", item{"pk": S("k")}), it)
}

// TestLegacyExpected covers the legacy Expected parameter with
// ConditionalOperator, and its mixing with expressions.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LegacyConditionalParameters.Expected.html
func TestLegacyExpected(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "legacy", types.ScalarAttributeTypeS)
	base := item{"pk": S("k"), "n": N("5"), "s": S("hello"), "ss": SS("a", "b"), "l": L(S("x"))}
	put(t, c, "legacy", base)
	yes, no := true, false
	for _, tc := range []struct {
		name     string
		expected map[string]types.ExpectedAttributeValue
		op       types.ConditionalOperator
		want     bool
	}{
		{"exists true", map[string]types.ExpectedAttributeValue{"n": {Value: N("5"), Exists: &yes}}, "", true},
		{"value only", map[string]types.ExpectedAttributeValue{"n": {Value: N("5.0")}}, "", true},
		{"value differs", map[string]types.ExpectedAttributeValue{"n": {Value: N("6")}}, "", false},
		{"exists false", map[string]types.ExpectedAttributeValue{"nope": {Exists: &no}}, "", true},
		{"exists false on present", map[string]types.ExpectedAttributeValue{"n": {Exists: &no}}, "", false},
		{"EQ", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{N("5")}}}, "", true},
		{"NE missing", map[string]types.ExpectedAttributeValue{"nope": {ComparisonOperator: types.ComparisonOperatorNe, AttributeValueList: []types.AttributeValue{N("5")}}}, "", true},
		{"LT", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorLt, AttributeValueList: []types.AttributeValue{N("6")}}}, "", true},
		{"GE", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorGe, AttributeValueList: []types.AttributeValue{N("6")}}}, "", false},
		{"BETWEEN", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorBetween, AttributeValueList: []types.AttributeValue{N("1"), N("5")}}}, "", true},
		{"IN", map[string]types.ExpectedAttributeValue{"s": {ComparisonOperator: types.ComparisonOperatorIn, AttributeValueList: []types.AttributeValue{S("x"), S("hello")}}}, "", true},
		{"BEGINS_WITH", map[string]types.ExpectedAttributeValue{"s": {ComparisonOperator: types.ComparisonOperatorBeginsWith, AttributeValueList: []types.AttributeValue{S("he")}}}, "", true},
		{"CONTAINS set", map[string]types.ExpectedAttributeValue{"ss": {ComparisonOperator: types.ComparisonOperatorContains, AttributeValueList: []types.AttributeValue{S("b")}}}, "", true},
		{"NOT_CONTAINS", map[string]types.ExpectedAttributeValue{"s": {ComparisonOperator: types.ComparisonOperatorNotContains, AttributeValueList: []types.AttributeValue{S("z")}}}, "", true},
		{"NULL", map[string]types.ExpectedAttributeValue{"nope": {ComparisonOperator: types.ComparisonOperatorNull}}, "", true},
		{"NOT_NULL", map[string]types.ExpectedAttributeValue{"nope": {ComparisonOperator: types.ComparisonOperatorNotNull}}, "", false},
		{"AND, one false", map[string]types.ExpectedAttributeValue{
			"n": {Value: N("5")}, "s": {Value: S("bye")}}, types.ConditionalOperatorAnd, false},
		{"AND by default", map[string]types.ExpectedAttributeValue{
			"n": {Value: N("5")}, "s": {Value: S("bye")}}, "", false},
		{"OR, one true", map[string]types.ExpectedAttributeValue{
			"n": {Value: N("5")}, "s": {Value: S("bye")}}, types.ConditionalOperatorOr, true},
		{"OR, none true", map[string]types.ExpectedAttributeValue{
			"n": {Value: N("4")}, "s": {Value: S("bye")}}, types.ConditionalOperatorOr, false},
	} {
		_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("legacy"), Item: base, Expected: tc.expected, ConditionalOperator: tc.op})
		switch {
		case tc.want && err != nil:
			t.Errorf("%s: want true, got %v", tc.name, err)
		case !tc.want && err == nil:
			t.Errorf("%s: want false, the put succeeded", tc.name)
		case !tc.want:
			wantCondFailed(t, err)
		}
		// DeleteItem evaluates Expected the same way (a true condition
		// deletes, so put the item back).
		_, err = c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("legacy"), Key: item{"pk": S("k")}, Expected: tc.expected, ConditionalOperator: tc.op})
		if tc.want != (err == nil) {
			t.Errorf("%s: DeleteItem: want %v, got %v", tc.name, tc.want, err)
		}
		put(t, c, "legacy", base)
	}

	// Errors.
	_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("legacy"), Item: base,
		Expected: map[string]types.ExpectedAttributeValue{"n": {Exists: &yes}}})
	wantValidation(t, err, "1 validation error detected: One or more parameter values were invalid: Value must be provided when Exists is true for Attribute: n")
	_, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("legacy"), Item: base,
		Expected: map[string]types.ExpectedAttributeValue{"n": {Exists: &no, Value: N("1")}}})
	wantValidation(t, err, "1 validation error detected: One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: n")
	_, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("legacy"), Item: base,
		Expected: map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorBetween, AttributeValueList: []types.AttributeValue{N("1")}}}})
	// Enveloped: paritysuite's tests/tier3/error-messages/
	// deleteItem.test.ts ("every malformed Expected condition",
	// 2026-10-09), the writes alike.
	wantValidation(t, err, "1 validation error detected: One or more parameter values were invalid: Invalid number of argument(s) for the BETWEEN ComparisonOperator")
	_, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("legacy"), Item: base,
		Expected: map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorLt, AttributeValueList: []types.AttributeValue{BOOL(true)}}}})
	wantValidation(t, err, "One or more parameter values were invalid: ComparisonOperator LT is not valid for BOOL AttributeValue type")

	// Mixing with expressions.
	_, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("legacy"), Item: base,
		Expected:            map[string]types.ExpectedAttributeValue{"n": {Value: N("5")}},
		ConditionExpression: aws.String("attribute_exists(pk)")})
	// Enveloped in the writes (paritysuite/dynamodb-conformance,
	// captures/cross-region-latest.json, b_put_mix_expr and u_upd_mix,
	// eu-west-2 and us-east-1, 2026-09-20).
	wantValidation(t, err, "1 validation error detected: Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}")
	_, err = c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("legacy"), Key: item{"pk": S("k")},
		Expected:            map[string]types.ExpectedAttributeValue{"n": {Value: N("5")}},
		ConditionalOperator: types.ConditionalOperatorOr,
		ConditionExpression: aws.String("attribute_exists(pk)")})
	wantValidation(t, err, "1 validation error detected: Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {Expected, ConditionalOperator} Expression parameters: {ConditionExpression}")
	itemEqual(t, "item after the legacy conditions", get(t, c, "legacy", item{"pk": S("k")}), base)
}

// TestProjectionExpression reads parts of items with GetItem and
// BatchGetItem.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ProjectionExpressions.html
func TestProjectionExpression(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "proj", types.ScalarAttributeTypeS)
	put(t, c, "proj", condItem())
	put(t, c, "proj", item{"pk": S("other"), "s": S("o"), "l": L(S("only"))})
	for _, tc := range []struct {
		proj  string
		names map[string]string
		want  item
	}{
		{"s, n", nil, item{"s": S("hello world"), "n": N("10")}},
		{"pk", nil, item{"pk": S("c")}},
		{"m.a.b[1].c", nil, item{"m": M(item{"a": M(item{"b": L(M(item{"c": S("v")}))})})}},
		{"l[3], l[0], l[2].c", nil, item{"l": L(S("x"), M(item{"c": S("deep")}), L(N("7")))}},
		{"l[1], l[9]", nil, item{"l": L(N("1"))}},
		{"#m.#k, #st", names("#m", "m", "#k", "k.dot", "#st", "status"), item{"m": M(item{"k.dot": S("dotted")}), "status": S("active")}},
		{"nope, m.nope, l[9]", nil, item{}},
		{"s.x", nil, item{}},
	} {
		out, err := c.GetItem(bg(), &dynamodb.GetItemInput{
			TableName: aws.String("proj"), Key: item{"pk": S("c")},
			ProjectionExpression: aws.String(tc.proj), ExpressionAttributeNames: tc.names,
		})
		if err != nil {
			t.Fatalf("%s: %v", tc.proj, err)
		}
		itemEqual(t, tc.proj, out.Item, tc.want)
	}

	// BatchGetItem applies each table's projection to each item.
	out, err := c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"proj": {
			Keys:                     []item{{"pk": S("c")}, {"pk": S("other")}, {"pk": S("absent")}},
			ProjectionExpression:     aws.String("#p, l[0]"),
			ExpressionAttributeNames: names("#p", "pk"),
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, it := range out.Responses["proj"] {
		got[render(it["pk"])] = renderItem(it)
	}
	want := map[string]string{
		render(S("c")):     renderItem(item{"pk": S("c"), "l": L(S("x"))}),
		render(S("other")): renderItem(item{"pk": S("other"), "l": L(S("only"))}),
	}
	deepEqual(t, "BatchGetItem projections", got, want)

	// Errors.
	for _, tc := range []struct {
		proj  *string
		names map[string]string
		atg   []string
		msg   string
	}{
		{aws.String("s"), names("#x", "x"), nil, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}"},
		{aws.String("#x"), nil, nil, "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #x"},
		{aws.String("status"), nil, nil, "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: status"},
		{aws.String("a, a"), nil, nil, "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
		{aws.String("a.b, a"), nil, nil, "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a]"},
		{aws.String("a[0], a.b"), nil, nil, "Invalid ProjectionExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, [0]], path two: [a, b]"},
		{aws.String("a,"), nil, nil, "Invalid ProjectionExpression: Syntax error; token: \"<EOF>\", near: \",\""},
		{aws.String(""), names("#x", "x"), nil, "Invalid ProjectionExpression: The expression can not be empty;"},
		{aws.String(""), nil, []string{"s"}, "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		{aws.String("s"), nil, []string{"s"}, "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		{nil, names("#x", "x"), nil, "ExpressionAttributeNames can only be specified when using expressions"},
	} {
		_, err := c.GetItem(bg(), &dynamodb.GetItemInput{
			TableName: aws.String("proj"), Key: item{"pk": S("c")},
			ProjectionExpression: tc.proj, ExpressionAttributeNames: tc.names, AttributesToGet: tc.atg,
		})
		wantValidation(t, err, tc.msg)
		_, err = c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			"proj": {Keys: []item{{"pk": S("c")}}, ProjectionExpression: tc.proj, ExpressionAttributeNames: tc.names, AttributesToGet: tc.atg},
		}})
		wantValidation(t, err, tc.msg)
	}

	// Legacy AttributesToGet keeps top-level names.
	got2, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("proj"), Key: item{"pk": S("c")}, AttributesToGet: []string{"n", "status", "nope"}})
	if err != nil {
		t.Fatal(err)
	}
	itemEqual(t, "AttributesToGet", got2.Item, item{"n": N("10"), "status": S("active")})
}
