package engine

import (
	"encoding/json"
	"github.com/dynago/dynago/dynamo"
	"reflect"
	"testing"
	"time"
)

// catalogPairs holds, for each catalog type, a fully set API value and
// its catalog form.
func catalogPairs() []struct {
	name     string
	api, cat any
	toCat    func() any
	toAPI    func() any
} {
	t1 := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	t2 := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	r, w := int64(7), int64(-1)
	keys := []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}, {AttributeName: "sk", KeyType: dynamo.KeyTypeRange}}
	attrs := []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "sk", AttributeType: "N"}}
	tags := []dynamo.Tag{{Key: "team", Value: "blue"}, {Key: "env", Value: ""}}
	tp := dynamo.ProvisionedThroughputDescription{LastIncreaseDateTime: t1, LastDecreaseDateTime: t2, NumberOfDecreasesToday: 3, ReadCapacityUnits: 5, WriteCapacityUnits: 6}
	od := &dynamo.OnDemandThroughput{MaxReadRequestUnits: &r, MaxWriteRequestUnits: &w}
	st := &dynamo.StreamSpecification{StreamEnabled: true, StreamViewType: dynamo.ViewNewAndOldImages}
	sse := &dynamo.SSEDescription{Status: "ENABLED", SSEType: "KMS", KMSMasterKeyArn: "arn:aws:kms:us-east-1:000000000000:key/k"}
	pr := dynamo.Projection{ProjectionType: dynamo.ProjectionInclude, NonKeyAttributes: []string{"a", "b"}}
	return []struct {
		name     string
		api, cat any
		toCat    func() any
		toAPI    func() any
	}{
		{"KeySchemaElement", keys, catKeys(keys), func() any { return catKeys(keys) }, func() any { return apiKeys(catKeys(keys)) }},
		{"AttributeDefinition", attrs, catAttrs(attrs), func() any { return catAttrs(attrs) }, func() any { return apiAttrs(catAttrs(attrs)) }},
		{"Tag", tags, catTags(tags), func() any { return catTags(tags) }, func() any { return apiTags(catTags(tags)) }},
		{"ProvisionedThroughputDescription", tp, catThroughputOf(tp), func() any { return catThroughputOf(tp) }, func() any { return catThroughputOf(tp).api() }},
		{"OnDemandThroughput", od, catOnDemandOf(od), func() any { return catOnDemandOf(od) }, func() any { return catOnDemandOf(od).api() }},
		{"StreamSpecification", st, catStreamOf(st), func() any { return catStreamOf(st) }, func() any { return catStreamOf(st).api() }},
		{"SSEDescription", sse, catSSEOf(sse), func() any { return catSSEOf(sse) }, func() any { return catSSEOf(sse).api() }},
		{"Projection", pr, catProjectionOf(pr), func() any { return catProjectionOf(pr) }, func() any { return catProjectionOf(pr).api() }},
	}
}

// TestCatalogTypesKeepTheDiskFormat proves the catalog's own types write
// the bytes the catalog wrote when it stored the API's shapes, so data
// written before they existed reads back the same, and that the
// translation each way loses nothing.
func TestCatalogTypesKeepTheDiskFormat(t *testing.T) {
	for _, p := range catalogPairs() {
		a, err := json.Marshal(p.api)
		if err != nil {
			t.Fatal(err)
		}
		c, err := json.Marshal(p.toCat())
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(c) {
			t.Errorf("%s: the catalog writes %s, the API's shape %s", p.name, c, a)
		}
		if back := p.toAPI(); !reflect.DeepEqual(back, p.api) {
			t.Errorf("%s: API -> catalog -> API gives %#v, want %#v", p.name, back, p.api)
		}
		// Catalog -> API -> catalog, through the bytes as a reload does.
		fresh := reflect.New(reflect.TypeOf(p.cat))
		if err := json.Unmarshal(a, fresh.Interface()); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fresh.Elem().Interface(), p.cat) {
			t.Errorf("%s: read back as %#v, want %#v", p.name, fresh.Elem().Interface(), p.cat)
		}
	}
}

// TestCatalogTypesCoverTheAPI fails when a stored field is added to one of
// the API's shapes the catalog mirrors: whether the catalog keeps it is a
// decision about the disk format, to be made in catalog_types.go.
func TestCatalogTypesCoverTheAPI(t *testing.T) {
	for _, p := range catalogPairs() {
		at, ct := elem(reflect.TypeOf(p.api)), elem(reflect.TypeOf(p.cat))
		var stored []string
		for f := range at.Fields() {
			if f.Tag.Get("json") != "-" {
				stored = append(stored, f.Name)
			}
		}
		var cat []string
		for f := range ct.Fields() {
			cat = append(cat, f.Name)
		}
		if !reflect.DeepEqual(stored, cat) {
			t.Errorf("%s stores %v; the catalog's %s holds %v", p.name, stored, ct.Name(), cat)
		}
	}
}

