// Package workbench converts data models between dynago's model (the
// JSON `dynago plan --model` reads, grown with what a modeling tool needs
// to draw a table) and the model format NoSQL Workbench for DynamoDB
// imports and exports, both ways.
//
// dynago's model is one table: its keys, the types of its key attributes
// that are not strings, its declared non-key attributes, its global and
// local secondary indexes with their keys and projections, its entity
// types (Workbench's facets, each with its key aliases, attributes and
// sample items), sample items of no entity, its billing mode, and, when
// the planner uses it, the planner's dimensions and key formats. A model
// holding only the planner's members is a planner model as it always was,
// and Planner gives the planner's type for it.
//
// NoSQL Workbench's format ("ModelName", "ModelMetadata", "DataModel":
// tables with "KeyAttributes", "NonKeyAttributes", "TableFacets",
// "GlobalSecondaryIndexes", "TableData", "BillingMode" and
// "ProvisionedCapacitySettings") holds several tables; FromWorkbench
// gives one Model a table. What the Workbench format has no member for
// (the planner's dimensions and formats) travels in the model's
// description, on a last line starting "dynago planner: ", which
// FromWorkbench reads back and removes. What dynago's model has no member
// for (the metadata's dates and version, "DataAccess", auto scaling
// settings) is dropped on the way in.
//
// Both decoders are strict: a member neither format has is an error
// naming it, as is any value of the wrong shape.
package workbench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/dynago/dynago/toolkit/planner"
)

// Model is one table's data model.
type Model struct {
	// Name, Author and Description are the model's; a Workbench model's
	// tables share them. A model without a name is named after its
	// table, so Name is "" when it is the table's name.
	Name        string `json:"name,omitempty"`
	Author      string `json:"author,omitempty"`
	Description string `json:"description,omitempty"`

	Table string `json:"table"`
	// TableKeys are the table's partition key and, if it has one, sort
	// key attribute.
	TableKeys []string `json:"tableKeys"`
	// KeyTypes gives the type, N or B, of a key attribute (the table's or
	// an index's) that is not a string; absent ones are S.
	KeyTypes map[string]string `json:"keyTypes,omitempty"`
	// Attributes are the declared non-key attributes, with their types.
	Attributes []Attribute `json:"attributes,omitempty"`

	// SortKey is the sort key attribute of the planner's indexes that
	// name none of their own (the planner's shared sort key).
	SortKey    string              `json:"sortKey,omitempty"`
	Dimensions []planner.Dimension `json:"dimensions,omitempty"`
	// Indexes are the secondary indexes, and, named "", the table itself
	// when the planner builds its partition key with a format.
	Indexes []Index `json:"indexes,omitempty"`

	// Entities are the entity types stored in the table (Workbench's
	// facets), each with its sample items.
	Entities []Entity `json:"entities,omitempty"`
	// Items are sample items of no entity type, in DynamoDB JSON.
	Items []Item `json:"items,omitempty"`

	// BillingMode is PAY_PER_REQUEST, PROVISIONED, or "" (unsaid).
	BillingMode string `json:"billingMode,omitempty"`
	// ReadCapacity and WriteCapacity are a provisioned table's units.
	ReadCapacity  int64 `json:"readCapacity,omitempty"`
	WriteCapacity int64 `json:"writeCapacity,omitempty"`
}

// Attribute is a declared attribute and its type (S, N, B, BOOL, NULL,
// M, L, SS, NS or BS).
type Attribute struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Index is a secondary index, or (Name "") the table in the planner's
// eyes.
type Index struct {
	Name         string `json:"name"`
	PartitionKey string `json:"partitionKey"`
	// SortKey is the index's sort key attribute; "" means the model's
	// SortKey.
	SortKey string `json:"sortKey,omitempty"`
	// Format is the planner's template of the partition key value.
	Format string `json:"format,omitempty"`
	// Local marks a local secondary index.
	Local bool `json:"local,omitempty"`
	// Projection is KEYS_ONLY, INCLUDE, or "" for ALL.
	Projection       string   `json:"projection,omitempty"`
	NonKeyAttributes []string `json:"nonKeyAttributes,omitempty"`
}

