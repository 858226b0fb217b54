package workbench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dynago/dynago/toolkit/planner"
)

// The Workbench fixtures are written for these tests, in the layout of
// the models NoSQL Workbench exports: bakery.workbench.json follows
// aws-samples/amazon-dynamodb-design-patterns,
// examples/an-online-shop/json/AnOnlineShop_facets.json (ModelMetadata
// with dates and Version "1.0", sample items in each facet's TableData,
// "DataAccess": {"MySql": {}} on tables and facets, GSIs with their
// KeyAttributes and Projection, BillingMode and
// ProvisionedCapacitySettings with auto scaling); the library model of
// dynagotest's tests has the table-level TableData and index keys
// without AttributeType that package reads.
var workbenchFixtures = []string{"testdata/bakery.workbench.json", "../../dynagotest/testdata/library.workbench.json"}

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFromWorkbench(t *testing.T) {
	ms, err := FromWorkbench(read(t, "testdata/bakery.workbench.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 {
		t.Fatalf("%d models", len(ms))
	}
	m := ms[0]
	want := &Model{
		Author: "dynago", Description: "Customers and their orders in one table, and orders by day in a GSI.",
		Table: "Bakery", TableKeys: []string{"PK", "SK"}, KeyTypes: map[string]string{"Total": "N"},
		Attributes:  []Attribute{{"Day", "S"}, {"Total", "N"}, {"Name", "S"}, {"Lines", "L"}},
		Indexes:     []Index{{Name: "byDay", PartitionKey: "Day", SortKey: "Total"}},
		BillingMode: "PROVISIONED", ReadCapacity: 5, WriteCapacity: 2,
	}
	got := *m
	got.Entities = nil
	if !reflect.DeepEqual(&got, want) {
		t.Fatalf("got\n%+v\nwant\n%+v", &got, want)
	}
	if len(m.Entities) != 2 || m.Entities[1].Name != "order" || m.Entities[1].SortKeyAlias != "OrderId" ||
		len(m.Entities[1].Items) != 2 || !reflect.DeepEqual(m.Entities[1].Attributes, []string{"Day", "Total", "Lines"}) {
		t.Fatalf("entities: %+v", m.Entities)
	}
	if v := m.Entities[1].Items[0]["Total"]; !reflect.DeepEqual(v, map[string]any{"N": "12.5"}) {
		t.Fatalf("sample value: %#v", v)
	}
}

// canon is a Workbench document as dynago compares two: what neither
// format keeps beside the tables dropped, defaults made explicit.
func canon(t *testing.T, data []byte) *Document {
	t.Helper()
	var d Document
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	md := *d.ModelMetadata
	d.ModelMetadata = &Metadata{Author: md.Author, Description: md.Description}
	for i := range d.DataModel {
		tb := &d.DataModel[i]
		tb.DataAccess = nil
		types := map[string]string{}
		for _, a := range tb.NonKeyAttributes {
			types[a.AttributeName] = a.AttributeType
		}
		fix := func(a *WBAttribute) {
			if a != nil && a.AttributeType == "" {
				a.AttributeType = types[a.AttributeName]
				if a.AttributeType == "" {
					a.AttributeType = "S"
				}
			}
		}
		fix(tb.KeyAttributes.PartitionKey)
		fix(tb.KeyAttributes.SortKey)
		for _, ixs := range [][]WBIndex{tb.GlobalSecondaryIndexes, tb.LocalSecondaryIndexes} {
			for j := range ixs {
				fix(ixs[j].KeyAttributes.PartitionKey)
				fix(ixs[j].KeyAttributes.SortKey)
				if ixs[j].Projection == nil {
					ixs[j].Projection = &WBProjection{ProjectionType: "ALL"}
				}
			}
		}
		for j := range tb.TableFacets {
			tb.TableFacets[j].DataAccess = nil
		}
		if c := tb.ProvisionedCapacitySettings; c != nil {
			c.AutoScalingRead, c.AutoScalingWrite = nil, nil
			if tb.BillingMode == "" {
				tb.BillingMode = "PROVISIONED"
			}
		}
	}
	return &d
}

// TestRoundTripWorkbench: a Workbench model read as dynago's and written
// back is the same model, and reads again as the same dynago models.
func TestRoundTripWorkbench(t *testing.T) {
	for _, name := range workbenchFixtures {
		t.Run(filepath.Base(name), func(t *testing.T) {
			orig := read(t, name)
			ms, err := FromWorkbench(orig)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := ToWorkbench(ms...)
			if err != nil {
				t.Fatal(err)
			}
			out, err := doc.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if a, b := canon(t, orig), canon(t, out); !reflect.DeepEqual(a, b) {
				ja, _ := json.MarshalIndent(a, "", " ")
				jb, _ := json.MarshalIndent(b, "", " ")
				t.Fatalf("Workbench → dynago → Workbench changed the model:\n%s\n---\n%s", ja, jb)
			}
			again, err := FromWorkbench(out)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ms, again) {
				t.Fatalf("read back differently:\n%+v\n%+v", ms, again)
			}
		})
	}
}

