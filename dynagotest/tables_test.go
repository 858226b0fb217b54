package dynagotest

import (
	"strings"
	"testing"
)

// TestDefinitionErrors: a definition that is not what it should be is
// reported, never half read.
func TestDefinitionErrors(t *testing.T) {
	for _, c := range []struct{ def, want string }{
		{`{"TableName":"T","KeySchema":[],"Bogus":1}`, `unknown field "Bogus"`},
		{`{"Name":"T"}`, `neither a CreateTable request`},
		{`[{"KeySchema":[]}]`, `element 0: CreateTable request without "TableName"`},
		{`{"DataModel":[{"TableName":"T","KeyAttributes":{}}]}`, `table "T": no PartitionKey`},
		{`{"DataModel":[{"TableName":"T","KeyAttributes":{"PartitionKey":{"AttributeName":"k","AttributeType":"S"}},
			"TableData":[{"k":{"S":"a","N":"1"}}]}]}`, `exactly one type`},
		{`{"DataModel":[{"TableName":"T","KeyAttributes":{"PartitionKey":{"AttributeName":"k","AttributeType":"S"}},
			"TableData":[{"k":{"X":"a"}}]}]}`, `unknown attribute type "X"`},
		{`testdata/no-such-file.json`, `no such file`},
	} {
		_, err := readDefinition(c.def)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.def, err, c.want)
		}
	}
}
