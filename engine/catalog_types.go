package engine

import (
	"github.com/dynago/dynago/dynamo"
	"time"
)

// The catalog's own types: the parts of a table's catalog entry (tableMeta,
// indexMeta, streamMeta) that have an API counterpart. They hold the same
// fields as the API's shapes did when the catalog first stored them, under
// pinned JSON names, so an edit to the request and response types cannot
// change what is on disk: the format changes only when these do, and
// catalog_types_test.go pins both the JSON and the translation each way.

// catKey is one key attribute and its role (KeySchemaElement).
type catKey struct {
	AttributeName string `json:"AttributeName"`
	KeyType       string `json:"KeyType"`
}

// catAttr declares the type of a key attribute (AttributeDefinition).
type catAttr struct {
	AttributeName string `json:"AttributeName"`
	AttributeType string `json:"AttributeType"`
}

// catThroughput is a table's or index's provisioned capacity and its
// history (ProvisionedThroughputDescription).
type catThroughput struct {
	LastIncreaseDateTime   time.Time `json:"LastIncreaseDateTime"`
	LastDecreaseDateTime   time.Time `json:"LastDecreaseDateTime"`
	NumberOfDecreasesToday int64     `json:"NumberOfDecreasesToday"`
	ReadCapacityUnits      int64     `json:"ReadCapacityUnits"`
	WriteCapacityUnits     int64     `json:"WriteCapacityUnits"`
}

// catOnDemand caps an on-demand table's or index's request rate
// (OnDemandThroughput).
type catOnDemand struct {
	MaxReadRequestUnits  *int64 `json:"MaxReadRequestUnits"`
	MaxWriteRequestUnits *int64 `json:"MaxWriteRequestUnits"`
}

// catStream is a table's stream setting (StreamSpecification).
type catStream struct {
	StreamEnabled  bool   `json:"StreamEnabled"`
	StreamViewType string `json:"StreamViewType"`
}

// catSSE is a table's server-side encryption (SSEDescription).
type catSSE struct {
	Status          string `json:"Status"`
	SSEType         string `json:"SSEType"`
	KMSMasterKeyArn string `json:"KMSMasterKeyArn"`
}

// catTag is one tag of a table (Tag).
type catTag struct {
	Key   string `json:"Key"`
	Value string `json:"Value"`
}

// catProjection is what an index copies of an item (Projection).
type catProjection struct {
	ProjectionType   string   `json:"ProjectionType"`
	NonKeyAttributes []string `json:"NonKeyAttributes"`
}

// catVector is what makes an index a vector index (VectorIndex's members
// but its name and projection, which indexMeta holds as for any index).
// It is new with vector indexes, so its JSON is its own: pinned by
// catalog_types_test.go's TestCatalogVectorFormat.
type catVector struct {
	Attribute    string           `json:"attribute"`
	Dimensions   int64            `json:"dimensions"`
	Distance     string           `json:"distance"`
	SearchSchema []catSearchField `json:"searchSchema,omitempty"`
}

// catSearchField is one element of a vector index's search schema
// (SearchSchemaElement).
type catSearchField struct {
	AttributeName string `json:"attributeName"`
	ElementType   string `json:"elementType"`
}

// Translation from the API's shapes to the catalog's.

func catKeys(ks []dynamo.KeySchemaElement) []catKey {
	return mapSlice(ks, func(k dynamo.KeySchemaElement) catKey { return catKey{k.AttributeName, k.KeyType} })
}

func catAttrs(as []dynamo.AttributeDefinition) []catAttr {
	return mapSlice(as, func(a dynamo.AttributeDefinition) catAttr { return catAttr{a.AttributeName, a.AttributeType} })
}

func catTags(ts []dynamo.Tag) []catTag {
	return mapSlice(ts, func(t dynamo.Tag) catTag { return catTag{t.Key, t.Value} })
}

func catThroughputOf(p dynamo.ProvisionedThroughputDescription) catThroughput {
	return catThroughput(p)
}

