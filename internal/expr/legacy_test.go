package expr

import (
	"testing"

	"github.com/dynago/dynago/attr"
)

func vp(v attr.Value) *attr.Value { return &v }
func bp(x bool) *bool             { return &x }

func TestExpectedMessages(t *testing.T) {
	// [dl] putItem and scan tests, run against DynamoDB.
	cases := []struct {
		param string
		conds map[string]Expected
		want  string
	}{
		{"Expected", map[string]Expected{"a": {}}, "1 validation error detected: One or more parameter values were invalid: Value must be provided when Exists is null for Attribute: a"},
		{"Expected", map[string]Expected{"a": {Exists: bp(true)}}, "1 validation error detected: One or more parameter values were invalid: Value must be provided when Exists is true for Attribute: a"},
		{"Expected", map[string]Expected{"a": {Exists: bp(false), Value: vp(s("a"))}}, "1 validation error detected: One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: a"},
		{"Expected", map[string]Expected{"a": {ComparisonOperator: "LT"}}, "One or more parameter values were invalid: Value or AttributeValueList must be used with ComparisonOperator: LT for Attribute: a"},
		{"Expected", map[string]Expected{"a": {Exists: bp(true), ComparisonOperator: "LT"}}, "1 validation error detected: One or more parameter values were invalid: Exists and ComparisonOperator cannot be used together for Attribute: a"},
		{"Expected", map[string]Expected{"a": {AttributeValueList: []attr.Value{s("a")}, Value: vp(s("a")), ComparisonOperator: "LT"}},
			"One or more parameter values were invalid: Value and AttributeValueList cannot be used together for Attribute: a"},
		{"Expected", map[string]Expected{"a": {AttributeValueList: []attr.Value{s("a")}}},
			"1 validation error detected: One or more parameter values were invalid: AttributeValueList can only be used with a ComparisonOperator for Attribute: a"},
		{"Expected", map[string]Expected{"a": {Exists: bp(true), AttributeValueList: []attr.Value{s("a")}}},
			"1 validation error detected: One or more parameter values were invalid: AttributeValueList can only be used with a ComparisonOperator for Attribute: a"},
		{"Expected", map[string]Expected{"a": {AttributeValueList: []attr.Value{}, ComparisonOperator: "EQ"}},
			"One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator"},
		{"Expected", map[string]Expected{"a": {AttributeValueList: []attr.Value{s("a")}, ComparisonOperator: "NULL"}},
			"One or more parameter values were invalid: Invalid number of argument(s) for the NULL ComparisonOperator"},
		{"Expected", map[string]Expected{"a": {Value: vp(s("a")), ComparisonOperator: "BETWEEN"}},
			"One or more parameter values were invalid: Invalid number of argument(s) for the BETWEEN ComparisonOperator"},
		{"ScanFilter", map[string]Expected{"a": {ComparisonOperator: "EQ"}, "b": {ComparisonOperator: "NULL"}},
			"One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator"},
		{"ScanFilter", map[string]Expected{"a": {ComparisonOperator: "IN"}},
			"One or more parameter values were invalid: Invalid number of argument(s) for the IN ComparisonOperator"},
		{"ScanFilter", map[string]Expected{"a": {ComparisonOperator: "LT", AttributeValueList: []attr.Value{boolv(true)}}},
			"One or more parameter values were invalid: ComparisonOperator LT is not valid for BOOL AttributeValue type"},
		{"QueryFilter", map[string]Expected{"a": {ComparisonOperator: "IN", AttributeValueList: []attr.Value{ss("a")}}},
			"One or more parameter values were invalid: ComparisonOperator IN is not valid for SS AttributeValue type"},
		{"KeyConditions", map[string]Expected{"a": {ComparisonOperator: "CONTAINS", AttributeValueList: []attr.Value{l()}}},
			"One or more parameter values were invalid: ComparisonOperator CONTAINS is not valid for L AttributeValue type"},
		{"ScanFilter", map[string]Expected{"a": {ComparisonOperator: "BETWEEN", AttributeValueList: []attr.Value{m(), m()}}},
			"One or more parameter values were invalid: ComparisonOperator BETWEEN is not valid for M AttributeValue type"},
		{"ScanFilter", map[string]Expected{"a": {ComparisonOperator: "BEGINS_WITH", AttributeValueList: []attr.Value{n("1")}}},
			"One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"},
	}
	for _, c := range cases {
		_, err := ConditionFromExpected(c.param, c.conds, "")
		if got := errText(err); got != c.want {
			t.Errorf("%s %v:\n got %q\nwant %q", c.param, c.conds, got, c.want)
		}
	}
}

