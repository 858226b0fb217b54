package workbench

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dynago/dynago/toolkit/planner"
)

// Document is a NoSQL Workbench data model, the members dynago reads and
// writes. The layout follows the models NoSQL Workbench exports (for
// one, aws-samples/amazon-dynamodb-design-patterns,
// examples/an-online-shop/json/AnOnlineShop_facets.json).
type Document struct {
	ModelName     string    `json:"ModelName"`
	ModelMetadata *Metadata `json:"ModelMetadata,omitempty"`
	DataModel     []WBTable `json:"DataModel"`
}

// Metadata is the model's ModelMetadata.
type Metadata struct {
	Author           string `json:"Author"`
	DateCreated      string `json:"DateCreated,omitempty"`
	DateLastModified string `json:"DateLastModified,omitempty"`
	Description      string `json:"Description"`
	AWSService       string `json:"AWSService,omitempty"`
	Version          string `json:"Version"`
}

// WBTable is one table of DataModel.
type WBTable struct {
	TableName                   string          `json:"TableName"`
	KeyAttributes               WBKeys          `json:"KeyAttributes"`
	NonKeyAttributes            []WBAttribute   `json:"NonKeyAttributes"`
	TableFacets                 []WBFacet       `json:"TableFacets,omitempty"`
	GlobalSecondaryIndexes      []WBIndex       `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes       []WBIndex       `json:"LocalSecondaryIndexes,omitempty"`
	TableData                   []Item          `json:"TableData,omitempty"`
	DataAccess                  json.RawMessage `json:"DataAccess,omitempty"`
	BillingMode                 string          `json:"BillingMode,omitempty"`
	ProvisionedCapacitySettings *WBCapacity     `json:"ProvisionedCapacitySettings,omitempty"`
}

// WBKeys is a KeyAttributes member.
type WBKeys struct {
	PartitionKey *WBAttribute `json:"PartitionKey"`
	SortKey      *WBAttribute `json:"SortKey,omitempty"`
}

// WBAttribute is an attribute and its type.
type WBAttribute struct {
	AttributeName string `json:"AttributeName"`
	AttributeType string `json:"AttributeType,omitempty"`
}

// WBFacet is a facet: an entity type's view of the table.
type WBFacet struct {
	FacetName         string          `json:"FacetName"`
	KeyAttributeAlias WBAlias         `json:"KeyAttributeAlias"`
	TableData         []Item          `json:"TableData"`
	NonKeyAttributes  []string        `json:"NonKeyAttributes"`
	DataAccess        json.RawMessage `json:"DataAccess,omitempty"`
}

// WBAlias is a facet's KeyAttributeAlias.
type WBAlias struct {
	PartitionKeyAlias string `json:"PartitionKeyAlias"`
	SortKeyAlias      string `json:"SortKeyAlias,omitempty"`
}

// WBIndex is a secondary index.
type WBIndex struct {
	IndexName     string        `json:"IndexName"`
	KeyAttributes WBKeys        `json:"KeyAttributes"`
	Projection    *WBProjection `json:"Projection,omitempty"`
}

// WBProjection is an index's projection.
type WBProjection struct {
	ProjectionType   string   `json:"ProjectionType"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
}

// WBCapacity is a provisioned table's ProvisionedCapacitySettings.
type WBCapacity struct {
	ProvisionedThroughput *struct {
		ReadCapacityUnits  int64 `json:"ReadCapacityUnits"`
		WriteCapacityUnits int64 `json:"WriteCapacityUnits"`
	} `json:"ProvisionedThroughput,omitempty"`
	AutoScalingRead  json.RawMessage `json:"AutoScalingRead,omitempty"`
	AutoScalingWrite json.RawMessage `json:"AutoScalingWrite,omitempty"`
}

// plannerLine starts the description's last line that carries the
// planner's members through a Workbench model.
const plannerLine = "dynago planner: "

// plannerPart is what that line holds.
type plannerPart struct {
	Table      string              `json:"table"`
	SortKey    string              `json:"sortKey,omitempty"`
	Dimensions []planner.Dimension `json:"dimensions"`
	// Formats are the indexes' partition key formats, by index name ("":
	// the table).
	Formats map[string]string `json:"formats"`
}