func catOnDemandOf(o *dynamo.OnDemandThroughput) *catOnDemand {
	if o == nil {
		return nil
	}
	return &catOnDemand{o.MaxReadRequestUnits, o.MaxWriteRequestUnits}
}

func catStreamOf(s *dynamo.StreamSpecification) *catStream {
	if s == nil {
		return nil
	}
	return &catStream{s.StreamEnabled, s.StreamViewType}
}

func catSSEOf(s *dynamo.SSEDescription) *catSSE {
	if s == nil {
		return nil
	}
	return &catSSE{s.Status, s.SSEType, s.KMSMasterKeyArn}
}

func catProjectionOf(p dynamo.Projection) catProjection {
	return catProjection{p.ProjectionType, p.NonKeyAttributes}
}

func catVectorOf(v dynamo.VectorIndex) *catVector {
	c := &catVector{Dimensions: v.Dimensions, Distance: v.DistanceFunction}
	if v.VectorAttribute != nil {
		c.Attribute = v.VectorAttribute.AttributeName
	}
	c.SearchSchema = mapSlice(v.SearchSchema, func(e dynamo.SearchSchemaElement) catSearchField {
		return catSearchField{e.AttributeName, e.SearchSchemaElementType}
	})
	return c
}

// Translation from the catalog's types to the API's.

func apiKeys(ks []catKey) []dynamo.KeySchemaElement {
	return mapSlice(ks, func(k catKey) dynamo.KeySchemaElement {
		return dynamo.KeySchemaElement{AttributeName: k.AttributeName, KeyType: k.KeyType}
	})
}

func apiAttrs(as []catAttr) []dynamo.AttributeDefinition {
	return mapSlice(as, func(a catAttr) dynamo.AttributeDefinition {
		return dynamo.AttributeDefinition{AttributeName: a.AttributeName, AttributeType: a.AttributeType}
	})
}

func apiTags(ts []catTag) []dynamo.Tag {
	return mapSlice(ts, func(t catTag) dynamo.Tag { return dynamo.Tag{Key: t.Key, Value: t.Value} })
}

func (p catThroughput) api() dynamo.ProvisionedThroughputDescription {
	return dynamo.ProvisionedThroughputDescription(p)
}

func (o *catOnDemand) api() *dynamo.OnDemandThroughput {
	if o == nil {
		return nil
	}
	return &dynamo.OnDemandThroughput{MaxReadRequestUnits: o.MaxReadRequestUnits, MaxWriteRequestUnits: o.MaxWriteRequestUnits}
}

func (s *catStream) api() *dynamo.StreamSpecification {
	if s == nil {
		return nil
	}
	return &dynamo.StreamSpecification{StreamEnabled: s.StreamEnabled, StreamViewType: s.StreamViewType}
}

func (s *catSSE) api() *dynamo.SSEDescription {
	if s == nil {
		return nil
	}
	return &dynamo.SSEDescription{Status: s.Status, SSEType: s.SSEType, KMSMasterKeyArn: s.KMSMasterKeyArn}
}

func (p catProjection) api() dynamo.Projection {
	return dynamo.Projection{ProjectionType: p.ProjectionType, NonKeyAttributes: p.NonKeyAttributes}
}

// api returns the vector index im (whose Vector is c) as an API
// definition.
func (c *catVector) api(im *indexMeta) dynamo.VectorIndex {
	return dynamo.VectorIndex{
		IndexName:        im.Name,
		VectorAttribute:  &dynamo.VectorAttributeDefinition{AttributeName: c.Attribute},
		SearchSchema:     c.searchSchema(),
		Projection:       im.Projection.api(),
		Dimensions:       c.Dimensions,
		DistanceFunction: c.Distance,
	}
}

func (c *catVector) searchSchema() []dynamo.SearchSchemaElement {
	return mapSlice(c.SearchSchema, func(e catSearchField) dynamo.SearchSchemaElement {
		return dynamo.SearchSchemaElement{AttributeName: e.AttributeName, SearchSchemaElementType: e.ElementType}
	})
}

// mapSlice is f of each element of s, nil for nil.
func mapSlice[S, T any](s []S, f func(S) T) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}