func TestExpectedSemantics(t *testing.T) {
	item := sampleItem()
	cases := []struct {
		conds map[string]Expected
		op    string
		want  bool
	}{
		{map[string]Expected{"pk": {Exists: bp(false)}}, "", false},
		{map[string]Expected{"zz": {Exists: bp(false)}}, "", true},
		{map[string]Expected{"pk": {Value: vp(s("a"))}}, "", true},
		{map[string]Expected{"pk": {Value: vp(s("a")), Exists: bp(true)}}, "", true},
		{map[string]Expected{"pk": {Value: vp(s("a")), ComparisonOperator: "EQ"}}, "", true},
		{map[string]Expected{"n": {ComparisonOperator: "EQ", AttributeValueList: []attr.Value{n("10.00")}}}, "", true},
		{map[string]Expected{"n": {ComparisonOperator: "NE", AttributeValueList: []attr.Value{n("10")}}}, "", false},
		{map[string]Expected{"zz": {ComparisonOperator: "NE", AttributeValueList: []attr.Value{n("10")}}}, "", true},
		{map[string]Expected{"n": {ComparisonOperator: "GT", AttributeValueList: []attr.Value{n("9")}}}, "", true},
		{map[string]Expected{"n": {ComparisonOperator: "LE", AttributeValueList: []attr.Value{n("9")}}}, "", false},
		{map[string]Expected{"n": {ComparisonOperator: "NOT_NULL"}}, "", true},
		{map[string]Expected{"n": {ComparisonOperator: "NULL"}}, "", false},
		{map[string]Expected{"ss": {ComparisonOperator: "CONTAINS", AttributeValueList: []attr.Value{s("a")}}}, "", true},
		{map[string]Expected{"ss": {ComparisonOperator: "NOT_CONTAINS", AttributeValueList: []attr.Value{s("a")}}}, "", false},
		{map[string]Expected{"s": {ComparisonOperator: "NOT_CONTAINS", AttributeValueList: []attr.Value{s("zz")}}}, "", true},
		{map[string]Expected{"zz": {ComparisonOperator: "NOT_CONTAINS", AttributeValueList: []attr.Value{s("zz")}}}, "", false},
		{map[string]Expected{"s": {ComparisonOperator: "BEGINS_WITH", AttributeValueList: []attr.Value{s("hel")}}}, "", true},
		{map[string]Expected{"n": {ComparisonOperator: "IN", AttributeValueList: []attr.Value{n("1"), n("10")}}}, "", true},
		{map[string]Expected{"n": {ComparisonOperator: "BETWEEN", AttributeValueList: []attr.Value{n("1"), n("10")}}}, "", true},
		{map[string]Expected{"pk": {Value: vp(s("a"))}, "n": {Value: vp(n("1"))}}, "AND", false},
		{map[string]Expected{"pk": {Value: vp(s("a"))}, "n": {Value: vp(n("1"))}}, "OR", true},
	}
	for _, c := range cases {
		cd, err := ConditionFromExpected("Expected", c.conds, c.op)
		if err != nil {
			t.Errorf("%v: %v", c.conds, err)
			continue
		}
		if got := cd.Eval(item); got != c.want {
			t.Errorf("%v %s = %v, want %v", c.conds, c.op, got, c.want)
		}
	}
	if c, err := ConditionFromExpected("Expected", nil, ""); c != nil || err != nil {
		t.Error("empty Expected")
	}
	if c, _ := ConditionFromExpected("ScanFilter", map[string]Expected{"a": {ComparisonOperator: "NULL"}}, ""); c.Kind() != KindFilter {
		t.Error("ScanFilter kind")
	}
}

func TestAttributeUpdates(t *testing.T) {
	for _, c := range []struct {
		upd  map[string]AttributeUpdate
		want string
	}{
		{map[string]AttributeUpdate{"a": {Action: "PUT"}}, "One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified"},
		{map[string]AttributeUpdate{"a": {Action: "DELETE", Value: vp(s("1"))}}, "One or more parameter values were invalid: DELETE action with value is not supported for the type S"},
		{map[string]AttributeUpdate{"a": {Action: "DELETE", Value: vp(l())}}, "One or more parameter values were invalid: DELETE action with value is not supported for the type L"},
		{map[string]AttributeUpdate{"a": {Action: "ADD", Value: vp(b("x"))}}, "One or more parameter values were invalid: ADD action is not supported for the type B"},
		{map[string]AttributeUpdate{"a": {Action: "ADD", Value: vp(m())}}, "One or more parameter values were invalid: ADD action is not supported for the type M"},
	} {
		if _, err := UpdateFromAttributeUpdates(c.upd); errText(err) != c.want {
			t.Errorf("%v: %q", c.upd, errText(err))
		}
	}
	u, err := UpdateFromAttributeUpdates(map[string]AttributeUpdate{
		"name":  {Action: "PUT", Value: vp(s("new"))},
		"count": {Action: "ADD", Value: vp(n("9"))},
		"extra": {Action: "DELETE"},
		"tags":  {Action: "DELETE", Value: vp(ss("b"))},
		"list":  {Action: "ADD", Value: vp(l(s("b")))},
		"new":   {Value: vp(n("42"))},
		"set":   {Action: "ADD", Value: vp(ss("c", "a"))},
	})
	if err != nil {
		t.Fatal(err)
	}
	old := attr.Item{"name": s("old"), "count": n("1"), "extra": s("x"), "tags": ss("a", "b"), "list": l(s("a")), "set": ss("a", "b")}
	got, err := u.Apply(old)
	if err != nil {
		t.Fatal(err)
	}
	want := attr.Item{"name": s("new"), "count": n("10"), "tags": ss("a"), "list": l(s("a"), s("b")), "new": n("42"), "set": ss("a", "b", "c")}
	if !itemsEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if got := u.UpdatedPaths().Apply(got); len(got) != 6 || got["extra"].Type != attr.TypeInvalid {
		t.Errorf("UPDATED_NEW: %v", got)
	}
	if err := u.CheckKeys("new"); errText(err) != "One or more parameter values were invalid: Cannot update attribute new. This attribute is part of the key" {
		t.Errorf("CheckKeys: %v", err)
	}
	u, _ = UpdateFromAttributeUpdates(map[string]AttributeUpdate{"c": {Action: "DELETE", Value: vp(ns("1"))}})
	if _, err := u.Apply(attr.Item{"c": n("1")}); errText(err) != MsgLegacyTypeMismatch {
		t.Errorf("type mismatch: %v", err)
	}
	u, _ = UpdateFromAttributeUpdates(map[string]AttributeUpdate{"d": {Action: "ADD", Value: vp(n("1"))}})
	if _, err := u.Apply(attr.Item{"d": ns("1")}); errText(err) != MsgLegacyTypeMismatch {
		t.Errorf("type mismatch: %v", err)
	}
}