// IsWorkbench tells whether data looks like a NoSQL Workbench model (an
// object with a "DataModel" member) rather than dynago's.
func IsWorkbench(data []byte) bool {
	var probe map[string]json.RawMessage
	if json.Unmarshal(data, &probe) != nil {
		return false
	}
	_, ok := probe["DataModel"]
	return ok
}

// Open reads a model in either format: a NoSQL Workbench model gives a
// Model per table, dynago's one.
func Open(data []byte) ([]*Model, error) {
	if IsWorkbench(data) {
		return FromWorkbench(data)
	}
	m, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return []*Model{m}, nil
}

// FromWorkbench reads a NoSQL Workbench model, strictly, as one Model per
// table.
func FromWorkbench(data []byte) ([]*Model, error) {
	var doc Document
	if err := strictJSON(data, &doc); err != nil {
		return nil, fmt.Errorf("workbench: NoSQL Workbench model: %w", err)
	}
	return doc.Models()
}

// Models converts the document, one Model per table.
func (doc *Document) Models() ([]*Model, error) {
	if len(doc.DataModel) == 0 {
		return nil, errors.New("workbench: NoSQL Workbench model: DataModel has no table")
	}
	var author, desc string
	if md := doc.ModelMetadata; md != nil {
		author, desc = md.Author, md.Description
	}
	parts := map[string]plannerPart{}
	if i := strings.LastIndex(desc, plannerLine); i >= 0 && !strings.Contains(desc[i:], "\n") {
		var ps []plannerPart
		if err := strictJSON([]byte(desc[i+len(plannerLine):]), &ps); err != nil {
			return nil, fmt.Errorf("workbench: NoSQL Workbench model: the description's %q line: %w", strings.TrimSpace(plannerLine), err)
		}
		for _, p := range ps {
			parts[p.Table] = p
		}
		desc = strings.TrimRight(desc[:i], "\n")
	}
	var out []*Model
	seen := map[string]bool{}
	for i, t := range doc.DataModel {
		if seen[t.TableName] {
			return nil, fmt.Errorf("workbench: NoSQL Workbench model: table %q appears twice", t.TableName)
		}
		seen[t.TableName] = true
		m, err := t.model(parts[t.TableName])
		if err != nil {
			return nil, fmt.Errorf("workbench: NoSQL Workbench model: DataModel[%d] (table %q): %w", i, t.TableName, err)
		}
		m.Name, m.Author, m.Description = doc.ModelName, author, desc
		if m.Name == m.Table {
			m.Name = "" // a nameless model is named after its table
		}
		if err := m.Check(); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

func (t *WBTable) model(p plannerPart) (*Model, error) {
	if t.TableName == "" {
		return nil, errors.New("no TableName")
	}
	if t.BillingMode != "" && t.BillingMode != "PAY_PER_REQUEST" && t.BillingMode != "PROVISIONED" {
		return nil, fmt.Errorf("billingMode %q is neither PAY_PER_REQUEST nor PROVISIONED", t.BillingMode)
	}
	m := &Model{Table: t.TableName, BillingMode: t.BillingMode, SortKey: p.SortKey, Dimensions: p.Dimensions}
	types := map[string]string{}
	for _, a := range t.NonKeyAttributes {
		if a.AttributeName == "" {
			return nil, errors.New("NonKeyAttributes: an attribute has no AttributeName")
		}
		types[a.AttributeName] = a.AttributeType
	}
	// key records a key attribute's type, checking it agrees with what
	// else the table says of it.
	key := func(where string, a *WBAttribute) (string, error) {
		if a == nil {
			return "", nil
		}
		if a.AttributeName == "" {
			return "", fmt.Errorf("%s has no AttributeName", where)
		}
		typ := a.AttributeType
		if typ == "" {
			typ = types[a.AttributeName]
		}
		if typ == "" {
			typ = "S"
		}
		if !slices.Contains(keyTypes, typ) {
			return "", fmt.Errorf("%s %q has type %q: a key is S, N or B", where, a.AttributeName, typ)
		}
		if old, ok := types[a.AttributeName]; ok && old != typ {
			return "", fmt.Errorf("%s %q has type %s, but %s elsewhere", where, a.AttributeName, typ, old)
		}
		types[a.AttributeName] = typ
		if typ != "S" {
			if m.KeyTypes == nil {
				m.KeyTypes = map[string]string{}
			}
			m.KeyTypes[a.AttributeName] = typ
		}
		return a.AttributeName, nil
	}
	pk, err := key("KeyAttributes.PartitionKey", t.KeyAttributes.PartitionKey)
	if err != nil {
		return nil, err
	}
	if pk == "" {
		return nil, errors.New("KeyAttributes has no PartitionKey")
	}
	m.TableKeys = []string{pk}
	sk, err := key("KeyAttributes.SortKey", t.KeyAttributes.SortKey)
	if err != nil {
		return nil, err
	}
	if sk != "" {
		m.TableKeys = append(m.TableKeys, sk)
	}
	for _, a := range t.NonKeyAttributes {
		if slices.Contains(m.TableKeys, a.AttributeName) {
			return nil, fmt.Errorf("NonKeyAttributes declares the table key %q", a.AttributeName)
		}
		m.Attributes = append(m.Attributes, Attribute{Name: a.AttributeName, Type: a.AttributeType})
	}
	if f, ok := p.Formats[""]; ok {
		m.Indexes = append(m.Indexes, Index{Name: "", PartitionKey: pk, Format: f})
	}
	addIndex := func(kind string, i int, w WBIndex, local bool) error {
		where := fmt.Sprintf("%s[%d] (%q)", kind, i, w.IndexName)
		if w.IndexName == "" {
			return fmt.Errorf("%s has no IndexName", where)
		}
		ipk, err := key(where+" PartitionKey", w.KeyAttributes.PartitionKey)
		if err != nil {
			return err
		}
		if ipk == "" {
			return fmt.Errorf("%s has no PartitionKey", where)
		}
		isk, err := key(where+" SortKey", w.KeyAttributes.SortKey)
		if err != nil {
			return err
		}
		ix := Index{Name: w.IndexName, PartitionKey: ipk, SortKey: isk, Local: local, Format: p.Formats[w.IndexName]}
		if isk == m.SortKey {
			ix.SortKey = "" // the planner's shared sort key
		}
		if pr := w.Projection; pr != nil {
			switch pr.ProjectionType {
			case "ALL":
				if len(pr.NonKeyAttributes) > 0 {
					return fmt.Errorf("%s: projection ALL with NonKeyAttributes", where)
				}
			case "KEYS_ONLY", "INCLUDE":
				ix.Projection, ix.NonKeyAttributes = pr.ProjectionType, orNil(pr.NonKeyAttributes)
			default:
				return fmt.Errorf("%s: ProjectionType %q is none of ALL, KEYS_ONLY, INCLUDE", where, pr.ProjectionType)
			}
		}
		m.Indexes = append(m.Indexes, ix)
		return nil
	}
	for i, w := range t.GlobalSecondaryIndexes {
		if err := addIndex("GlobalSecondaryIndexes", i, w, false); err != nil {
			return nil, err
		}
	}
	for i, w := range t.LocalSecondaryIndexes {
		if err := addIndex("LocalSecondaryIndexes", i, w, true); err != nil {
			return nil, err
		}
	}
	for name := range p.Formats {
		if name != "" && !slices.ContainsFunc(m.Indexes, func(ix Index) bool { return ix.Name == name }) {
			return nil, fmt.Errorf("the planner's formats name index %q, which the table does not have", name)
		}
	}
	for i, f := range t.TableFacets {
		if f.FacetName == "" {
			return nil, fmt.Errorf("TableFacets[%d] has no FacetName", i)
		}
		m.Entities = append(m.Entities, Entity{Name: f.FacetName, PartitionKeyAlias: f.KeyAttributeAlias.PartitionKeyAlias,
			SortKeyAlias: f.KeyAttributeAlias.SortKeyAlias, Attributes: orNil(f.NonKeyAttributes), Items: orNil(f.TableData)})
	}
	m.Items = orNil(t.TableData)
	if c := t.ProvisionedCapacitySettings; c != nil && c.ProvisionedThroughput != nil && t.BillingMode != "PAY_PER_REQUEST" {
		m.BillingMode = "PROVISIONED"
		m.ReadCapacity, m.WriteCapacity = c.ProvisionedThroughput.ReadCapacityUnits, c.ProvisionedThroughput.WriteCapacityUnits
	}
	return m, nil
}

// ToWorkbench writes models (one a table) as one NoSQL Workbench model,
// named, authored and described as the first (named after its table if
// it has no name).
func ToWorkbench(models ...*Model) (*Document, error) {
	if len(models) == 0 {
		return nil, errors.New("workbench: no model")
	}
	first := models[0]
	doc := &Document{ModelName: first.Name, ModelMetadata: &Metadata{Author: first.Author, Description: first.Description,
		AWSService: "Amazon DynamoDB", Version: "3.0"}}
	if doc.ModelName == "" {
		doc.ModelName = first.Table
	}
	var parts []plannerPart
	for _, m := range models {
		if err := m.Check(); err != nil {
			return nil, err
		}
		t, p := m.table()
		doc.DataModel = append(doc.DataModel, t)
		if p != nil {
			parts = append(parts, *p)
		}
	}
	if len(parts) > 0 {
		b, err := json.Marshal(parts)
		if err != nil {
			return nil, err
		}
		if doc.ModelMetadata.Description != "" {
			doc.ModelMetadata.Description += "\n\n"
		}
		doc.ModelMetadata.Description += plannerLine + string(b)
	}
	return doc, nil
}

// Marshal writes the document as indented JSON.
func (doc *Document) Marshal() ([]byte, error) {
	return json.MarshalIndent(doc, "", "  ")
}

func (m *Model) table() (WBTable, *plannerPart) {
	attr := func(a string) *WBAttribute {
		if a == "" {
			return nil
		}
		return &WBAttribute{AttributeName: a, AttributeType: m.KeyType(a)}
	}
	t := WBTable{TableName: m.Table, KeyAttributes: WBKeys{PartitionKey: attr(m.PartitionKey()), SortKey: attr(m.TableSortKey())},
		NonKeyAttributes: []WBAttribute{}, TableData: m.Items, BillingMode: m.BillingMode}
	for _, a := range m.Attributes {
		t.NonKeyAttributes = append(t.NonKeyAttributes, WBAttribute{AttributeName: a.Name, AttributeType: a.Type})
	}
	var p *plannerPart
	if len(m.Dimensions) > 0 {
		p = &plannerPart{Table: m.Table, SortKey: m.SortKey, Dimensions: m.Dimensions, Formats: map[string]string{}}
	}
	for _, ix := range m.Indexes {
		if p != nil && ix.Format != "" {
			p.Formats[ix.Name] = ix.Format
		}
		if ix.Name == "" {
			continue
		}
		w := WBIndex{IndexName: ix.Name, KeyAttributes: WBKeys{PartitionKey: attr(ix.PartitionKey), SortKey: attr(m.IndexSortKey(&ix))},
			Projection: &WBProjection{ProjectionType: "ALL"}}
		if ix.Projection != "" {
			w.Projection = &WBProjection{ProjectionType: ix.Projection, NonKeyAttributes: ix.NonKeyAttributes}
		}
		if ix.Local {
			t.LocalSecondaryIndexes = append(t.LocalSecondaryIndexes, w)
		} else {
			t.GlobalSecondaryIndexes = append(t.GlobalSecondaryIndexes, w)
		}
	}
	for _, e := range m.Entities {
		items := e.Items
		if items == nil {
			items = []Item{}
		}
		attrs := e.Attributes
		if attrs == nil {
			attrs = []string{}
		}
		t.TableFacets = append(t.TableFacets, WBFacet{FacetName: e.Name,
			KeyAttributeAlias: WBAlias{PartitionKeyAlias: e.PartitionKeyAlias, SortKeyAlias: e.SortKeyAlias}, TableData: items, NonKeyAttributes: attrs})
	}
	if m.BillingMode == "PROVISIONED" && (m.ReadCapacity != 0 || m.WriteCapacity != 0) {
		t.ProvisionedCapacitySettings = &WBCapacity{}
		t.ProvisionedCapacitySettings.ProvisionedThroughput = &struct {
			ReadCapacityUnits  int64 `json:"ReadCapacityUnits"`
			WriteCapacityUnits int64 `json:"WriteCapacityUnits"`
		}{m.ReadCapacity, m.WriteCapacity}
	}
	return t, p
}

// orNil makes an empty list nil, as dynago's model omits it.
func orNil[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}