// TestRoundTripModels: every example's model, written as a Workbench
// model and read back, is the same model; a planner model stays one.
func TestRoundTripModels(t *testing.T) {
	names, _ := filepath.Glob("../../examples/*/model.json")
	if len(names) < 2 {
		t.Fatalf("examples' models: %v", names)
	}
	for _, name := range names {
		t.Run(filepath.Base(filepath.Dir(name)), func(t *testing.T) {
			data := read(t, name)
			m, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := ToWorkbench(m)
			if err != nil {
				t.Fatal(err)
			}
			out, err := doc.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			back, err := FromWorkbench(out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if len(back) != 1 || !reflect.DeepEqual(back[0], m) {
				t.Fatalf("dynago → Workbench → dynago changed the model:\n%+v\n%+v\n%s", m, back[0], out)
			}
			if len(m.Dimensions) > 0 {
				want, err := planner.ParseModel(data)
				if err != nil {
					t.Fatal(err)
				}
				got, err := back[0].Planner()
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("planner model: %+v, want %+v", got, want)
				}
			}
		})
	}
}

// TestComments checks how the planner's members travel: the keys and
// indexes as Workbench's, the rest on the description's last line.
func TestComments(t *testing.T) {
	m, err := Parse(read(t, "../../examples/comments/model.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ToWorkbench(m)
	if err != nil {
		t.Fatal(err)
	}
	tb := doc.DataModel[0]
	if tb.TableName != "ProductComments" || tb.KeyAttributes.PartitionKey.AttributeName != "PK" || tb.KeyAttributes.SortKey.AttributeName != "SK" {
		t.Fatalf("keys: %+v", tb.KeyAttributes)
	}
	if len(tb.GlobalSecondaryIndexes) != 4 || tb.GlobalSecondaryIndexes[1].IndexName != "byLang" ||
		tb.GlobalSecondaryIndexes[1].KeyAttributes.PartitionKey.AttributeName != "GSI2PK" ||
		tb.GlobalSecondaryIndexes[1].KeyAttributes.SortKey.AttributeName != "GSISK" ||
		tb.GlobalSecondaryIndexes[1].Projection.ProjectionType != "ALL" {
		t.Fatalf("indexes: %+v", tb.GlobalSecondaryIndexes)
	}
	if !strings.HasPrefix(doc.ModelMetadata.Description, plannerLine) || strings.Contains(doc.ModelMetadata.Description, "\n") {
		t.Fatalf("description: %q", doc.ModelMetadata.Description)
	}
}

func TestStrictErrors(t *testing.T) {
	base := string(read(t, "testdata/bakery.workbench.json"))
	cases := []struct {
		name, old, new, want string
	}{
		{"unknown member", `"BillingMode"`, `"Billingmode"`, `unknown member "Billingmode"`},
		{"no partition key", `"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},`, ``, "KeyAttributes has no PartitionKey"},
		{"map key", `"PartitionKey": {"AttributeName": "Day", "AttributeType": "S"}`, `"PartitionKey": {"AttributeName": "Day", "AttributeType": "M"}`, `has type "M": a key is S, N or B`},
		{"key type clash", `{"AttributeName": "Total", "AttributeType": "N"},`, `{"AttributeName": "Total", "AttributeType": "S"},`, "has type N, but S elsewhere"},
		{"member case", `"FacetName": "order"`, `"facetName": "order"`, `unknown member "facetName"`},
		{"projection", `"ProjectionType": "ALL"`, `"ProjectionType": "SOME"`, `ProjectionType "SOME"`},
		{"sample value", `"Name": {"S": "Ines"}`, `"Name": {"S": 1}`, `attribute "Name": S wants a string`},
		{"sample key", `{"PK": {"S": "c#2"}, "SK": {"S": "o#8"},`, `{"PK": {"S": "c#2"},`, `no key attribute "SK"`},
		{"number", `"Total": {"N": "3"}`, `"Total": {"N": "three"}`, "N wants a number"},
		{"billing", `"BillingMode": "PROVISIONED"`, `"BillingMode": "FREE"`, `billingMode "FREE"`},
		{"trailing", `"Version": "1.0"
  },`, `"Version": "1.0"
  },`, ""},
		{"no table", `"TableName": "Bakery"`, `"TableName": ""`, "no TableName"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := strings.Replace(base, c.old, c.new, 1)
			if data == base && c.want != "" {
				t.Fatal("the case changes nothing")
			}
			_, err := FromWorkbench([]byte(data))
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := FromWorkbench([]byte(data + "{}")); err == nil || !strings.Contains(err.Error(), "data after the model") {
					t.Fatalf("trailing data: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
	// dynago's model is as strict.
	for _, c := range []struct{ model, want string }{
		{`{"table": "T", "tableKeys": ["PK"], "colour": 1}`, `unknown member "colour"`},
		{`{"table": "T", "tableKeys": []}`, "tableKeys must be"},
		{`{"table": "T", "tableKeys": ["PK", "SK"], "indexes": [{"name": "L", "partitionKey": "X", "sortKey": "Y", "local": true}]}`, "must share the partition key"},
		{`{"table": "T", "tableKeys": ["PK"], "keyTypes": {"PK": "BOOL"}}`, "give N or B"},
		{`{"table": "T", "tableKeys": ["PK"], "attributes": [{"name": "PK", "type": "S"}]}`, "is a table key"},
		{`{"table": "T", "tableKeys": ["PK"], "sortKey": "SK"}`, "need dimensions"},
		{`{"table": "T", "tableKeys": ["PK"], "indexes": [{"name": "G", "partitionKey": "A", "projection": "INCLUDE"}]}`, "needs nonKeyAttributes"},
		{`{"table": "T", "tableKeys": ["PK"], "items": [{"PK": {"N": "1"}}]}`, `not of type S`},
	} {
		if _, err := Parse([]byte(c.model)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.model, err, c.want)
		}
	}
}

// FuzzFromWorkbench: no input panics, and whatever reads as a model
// writes back as a Workbench model that reads as the same models.
func FuzzFromWorkbench(f *testing.F) {
	for _, name := range workbenchFixtures {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ms, err := Open(data)
		if err != nil {
			return
		}
		doc, err := ToWorkbench(ms...)
		if err != nil {
			t.Fatalf("a model read cannot be written: %v", err)
		}
		out, err := doc.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		again, err := FromWorkbench(out)
		if err != nil {
			t.Fatalf("written model does not read: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(ms, again) {
			t.Fatalf("round trip changed the models:\n%+v\n%+v", ms, again)
		}
	})
}