func elem(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	return t
}

// TestCatalogEntryFormat pins the JSON of a table's catalog entry with
// every part the API's shapes once held, byte for byte.
func TestCatalogEntryFormat(t *testing.T) {
	r := int64(9)
	m := tableMeta{
		Name: "T", ID: 3, UUID: "u", Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		AttributeDefinitions: []catAttr{{"pk", "S"}},
		KeySchema:            []catKey{{"pk", dynamo.KeyTypeHash}},
		BillingMode:          dynamo.BillingModeProvisioned,
		Throughput:           catThroughput{ReadCapacityUnits: 1, WriteCapacityUnits: 2},
		OnDemand:             &catOnDemand{MaxReadRequestUnits: &r},
		Stream:               &catStream{true, dynamo.ViewKeysOnly},
		SSE:                  &catSSE{"ENABLED", "KMS", "k"},
		Tags:                 []catTag{{"a", "b"}},
		Indexes: []indexMeta{{Name: "g", ID: 1, Global: true, KeySchema: []catKey{{"x", dynamo.KeyTypeHash}},
			Projection: catProjection{dynamo.ProjectionKeysOnly, nil}, Throughput: &catThroughput{ReadCapacityUnits: 4}}},
	}
	raw, err := json.Marshal(&m)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"name":"T","id":3,"uuid":"u","created":"2026-01-02T03:04:05Z",` +
		`"attributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"keySchema":[{"AttributeName":"pk","KeyType":"HASH"}],` +
		`"billingMode":"PROVISIONED","throughput":{"LastIncreaseDateTime":"0001-01-01T00:00:00Z","LastDecreaseDateTime":"0001-01-01T00:00:00Z","NumberOfDecreasesToday":0,"ReadCapacityUnits":1,"WriteCapacityUnits":2},` +
		`"onDemand":{"MaxReadRequestUnits":9,"MaxWriteRequestUnits":null},"stream":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"},` +
		`"sse":{"Status":"ENABLED","SSEType":"KMS","KMSMasterKeyArn":"k"},"deletionProtection":false,"tags":[{"Key":"a","Value":"b"}],` +
		`"indexes":[{"name":"g","id":1,"global":true,"keySchema":[{"AttributeName":"x","KeyType":"HASH"}],"projection":{"ProjectionType":"KEYS_ONLY","NonKeyAttributes":null},` +
		`"throughput":{"LastIncreaseDateTime":"0001-01-01T00:00:00Z","LastDecreaseDateTime":"0001-01-01T00:00:00Z","NumberOfDecreasesToday":0,"ReadCapacityUnits":4,"WriteCapacityUnits":0}}]}`
	if string(raw) != want {
		t.Errorf("catalog entry is\n%s\nwant\n%s", raw, want)
	}
}

// TestCatalogVectorFormat pins the JSON of a vector index's catalog entry
// and the translation each way.
func TestCatalogVectorFormat(t *testing.T) {
	v := dynamo.VectorIndex{
		IndexName:       "v",
		VectorAttribute: &dynamo.VectorAttributeDefinition{AttributeName: "emb"},
		SearchSchema: []dynamo.SearchSchemaElement{{AttributeName: "u", SearchSchemaElementType: dynamo.SearchSchemaHash},
			{AttributeName: "c", SearchSchemaElementType: dynamo.SearchSchemaInlineFilter}},
		Projection:       dynamo.Projection{ProjectionType: dynamo.ProjectionInclude, NonKeyAttributes: []string{"a"}},
		Dimensions:       3,
		DistanceFunction: dynamo.DistanceCosine,
	}
	im := indexMeta{Name: v.IndexName, ID: 2, Projection: catProjectionOf(v.Projection), Vector: catVectorOf(v)}
	raw, err := json.Marshal(&im)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"name":"v","id":2,"global":false,"keySchema":null,"projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a"]},` +
		`"vector":{"attribute":"emb","dimensions":3,"distance":"COSINE","searchSchema":[{"attributeName":"u","elementType":"HASH"},{"attributeName":"c","elementType":"INLINE_FILTER"}]}}`
	if string(raw) != want {
		t.Errorf("vector index entry is\n%s\nwant\n%s", raw, want)
	}
	var back indexMeta
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, im) {
		t.Errorf("read back as %#v, want %#v", back, im)
	}
	if got := back.Vector.api(&back); !reflect.DeepEqual(got, v) {
		t.Errorf("catalog -> API gives %#v, want %#v", got, v)
	}
}