// Entity is an entity type: Workbench's facet.
type Entity struct {
	Name string `json:"name"`
	// PartitionKeyAlias and SortKeyAlias name what the table's keys hold
	// for this entity (e.g. "CustomerId").
	PartitionKeyAlias string   `json:"partitionKeyAlias,omitempty"`
	SortKeyAlias      string   `json:"sortKeyAlias,omitempty"`
	Attributes        []string `json:"attributes,omitempty"`
	Items             []Item   `json:"items,omitempty"`
}

// Item is an item in DynamoDB JSON: {"PK": {"S": "a"}, ...}.
type Item map[string]any

var (
	keyTypes  = []string{"S", "N", "B"}
	attrTypes = []string{"S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"}
)

// Parse reads dynago's model, strictly, and checks it.
func Parse(data []byte) (*Model, error) {
	var m Model
	if err := strictJSON(data, &m); err != nil {
		return nil, fmt.Errorf("workbench: model: %w", err)
	}
	if m.Name == m.Table {
		m.Name = "" // a nameless model is named after its table
	}
	if err := m.Check(); err != nil {
		return nil, err
	}
	return &m, nil
}

// strictJSON decodes one JSON value into v, refusing members v's type
// does not have (by their exact names: encoding/json alone would take
// "tablename" for "TableName") and anything after the value.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	if _, err := dec.Token(); err == nil {
		return errors.New("data after the model")
	}
	if err := members(raw, reflect.TypeOf(v).Elem(), ""); err != nil {
		return err
	}
	dec = json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// members checks that every object in raw has only the members typ's
