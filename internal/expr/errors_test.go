package expr

import (
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
)

// Sources of the pinned messages (DynamoDB's own answers as recorded by):
//
//	[cf]  nubo-db/dynamodb-conformance tier-3 tests (run against AWS)
//	[dl]  dynalite's test suite (run against AWS)
//	[is]  quoted in a GitHub issue or report (named in the case)
//	[inf] inferred; no capture found
type errCase struct {
	name   string
	in     Input
	want   string
	source string
}

var (
	abNames  = map[string]string{"#a": "a", "#b": "b"}
	abValues = attr.Item{":a": s("a"), ":b": s("a")}
)

func TestErrorMessages(t *testing.T) {
	cases := []errCase{
		// --- syntax errors: token and the text around it
		{"syntax update", Input{Update: "INVALID SYNTAX HERE", Values: attr.Item{":v": s("v")}},
			`Invalid UpdateExpression: Syntax error; token: "INVALID", near: "INVALID SYNTAX"`, "cf"},
		{"syntax lone colon", Input{Update: "ADD hits : incr", Values: attr.Item{":incr": n("1")}},
			`Invalid UpdateExpression: Syntax error; token: ":", near: "hits : incr"`, "is aws-cdk#7591"},
		{"syntax projection bang", Input{Projection: "!!! INVALID !!!"},
			`Invalid ProjectionExpression: Syntax error; token: "!", near: "!!"`, "cf"},
		{"syntax hyphen condition", Input{Condition: "a-b"},
			`Invalid ConditionExpression: Syntax error; token: "-", near: "a-b"`, "is floci#1512"},
		{"syntax hyphen filter", Input{Filter: "a-b"},
			`Invalid FilterExpression: Syntax error; token: "-", near: "a-b"`, "is floci#1512"},
		{"syntax hyphen key", Input{KeyCondition: "a-b"},
			`Invalid KeyConditionExpression: Syntax error; token: "-", near: "a-b"`, "is floci#1512"},
		{"syntax eof", Input{KeyCondition: "#t = :type and begins_with(b, :type", Names: map[string]string{"#t": "t"}, Values: attr.Item{":type": s("x")}},
			`Invalid KeyConditionExpression: Syntax error; token: "<EOF>", near: ":type"`, "is (user report)"},
		{"syntax eof after operator", Input{Condition: "a = "}, `Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "="`, "inf"},
		{"syntax empty parens", Input{KeyCondition: "contains()"}, `Invalid KeyConditionExpression: Syntax error; token: ")", near: "()"`, "is ServiceStack.Aws#5"},
		{"syntax comma", Input{Update: "SET #as = :v, #b", Names: abNames},
			`Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "#b"`, "inf"},
		{"syntax numeric literal", Input{Condition: "a > 4"}, `Invalid ConditionExpression: Syntax error; token: "4", near: "> 4"`, "dl (prefix)"},
		{"syntax three operands", Input{Update: "set a = b + c + d"}, `Invalid UpdateExpression: Syntax error; token: "+", near: "c + d"`, "dl (prefix)"},
		{"syntax section keyword as name", Input{Condition: "set = :v", Values: attr.Item{":v": s("x")}},
			`Invalid ConditionExpression: Syntax error; token: "set", near: "set ="`, "inf"},
		{"syntax non-ascii", Input{Condition: "ü > a"}, `Invalid ConditionExpression: Syntax error; token: "ü", near: "ü >"`, "dl (prefix)"},
		{"syntax size deref", Input{Condition: "size(a).b > a"}, `Invalid ConditionExpression: Syntax error; token: ".", near: ").b"`, "dl (prefix)"},

		// --- empty and oversized
		{"empty update", Input{Present: Kinds(0).With(KindUpdate)}, "Invalid UpdateExpression: The expression can not be empty;", "cf"},
		{"empty key condition", Input{Present: Kinds(0).With(KindKeyCondition), Values: attr.Item{":v": s("val")}},
			"Invalid KeyConditionExpression: The expression can not be empty;", "cf"},
		{"blank condition", Input{Condition: "  \t"}, "Invalid ConditionExpression: The expression can not be empty;", "dl"},
		{"update before condition", Input{Present: Kinds(0).With(KindUpdate).With(KindCondition)},
			"Invalid UpdateExpression: The expression can not be empty;", "dl"},
		{"filter before projection", Input{Present: Kinds(0).With(KindFilter).With(KindProjection), Values: attr.Item{":0": s("b")}},
			"Invalid FilterExpression: The expression can not be empty;", "dl"},
		{"too long", Input{Filter: "a = :v" + strings.Repeat(" ", 5866), Values: attr.Item{":v": s("x")}},
			"Invalid FilterExpression: Expression size has exceeded the maximum allowed size; expression size: 5872", "is (user report)"},

		// --- redundant parentheses
		{"redundant condition", Input{Condition: "((attribute_not_exists(pk)))"}, "Invalid ConditionExpression: The expression has redundant parentheses;", "cf"},
		{"redundant key condition", Input{KeyCondition: "((pk = :v))", Values: attr.Item{":v": s("val")}},
			"Invalid KeyConditionExpression: The expression has redundant parentheses;", "cf"},
		{"redundant operand", Input{Filter: "a=a and a > ((views))"}, "Invalid FilterExpression: The expression has redundant parentheses;", "dl"},
		{"redundant before syntax", Input{Filter: "(a)between(((b.c)).d)and(c)"}, "Invalid FilterExpression: The expression has redundant parentheses;", "dl"},
		{"redundant in function", Input{Filter: "a > whatever((:things), ((a)))"}, "Invalid FilterExpression: The expression has redundant parentheses;", "dl"},
		{"redundant and group", Input{Filter: "a=a AND ((a=a AND a=a)) AND a=a"}, "Invalid FilterExpression: The expression has redundant parentheses;", "dl"},
		{"redundant in", Input{Filter: "(#c1_1 = :c1_1) AND ((#c1_2 IN (:c1_2, :c1_3)))", Names: map[string]string{"#c1_1": "_et", "#c1_2": "status"},
			Values: attr.Item{":c1_1": s("P"), ":c1_2": s("I"), ":c1_3": s("E")}},
			"Invalid FilterExpression: The expression has redundant parentheses;", "is dynamodb-toolbox#1073"},
		{"redundant arithmetic", Input{Update: "set a = ((b + c))"}, "Invalid UpdateExpression: The expression has redundant parentheses;", "inf"},

		// --- functions
		{"invalid function", Input{Filter: "a=a and whatever((:things)) > a"}, "Invalid FilterExpression: Invalid function name; function: whatever", "dl"},
		{"function names are case-sensitive", Input{Filter: "attRIbute_exIsts((views), #a)"},
			"Invalid FilterExpression: Invalid function name; function: attRIbute_exIsts", "dl"},
		{"update function name", Input{Update: "set #c = if_not_exist(:c) set c = d", Names: abNames, Values: abValues},
			"Invalid UpdateExpression: Invalid function name; function: if_not_exist", "dl"},
		{"condition function in update", Input{Update: "SET x = size(a)"},
			"Invalid UpdateExpression: The function is not allowed in an update expression; function: size", "inf (DynamoDB Local's list)"},
		{"update function in condition", Input{Condition: "if_not_exists(a, :v) = :v", Values: attr.Item{":v": s("x")}},
			"Invalid ConditionExpression: The function is not allowed in a condition expression; function: if_not_exists", "inf (DynamoDB Local's list)"},
		{"misused function", Input{Filter: "a=a and attribute_exists((views), (#a)) > b"},
			"Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: attribute_exists", "dl"},
		{"misused inside size", Input{Filter: "size(contains(a, b)) > a"},
			"Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: contains", "dl"},
		{"size alone", Input{Filter: "size(things)"},
			"Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: size", "dl"},
		{"misused in between", Input{Filter: "a between b and attribute_exists(things)"},
			"Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: attribute_exists", "dl"},
		{"misused in IN", Input{Filter: "a in (b, attribute_exists(things))"},
			"Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: attribute_exists", "dl"},
		{"operand count", Input{Filter: "attribute_exists(things, a) and a=a"},
			"Invalid FilterExpression: Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 2", "dl"},
		{"operand count begins_with", Input{Condition: "begins_with(things)"},
			"Invalid ConditionExpression: Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 1", "dl"},
		{"operand count size", Input{Filter: "size(things, a) > b"},
			"Invalid FilterExpression: Incorrect number of operands for operator or function; operator or function: size, number of operands: 2", "dl"},
		{"operand type attribute_type", Input{Filter: "attribute_type(a, :a)", Values: attr.Item{":a": n("1")}},
			"Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N", "dl"},
		{"operand type from size", Input{Filter: "attribute_type(a, size(a)) and a=a and a=:a", Values: attr.Item{":a": n("1")}},
			"Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N", "dl"},
		{"operand type begins_with", Input{Filter: "begins_with(:a, a)", Values: attr.Item{":a": ns("1")}},
			"Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: NS", "dl"},
		{"operand type size", Input{Filter: "size(:a) > a", Values: attr.Item{":a": boolv(true)}},
			"Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: size, operand type: BOOL", "dl"},
		{"nested size first", Input{Filter: "attribute_not_exists(size(:a))", Values: attr.Item{":a": n("1")}},
			"Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: size, operand type: N", "dl"},
		{"requires path", Input{Filter: "attribute_not_exists(size(:a))", Values: attr.Item{":a": s("1")}},
			"Invalid FilterExpression: Operator or function requires a document path; operator or function: attribute_not_exists", "dl"},
		{"attribute_type bad name", Input{Filter: "attribute_type(a, :a)", Values: attr.Item{":a": s("1")}},
			"Invalid FilterExpression: Invalid attribute type name found; type: 1, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}", "dl (set order varies)"},
		{"distinct contains", Input{Condition: "contains(#a, #a)", Names: map[string]string{"#a": "data"}},
			"Invalid ConditionExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: contains, first operand: [data]", "cf"},
		{"distinct comparison", Input{Filter: "a = a AND #a = b AND :views > a", Names: map[string]string{"#a": "a"}, Values: attr.Item{":views": n("1")}},
			"Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [a]", "dl"},
		{"distinct through name", Input{Filter: "#a <> a", Names: map[string]string{"#a": "a"}},
			"Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: <>, first operand: [a]", "dl"},
		{"distinct nested", Input{Filter: "begins_with(ab.bc[1].a, ab.bc[1].#a)", Names: map[string]string{"#a": "a"}},
			"Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: begins_with, first operand: [ab, bc, [1], a]", "dl"},
		{"between reversed", Input{Filter: "n BETWEEN :hi AND :lo", Values: attr.Item{":hi": n("10"), ":lo": n("1")}},
			"Invalid FilterExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:10}, upper bound operand: AttributeValue: {N:1}", "is (dynamode comment)"},
		{"between strings", Input{Filter: "k BETWEEN :a AND :b", Values: attr.Item{":a": s("5"), ":b": s("100")}},
			"Invalid FilterExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:5}, upper bound operand: AttributeValue: {S:100}", "is (dynamode comment)"},
		{"between types", Input{Condition: "k BETWEEN :a AND :b", Values: attr.Item{":a": n("5"), ":b": s("x")}},
			"Invalid ConditionExpression: The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:5}, upper bound operand: AttributeValue: {S:x}", "inf (DynamoDB Local's list)"},
		{"IN too many", Input{Filter: "a IN (" + strings.TrimSuffix(strings.Repeat(":v, ", 163), ", ") + ")", Values: attr.Item{":v": s("x")}},
			"Invalid FilterExpression: The IN operator is provided with too many operands; number of operands: 163", "is reapit#8255"},
		{"too many operators", Input{Filter: strings.TrimSuffix(strings.Repeat("a < b AND ", 301), " AND ")},
			"Invalid FilterExpression: The expression contains too many operators; operator count: 301", "is aws-sdk-js#3721"},
		{"nesting", Input{Projection: "a" + strings.Repeat(".b", 32)},
			"Invalid ProjectionExpression: The document path has too many nesting levels; nesting levels: 33", "is (ScyllaDB test)"},

		// --- reserved words and placeholders
		{"reserved", Input{Filter: ":a < abOrT"}, "Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: abOrT", "dl"},
		{"reserved before undefined", Input{Filter: "attribute_exists(views, #a)"}, "Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: views", "dl"},
		{"reserved update", Input{Update: " remove Absolute "}, "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: Absolute", "dl"},
		{"reserved before section", Input{Update: " set #c = :c set abOrt = true ", Names: abNames, Values: abValues},
			"Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: abOrt", "dl"},
		{"reserved nested", Input{Projection: "a.name"}, "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name", "inf"},
		{"undefined name", Input{KeyCondition: "pk = :pk", Filter: "#missing = :fv", Values: attr.Item{":pk": s("val"), ":fv": s("x")}},
			"Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #missing", "cf"},
		{"undefined value", Input{Update: "SET attr1 = :v"},
			"Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :v", "cf"},
		{"first undefined in order", Input{Filter: "begins_with(:hello, #a, #b)"},
			"Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :hello", "dl"},
		{"undefined before count", Input{Filter: "begins_with(Pictures.#RearView)"},
			"Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #RearView", "dl"},
		{"undefined underscore", Input{Filter: "#_ > a"},
			"Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #_", "dl"},

		// --- update structure
		{"section twice", Input{Update: "set a = #c set c = :d", Names: abNames, Values: abValues},
			`Invalid UpdateExpression: The "SET" section can only be used once in an update expression;`, "dl"},
		{"remove twice", Input{Update: "remove #d set a = b remove e", Names: abNames, Values: abValues},
			`Invalid UpdateExpression: The "REMOVE" section can only be used once in an update expression;`, "dl"},
		{"overlap", Input{Update: "set d[1] = a, d.b = a, c[1].a = a, #c = if_not_exists(a)", Names: map[string]string{"#c": "c", "#d": "[3]"}},
			"Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [c, [1], a], path two: [c]", "dl"},
		{"overlap same", Input{Update: "set a = b remove a, #c, #d", Names: map[string]string{"#c": "c", "#d": "[3]"}},
			"Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]", "dl"},
		{"overlap index names", Input{Update: "set #c[3].#d = a, #c[3] = a", Names: map[string]string{"#c": "c", "#d": "[3]"}},
			"Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [c, [3], [3]], path two: [c, [3]]", "dl"},
		{"overlap remove", Input{Update: "remove c, #c.a, #d", Names: map[string]string{"#c": "c", "#d": "[3]"}},
			"Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [c], path two: [c, a]", "dl"},
		{"overlap set twice", Input{Update: "SET #v = :a, #v = :b", Names: map[string]string{"#v": "f"}, Values: attr.Item{":a": s("x"), ":b": s("y")}},
			"Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [f], path two: [f]", "is aiodynamo#2"},
		{"conflict", Input{Update: "set #c[3].#d = a, #c.#d[3] = if_not_exists(a)", Names: map[string]string{"#b": "b", "#c": "c", "#d": "[3]"}},
			"Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [c, [3], [3]], path two: [c, [3], [3]]", "dl (#b unused, reported later)"},
		{"conflict remove set", Input{Update: "remove a.#c set a[1] = #d", Names: map[string]string{"#c": "c", "#d": "[3]"}},
			"Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, c], path two: [a, [1]]", "dl"},
		{"add type", Input{Update: "set b = list_append(:a, a), c = if_not_exists(a) add a.b :a", Values: attr.Item{":a": s("a")}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND", "is (several reports)"},
		{"delete type", Input{Update: "delete a.b :a", Values: attr.Item{":a": n("1")}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND", "is (several reports)"},
		{"add list", Input{Update: "add a.b :a", Values: attr.Item{":a": l(n("1"))}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: LIST, typeSet: ALLOWED_FOR_ADD_OPERAND", "is (several reports)"},
		{"add map", Input{Update: "add a.b :a", Values: attr.Item{":a": m()}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: MAP, typeSet: ALLOWED_FOR_ADD_OPERAND", "is (several reports)"},
		{"if_not_exists count", Input{Update: "set a = if_not_exists(c)"},
			"Invalid UpdateExpression: Incorrect number of operands for operator or function; operator or function: if_not_exists, number of operands: 1", "dl"},
		{"if_not_exists path", Input{Update: "set a = if_not_exists(if_not_exists(a, b), c)"},
			"Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists", "dl"},
		{"list_append type", Input{Update: "set a = list_append(:a, a)", Values: attr.Item{":a": s("a")}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: S", "dl"},
		{"plus type", Input{Update: "set a = :c + a", Values: attr.Item{":c": b("a")}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: +, operand type: B", "dl"},
		{"minus type", Input{Update: "set a = a - :j", Values: attr.Item{":j": l()}},
			"Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: -, operand type: L", "dl"},

		// --- request-level checks
		{"names without expressions", Input{Operation: OpUpdateItem, Names: map[string]string{}, Values: attr.Item{}},
			"ExpressionAttributeNames can only be specified when using expressions", "dl"},
		{"values without expressions update", Input{Operation: OpUpdateItem, Values: attr.Item{}},
			"ExpressionAttributeValues can only be specified when using expressions: UpdateExpression and ConditionExpression are null", "dl"},
		{"values without expressions put", Input{Operation: OpPutItem, Values: attr.Item{":v": s("unused")}},
			"ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null", "dl"},
		{"values without expressions query", Input{Operation: OpQuery, Projection: "a", Values: attr.Item{":v": s("x")}},
			"ExpressionAttributeValues can only be specified when using expressions: FilterExpression and KeyConditionExpression are null", "dl"},
		{"values without expressions scan", Input{Operation: OpScan, Values: attr.Item{}},
			"ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null", "dl"},
		{"empty names", Input{Present: Kinds(0).With(KindUpdate), Names: map[string]string{}, Values: attr.Item{}},
			"ExpressionAttributeNames must not be empty", "dl"},
		{"bad name key", Input{Present: Kinds(0).With(KindUpdate), Names: map[string]string{"a": "a"}, Values: attr.Item{}},
			`ExpressionAttributeNames contains invalid key: Syntax error; key: "a"`, "dl"},
		{"bad name key hash only", Input{Projection: "#", Names: map[string]string{"#": "foo"}},
			`ExpressionAttributeNames contains invalid key: Syntax error; key: "#"`, "inf"},
		{"empty values", Input{Present: Kinds(0).With(KindUpdate), Values: attr.Item{}},
			"ExpressionAttributeValues must not be empty", "dl"},
		{"bad value key", Input{Present: Kinds(0).With(KindUpdate), Values: attr.Item{":b": {}, "b": s("a")}},
			`ExpressionAttributeValues contains invalid key: Syntax error; key: "b"`, "dl"},
		{"bad value", Input{Present: Kinds(0).With(KindUpdate), Values: attr.Item{":b": ss()}},
			"ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An string set  may not be empty for key :b", "dl"},
		{"bad number value", Input{Present: Kinds(0).With(KindUpdate), Values: attr.Item{":b": n("b")}},
			"ExpressionAttributeValues contains invalid value: The parameter cannot be converted to a numeric value: b for key :b", "dl"},
		{"empty value", Input{Present: Kinds(0).With(KindUpdate), Values: attr.Item{":b": {}}},
			"ExpressionAttributeValues contains invalid value: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes for key :b", "dl"},
		{"unused name", Input{Update: "SET attr1 = :v", Values: attr.Item{":v": s("val")}, Names: map[string]string{"#unused": "someattr"}},
			"Value provided in ExpressionAttributeNames unused in expressions: keys: {#unused}", "cf"},
		{"unused value", Input{Update: "SET attr1 = :v", Values: attr.Item{":v": s("val"), ":unused": s("extra")}},
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}", "cf"},
		{"unused names across expressions", Input{Update: "remove a set b = list_append(b, if_not_exists(a, :a))", Condition: "a = :b", Values: abValues, Names: abNames},
			"Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}", "dl (set order varies)"},
		{"used across expressions", Input{Update: "remove a", Condition: "a = :b", Values: attr.Item{":a": s("a"), ":b": s("a"), ":c": s("a")}},
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:a, :c}", "dl (set order varies)"},
	}
	for _, c := range cases {
		got := compileErr(t, c.in)
		if got != c.want {
			t.Errorf("%s [%s]:\n got %q\nwant %q", c.name, c.source, got, c.want)
		}
	}
}

func TestSyntaxErrorsAlwaysPrefixed(t *testing.T) {
	// dynalite's lists of expressions DynamoDB answers with a syntax error.
	filters := []string{
		"things are not gonna be ok", "a > 4", "attribute_exists(Pictures-RearView)",
		`attribute_exists("Pictures.RearView")`, "attribute_exists(Pictures..RearView)",
		"attribute_exists(Pi#ctures.RearView)", "attribute_exists(asdf[a])", "a in b, c",
		"a > between", "a in b", "a in (b,c,)", "(a)between(b.(c.d))and(c)",
		"(a)between(b.c.d)and((c)", "#$.b > a", "a > :things.stuff", "b[:a] > a", "b[#_] > a",
		"ü > a", "(a)between(b.c[4.5].#d)and(:a)", "size(a).b > a", "(size(a)).b > a",
		"size(a)[0] > a", "(size(a))[0] > a",
	}
	for _, f := range filters {
		if got := compileErr(t, Input{Filter: f}); !strings.HasPrefix(got, "Invalid FilterExpression: Syntax error; ") {
			t.Errorf("%q: %q", f, got)
		}
	}
	updates := []string{
		"whatever", "set a", "add a", "delete a", "set a=set", "remove a = b", "add a = b",
		"delete a = b", "delete a b", "delete a if_not_exist(b)", "add abort b", "add a if_not_exist(b)",
		"remove a b", "set a b", "set :a = b", "add :a b", "delete :a b", "remove :a",
		"set a = b / c", "set a = b * c", `set a[1] = "eight"`, "set a[1] = 1",
		"SET a = if_not_exist(a, 100)", "SET if_not_exist(a, b) = a", "set (a = (b + c))",
		"set a = (b.c).d + e", "set a = (b.c)[0] + e", "set a = b + c + d",
	}
	for _, u := range updates {
		if got := compileErr(t, Input{Update: u}); !strings.HasPrefix(got, "Invalid UpdateExpression: Syntax error; ") {
			t.Errorf("%q: %q", u, got)
		}
	}
}

func TestAcceptedForms(t *testing.T) {
	// Parenthesized conditions that DynamoDB accepts ([cf] deleteItem tests)
	// and other well-formed expressions.
	ok := []Input{
		{Condition: "(attribute_exists(pk)) AND (#s = :v)", Names: map[string]string{"#s": "status"}, Values: attr.Item{":v": s("x")}},
		{Condition: "(attribute_exists(pk) AND #s = :v)", Names: map[string]string{"#s": "status"}, Values: attr.Item{":v": s("x")}},
		{Condition: "(attribute_exists(pk) AND (#s = :v))", Names: map[string]string{"#s": "status"}, Values: attr.Item{":v": s("x")}},
		{Condition: "(a) = :v", Values: attr.Item{":v": s("x")}},
		{Condition: "(size(a)) = :v", Values: attr.Item{":v": n("1")}},
		{Condition: "NOT (a = :v)", Values: attr.Item{":v": s("x")}},
		{Condition: "a between :x and :y", Values: attr.Item{":x": n("1"), ":y": n("1")}},
		{Condition: ":a > :a", Values: attr.Item{":a": n("1")}},
		{Update: "set a = (b + c)"},
		{Update: "set a = (b) + (c)"},
		{Update: "SET a = if_not_exists(a, :z) + :o", Values: attr.Item{":z": n("0"), ":o": n("1")}},
		{Update: "REMOVE b DELETE c :c ADD d :d, e :e SET f = :f", Values: attr.Item{":c": ss("a"), ":d": n("5"), ":e": ss("a"), ":f": l()}},
		{Update: "set b.c=((c[1])+(b.a)),b.a = a,c[1] = a, c[4] = b.a - b.b, c[2] = b.c add c[8] :b, c[6] :a", Values: attr.Item{":a": n("2"), ":b": ss("a")}},
		{Projection: "a, b.c, d[0].e, #x", Names: map[string]string{"#x": "x"}},
		{KeyCondition: "#h = :v AND begins_with(r, :p)", Names: map[string]string{"#h": "h"}, Values: attr.Item{":v": s("x"), ":p": s("y")}},
	}
	for _, in := range ok {
		if got := compileErr(t, in); got != "" {
			t.Errorf("%+v: %s", in, got)
		}
	}
}

func TestCheckKeysAndMixing(t *testing.T) {
	for _, e := range []string{"add a.b :a", "delete a :a", "set a = :a"} {
		if err := upd(t, e, nil, attr.Item{":a": ns("1")}).CheckKeys("a"); err == nil {
			t.Errorf("%q: key update allowed", e)
		}
	}
	u := upd(t, "remove d set b = :a, a = :a", nil, attr.Item{":a": n("1")})
	if got := errText(u.CheckKeys("a")); got != "One or more parameter values were invalid: Cannot update attribute a. This attribute is part of the key" {
		t.Errorf("CheckKeys: %q", got)
	}
	u = upd(t, "set d[1] = :a add b.b :a", nil, attr.Item{":a": n("1")})
	if got := errText(u.CheckKeys("a", "b")); got != "One or more parameter values were invalid: Cannot update attribute b. This attribute is part of the key" {
		t.Errorf("CheckKeys: %q", got)
	}
	if err := u.CheckKeys("x"); err != nil {
		t.Error(err)
	}
	got := errText(CheckMixing([]string{"AttributeUpdates", "Expected"}, []string{"UpdateExpression", "ConditionExpression"}))
	if want := "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributeUpdates, Expected} Expression parameters: {UpdateExpression, ConditionExpression}"; got != want {
		t.Errorf("CheckMixing: %q", got)
	}
	if CheckMixing(nil, []string{"ConditionExpression"}) != nil {
		t.Error("no mixing reported as mixing")
	}
}