// fields name, exactly; at is where raw is, for the error.
func members(raw any, typ reflect.Type, at string) error {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch typ.Kind() {
	case reflect.Struct:
		obj, ok := raw.(map[string]any)
		if !ok {
			return nil // the decoder reports the wrong type
		}
		fields := map[string]reflect.Type{}
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" {
				name = f.Name
			}
			fields[name] = f.Type
		}
		for k, x := range obj {
			ft, ok := fields[k]
			if !ok {
				return fmt.Errorf("%sunknown member %q", at, k)
			}
			if err := members(x, ft, at+k+": "); err != nil {
				return err
			}
		}
	case reflect.Slice:
		if typ.Elem().Kind() == reflect.Uint8 {
			return nil // json.RawMessage
		}
		list, _ := raw.([]any)
		for i, x := range list {
			if err := members(x, typ.Elem(), fmt.Sprintf("%s[%d]: ", strings.TrimSuffix(at, ": "), i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// PartitionKey is the table's partition key attribute.
func (m *Model) PartitionKey() string { return m.TableKeys[0] }

// TableSortKey is the table's sort key attribute, "" if it has none.
func (m *Model) TableSortKey() string {
	if len(m.TableKeys) > 1 {
		return m.TableKeys[1]
	}
	return ""
}

// IndexSortKey is ix's sort key attribute, "" if it has none.
func (m *Model) IndexSortKey(ix *Index) string {
	if ix.SortKey != "" {
		return ix.SortKey
	}
	return m.SortKey
}

// KeyType is the type of key attribute a.
func (m *Model) KeyType(a string) string {
	if t := m.KeyTypes[a]; t != "" {
		return t
	}
	return "S"
}

// Check validates the model.
func (m *Model) Check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("workbench: table %q: %s", m.Table, fmt.Sprintf(format, args...))
	}
	if m.Table == "" {
		return errors.New("workbench: model has no table")
	}
	if len(m.TableKeys) < 1 || len(m.TableKeys) > 2 || m.TableKeys[0] == "" || (len(m.TableKeys) == 2 && (m.TableKeys[1] == "" || m.TableKeys[1] == m.TableKeys[0])) {
		return bad("tableKeys must be a partition key and at most one sort key, got %q", m.TableKeys)
	}
	if m.BillingMode != "" && m.BillingMode != "PAY_PER_REQUEST" && m.BillingMode != "PROVISIONED" {
		return bad("billingMode %q is neither PAY_PER_REQUEST nor PROVISIONED", m.BillingMode)
	}
	if m.BillingMode != "PROVISIONED" && (m.ReadCapacity != 0 || m.WriteCapacity != 0) {
		return bad("readCapacity and writeCapacity need billingMode PROVISIONED")
	}
	if m.ReadCapacity < 0 || m.WriteCapacity < 0 {
		return bad("capacity units cannot be negative")
	}
	keys := map[string]bool{}
	for _, k := range m.TableKeys {
		keys[k] = true
	}
	names := map[string]bool{}
	for i := range m.Indexes {
		ix := &m.Indexes[i]
		if ix.Name == "" {
			if ix.PartitionKey != m.TableKeys[0] || ix.SortKey != "" || ix.Local || ix.Projection != "" || len(ix.NonKeyAttributes) > 0 {
				return bad(`index "" stands for the table: its partitionKey must be %q, with no sortKey, local or projection`, m.TableKeys[0])
			}
		}
		if names[ix.Name] {
			return bad("index %q is declared twice", ix.Name)
		}
		names[ix.Name] = true
		if ix.PartitionKey == "" {
			return bad("index %q has no partitionKey", ix.Name)
		}
		if ix.Name == "" {
			continue
		}
		sk := m.IndexSortKey(ix)
		if ix.Local && (ix.PartitionKey != m.TableKeys[0] || sk == "" || m.TableSortKey() == "") {
			return bad("local index %q must share the partition key %q, on a table with a sort key, and have a sort key", ix.Name, m.TableKeys[0])
		}
		if sk == ix.PartitionKey {
			return bad("index %q: partition and sort key are both %q", ix.Name, sk)
		}
		keys[ix.PartitionKey] = true
		if sk != "" {
			keys[sk] = true
		}
		switch ix.Projection {
		case "", "KEYS_ONLY":
			if len(ix.NonKeyAttributes) > 0 {
				return bad("index %q: nonKeyAttributes need projection INCLUDE", ix.Name)
			}
		case "INCLUDE":
			if len(ix.NonKeyAttributes) == 0 {
				return bad("index %q: projection INCLUDE needs nonKeyAttributes", ix.Name)
			}
		default:
			return bad("index %q: projection %q is none of KEYS_ONLY, INCLUDE or \"\" (ALL)", ix.Name, ix.Projection)
		}
	}
	for a, t := range m.KeyTypes {
		if !keys[a] {
			return bad("keyTypes names %q, which is no key attribute", a)
		}
		if t == "S" || !slices.Contains(keyTypes, t) {
			return bad("keyTypes: %q has type %q; give N or B (S is the default)", a, t)
		}
	}
	declared := map[string]bool{}
	for _, at := range m.Attributes {
		if at.Name == "" || declared[at.Name] {
			return bad("attribute %q: empty or declared twice", at.Name)
		}
		declared[at.Name] = true
		if slices.Contains(m.TableKeys, at.Name) {
			return bad("attribute %q is a table key: declare its type in keyTypes", at.Name)
		}
		if !slices.Contains(attrTypes, at.Type) {
			return bad("attribute %q has no type among %s", at.Name, strings.Join(attrTypes, ", "))
		}
		if keys[at.Name] && at.Type != m.KeyType(at.Name) {
			return bad("attribute %q is an index key of type %s but declared %s", at.Name, m.KeyType(at.Name), at.Type)
		}
	}
	if len(m.Dimensions) > 0 {
		if _, err := m.Planner(); err != nil {
			return err
		}
	} else if m.SortKey != "" || slices.ContainsFunc(m.Indexes, func(ix Index) bool { return ix.Format != "" || ix.Name == "" }) {
		return bad("sortKey, formats and the index \"\" are the planner's: they need dimensions")
	}
	entities := map[string]bool{}
	for _, e := range m.Entities {
		if e.Name == "" || entities[e.Name] {
			return bad("entity %q: empty or declared twice", e.Name)
		}
		entities[e.Name] = true
		for i, it := range e.Items {
			if err := m.checkItem(it); err != nil {
				return bad("entity %q, item %d: %v", e.Name, i, err)
			}
		}
	}
	for i, it := range m.Items {
		if err := m.checkItem(it); err != nil {
			return bad("item %d: %v", i, err)
		}
	}
	return nil
}

// Planner returns the planner's model of m: its dimensions and the
// indexes with a format.
func (m *Model) Planner() (*planner.Model, error) {
	pm := &planner.Model{Table: m.Table, SortKey: m.SortKey, Dimensions: m.Dimensions, TableKeys: m.TableKeys}
	for _, ix := range m.Indexes {
		if ix.Format == "" {
			continue
		}
		if ix.SortKey != "" && ix.SortKey != m.SortKey {
			return nil, fmt.Errorf("workbench: table %q: index %q has a format but its own sortKey: the planner's indexes share the model's", m.Table, ix.Name)
		}
		pm.Indexes = append(pm.Indexes, &planner.Index{Name: ix.Name, PartitionKey: ix.PartitionKey, Format: ix.Format})
	}
	if err := pm.Check(); err != nil {
		return nil, err
	}
	return pm, nil
}

// checkItem checks a sample item: DynamoDB JSON values, and the table's
// keys present with their types.
func (m *Model) checkItem(it Item) error {
	for name, v := range it {
		if name == "" {
			return errors.New("an attribute has an empty name")
		}
		if err := checkValue(v, 0); err != nil {
			return fmt.Errorf("attribute %q: %v", name, err)
		}
	}
	for _, k := range m.TableKeys {
		v, ok := it[k].(map[string]any)
		if !ok {
			return fmt.Errorf("no key attribute %q", k)
		}
		if _, ok := v[m.KeyType(k)]; !ok {
			return fmt.Errorf("key attribute %q is not of type %s", k, m.KeyType(k))
		}
	}
	return nil
}

// checkValue checks one attribute value in DynamoDB JSON.
func checkValue(v any, depth int) error {
	if depth > 32 {
		return errors.New("nested too deeply")
	}
	obj, ok := v.(map[string]any)
	if !ok || len(obj) != 1 {
		return errors.New(`want an object of one type member, e.g. {"S": "x"}`)
	}
	for t, x := range obj {
		switch t {
		case "S", "B":
			if _, ok := x.(string); !ok {
				return fmt.Errorf("%s wants a string", t)
			}
		case "N":
			s, ok := x.(string)
			if !ok || !isNumber(s) {
				return errors.New("N wants a number as a string")
			}
		case "BOOL", "NULL":
			if _, ok := x.(bool); !ok {
				return fmt.Errorf("%s wants true or false", t)
			}
		case "SS", "NS", "BS":
			list, ok := x.([]any)
			if !ok || len(list) == 0 {
				return fmt.Errorf("%s wants a non-empty list of strings", t)
			}
			for _, e := range list {
				s, ok := e.(string)
				if !ok || (t == "NS" && !isNumber(s)) {
					return fmt.Errorf("%s wants a non-empty list of strings", t)
				}
			}
		case "L":
			list, ok := x.([]any)
			if !ok {
				return errors.New("L wants a list")
			}
			for _, e := range list {
				if err := checkValue(e, depth+1); err != nil {
					return err
				}
			}
		case "M":
			mm, ok := x.(map[string]any)
			if !ok {
				return errors.New("M wants an object")
			}
			for _, e := range mm {
				if err := checkValue(e, depth+1); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("unknown type %q", t)
		}
	}
	return nil
}

// numberText is a number as DynamoDB JSON writes one.
var numberText = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

func isNumber(s string) bool { return numberText.MatchString(s) }
