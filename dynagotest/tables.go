package dynagotest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TablesAPI is what CreateTables needs of a client; *dynamodb.Client has
// it, against dynago or AWS alike.
type TablesAPI interface {
	CreateTable(context.Context, *dynamodb.CreateTableInput, ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	DescribeTable(context.Context, *dynamodb.DescribeTableInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

// CreateTables creates the tables that defs define, waits until each is
// ACTIVE, and writes the sample items a definition carries. It fails the
// test on any error.
//
// A definition is JSON: the text itself when it starts with '{' or '['
// (after white space), else the name of a file holding it. Three forms
// are understood:
//
//   - a CreateTable request, as the API and `aws dynamodb create-table
//     --cli-input-json` take it: {"TableName": ..., "KeySchema": ...,
//     "AttributeDefinitions": ..., ...}; a member CreateTable does not
//     have is an error;
//   - a JSON array of such requests;
//   - a data model exported by NoSQL Workbench for DynamoDB ("ModelName",
//     "DataModel": its tables with "KeyAttributes", "NonKeyAttributes",
//     "GlobalSecondaryIndexes", "BillingMode",
//     "ProvisionedCapacitySettings" and sample items in "TableData",
//     the table's or its "TableFacets"'): each table is created with the
//     key attributes it and its indexes name, and its TableData and its
//     facets' are written.
//
// YAML is not read: Go's standard library has no YAML parser, and dynago
// takes no dependency for one.
func CreateTables(t testing.TB, client TablesAPI, defs ...string) {
	t.Helper()
	ctx := context.Background()
	for _, def := range defs {
		tables, err := readDefinition(def)
		if err != nil {
			t.Fatalf("dynagotest: %v", err)
		}
		for _, tb := range tables {
			if err := createTable(ctx, client, tb); err != nil {
				t.Fatalf("dynagotest: table %s of %s: %v", aws.ToString(tb.input.TableName), defName(def), err)
			}
		}
	}
}

// table is one table to create, with the items to write into it.
type table struct {
	input *dynamodb.CreateTableInput
	items []map[string]types.AttributeValue
}

func defName(def string) string {
	if isJSONText(def) {
		return "the JSON definition"
	}
	return def
}

func isJSONText(def string) bool {
	s := strings.TrimLeft(def, " \t\r\n")
	return strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")
}

// readDefinition reads a definition, from its text or its file.
func readDefinition(def string) ([]table, error) {
	data := []byte(def)
	if !isJSONText(def) {
		var err error
		if data, err = os.ReadFile(def); err != nil {
			return nil, err
		}
	}
	tables, err := parseDefinition(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", defName(def), err)
	}
	return tables, nil
}

// parseDefinition tells the forms apart and reads one.
func parseDefinition(data []byte) ([]table, error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var raws []json.RawMessage
		if err := json.Unmarshal(data, &raws); err != nil {
			return nil, err
		}
		var out []table
		for i, raw := range raws {
			in, err := parseCreateTable(raw)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			out = append(out, table{input: in})
		}
		return out, nil
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, err
	}
	switch {
	case probe["DataModel"] != nil:
		return parseWorkbench(data)
	case probe["TableName"] != nil:
		in, err := parseCreateTable(data)
		if err != nil {
			return nil, err
		}
		return []table{{input: in}}, nil
	}
	return nil, errors.New(`neither a CreateTable request (no "TableName") nor a NoSQL Workbench model (no "DataModel")`)
}

// parseCreateTable reads a CreateTable request. The SDK's input struct
// has the API's member names and string enums, so the standard decoder
// reads the API's JSON into it; unknown members are refused, so a typo
// is not silently dropped.
func parseCreateTable(data []byte) (*dynamodb.CreateTableInput, error) {
	var in dynamodb.CreateTableInput
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("CreateTable request: %w", err)
	}
	if in.TableName == nil {
		return nil, errors.New(`CreateTable request without "TableName"`)
	}
	return &in, nil
}

// The parts of a NoSQL Workbench model that define tables and their
// sample items; the rest (metadata, facets' aliases, data access) is
// ignored.
type workbenchModel struct {
	DataModel []workbenchTable
}

type workbenchAttribute struct {
	AttributeName string
	AttributeType string
}

type workbenchKeys struct {
	PartitionKey *workbenchAttribute
	SortKey      *workbenchAttribute
}

type workbenchIndex struct {
	IndexName     string
	KeyAttributes workbenchKeys
	Projection    *types.Projection
}

type workbenchTable struct {
	TableName              string
	KeyAttributes          workbenchKeys
	NonKeyAttributes       []workbenchAttribute
	GlobalSecondaryIndexes []workbenchIndex
	LocalSecondaryIndexes  []workbenchIndex
	TableData              []map[string]json.RawMessage
	// TableFacets hold sample items too: NoSQL Workbench's exports keep
	// each entity type's items in its facet's TableData (as
	// aws-samples/amazon-dynamodb-design-patterns'
	// examples/an-online-shop/json/AnOnlineShop_facets.json does).
	TableFacets []struct {
		FacetName string
		TableData []map[string]json.RawMessage
	}
	BillingMode                 string
	ProvisionedCapacitySettings *struct {
		ProvisionedThroughput *types.ProvisionedThroughput
	}
}

func parseWorkbench(data []byte) ([]table, error) {
	var m workbenchModel
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("NoSQL Workbench model: %w", err)
	}
	var out []table
	for _, wt := range m.DataModel {
		tb, err := wt.table()
		if err != nil {
			return nil, fmt.Errorf("NoSQL Workbench model, table %q: %w", wt.TableName, err)
		}
		out = append(out, tb)
	}
	return out, nil
}

func (wt workbenchTable) table() (table, error) {
	in := &dynamodb.CreateTableInput{TableName: aws.String(wt.TableName)}
	defined := map[string]bool{}
	keySchema := func(k workbenchKeys) ([]types.KeySchemaElement, error) {
		if k.PartitionKey == nil || k.PartitionKey.AttributeName == "" {
			return nil, errors.New("no PartitionKey")
		}
		var ks []types.KeySchemaElement
		for _, a := range []struct {
			attr *workbenchAttribute
			kind types.KeyType
		}{{k.PartitionKey, types.KeyTypeHash}, {k.SortKey, types.KeyTypeRange}} {
			if a.attr == nil || a.attr.AttributeName == "" {
				continue
			}
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(a.attr.AttributeName), KeyType: a.kind})
			if !defined[a.attr.AttributeName] {
				defined[a.attr.AttributeName] = true
				typ := a.attr.AttributeType
				for _, na := range wt.NonKeyAttributes {
					if typ == "" && na.AttributeName == a.attr.AttributeName {
						typ = na.AttributeType
					}
				}
				in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
					AttributeName: aws.String(a.attr.AttributeName), AttributeType: types.ScalarAttributeType(typ)})
			}
		}
		return ks, nil
	}
	var err error
	if in.KeySchema, err = keySchema(wt.KeyAttributes); err != nil {
		return table{}, err
	}
	var throughput *types.ProvisionedThroughput
	if wt.BillingMode == string(types.BillingModeProvisioned) ||
		(wt.BillingMode == "" && wt.ProvisionedCapacitySettings != nil && wt.ProvisionedCapacitySettings.ProvisionedThroughput != nil) {
		throughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}
		if s := wt.ProvisionedCapacitySettings; s != nil && s.ProvisionedThroughput != nil {
			throughput = s.ProvisionedThroughput
		}
		in.BillingMode = types.BillingModeProvisioned
		in.ProvisionedThroughput = throughput
	} else {
		in.BillingMode = types.BillingModePayPerRequest
	}
	projection := func(p *types.Projection) *types.Projection {
		if p == nil {
			return &types.Projection{ProjectionType: types.ProjectionTypeAll}
		}
		return p
	}
	for _, wi := range wt.GlobalSecondaryIndexes {
		ks, err := keySchema(wi.KeyAttributes)
		if err != nil {
			return table{}, fmt.Errorf("index %q: %w", wi.IndexName, err)
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName: aws.String(wi.IndexName), KeySchema: ks, Projection: projection(wi.Projection),
			ProvisionedThroughput: throughput,
		})
	}
	for _, wi := range wt.LocalSecondaryIndexes {
		ks, err := keySchema(wi.KeyAttributes)
		if err != nil {
			return table{}, fmt.Errorf("index %q: %w", wi.IndexName, err)
		}
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
			IndexName: aws.String(wi.IndexName), KeySchema: ks, Projection: projection(wi.Projection),
		})
	}
	tb := table{input: in}
	for i, raw := range wt.TableData {
		item, err := itemFromJSON(raw)
		if err != nil {
			return table{}, fmt.Errorf("TableData item %d: %w", i, err)
		}
		tb.items = append(tb.items, item)
	}
	for _, f := range wt.TableFacets {
		for i, raw := range f.TableData {
			item, err := itemFromJSON(raw)
			if err != nil {
				return table{}, fmt.Errorf("facet %q, TableData item %d: %w", f.FacetName, i, err)
			}
			tb.items = append(tb.items, item)
		}
	}
	return tb, nil
}

// itemFromJSON converts an item in DynamoDB's JSON ({"name": {"S":
// "value"}, ...}) to the SDK's attribute values.
func itemFromJSON(raw map[string]json.RawMessage) (map[string]types.AttributeValue, error) {
	item := make(map[string]types.AttributeValue, len(raw))
	for name, v := range raw {
		av, err := valueFromJSON(v)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", name, err)
		}
		item[name] = av
	}
	return item, nil
}

func valueFromJSON(data json.RawMessage) (types.AttributeValue, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if len(m) != 1 {
		return nil, fmt.Errorf("an attribute value has exactly one type, not %d", len(m))
	}
	for typ, v := range m {
		switch typ {
		case "S", "N":
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return nil, err
			}
			if typ == "S" {
				return &types.AttributeValueMemberS{Value: s}, nil
			}
			return &types.AttributeValueMemberN{Value: s}, nil
		case "B":
			var b []byte // base64, as encoding/json reads []byte
			if err := json.Unmarshal(v, &b); err != nil {
				return nil, err
			}
			return &types.AttributeValueMemberB{Value: b}, nil
		case "BOOL":
			var b bool
			if err := json.Unmarshal(v, &b); err != nil {
				return nil, err
			}
			return &types.AttributeValueMemberBOOL{Value: b}, nil
		case "NULL":
			return &types.AttributeValueMemberNULL{Value: true}, nil
		case "SS", "NS":
			var ss []string
			if err := json.Unmarshal(v, &ss); err != nil {
				return nil, err
			}
			if typ == "SS" {
				return &types.AttributeValueMemberSS{Value: ss}, nil
			}
			return &types.AttributeValueMemberNS{Value: ss}, nil
		case "BS":
			var ss []string
			if err := json.Unmarshal(v, &ss); err != nil {
				return nil, err
			}
			bs := make([][]byte, len(ss))
			for i, s := range ss {
				b, err := base64.StdEncoding.DecodeString(s)
				if err != nil {
					return nil, err
				}
				bs[i] = b
			}
			return &types.AttributeValueMemberBS{Value: bs}, nil
		case "L":
			var raws []json.RawMessage
			if err := json.Unmarshal(v, &raws); err != nil {
				return nil, err
			}
			l := make([]types.AttributeValue, len(raws))
			for i, r := range raws {
				av, err := valueFromJSON(r)
				if err != nil {
					return nil, err
				}
				l[i] = av
			}
			return &types.AttributeValueMemberL{Value: l}, nil
		case "M":
			var raws map[string]json.RawMessage
			if err := json.Unmarshal(v, &raws); err != nil {
				return nil, err
			}
			m, err := itemFromJSON(raws)
			if err != nil {
				return nil, err
			}
			return &types.AttributeValueMemberM{Value: m}, nil
		default:
			return nil, fmt.Errorf("unknown attribute type %q", typ)
		}
	}
	panic("unreachable")
}

// createTable creates one table, waits for it and writes its items.
func createTable(ctx context.Context, client TablesAPI, tb table) error {
	if _, err := client.CreateTable(ctx, tb.input); err != nil {
		return err
	}
	w := dynamodb.NewTableExistsWaiter(client, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay, o.MaxDelay = 50*time.Millisecond, 2*time.Second
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: tb.input.TableName}, 5*time.Minute); err != nil {
		return err
	}
	for start := 0; start < len(tb.items); start += 25 {
		var reqs []types.WriteRequest
		for _, item := range tb.items[start:min(start+25, len(tb.items))] {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item}})
		}
		pending := map[string][]types.WriteRequest{aws.ToString(tb.input.TableName): reqs}
		for attempt := 0; len(pending) > 0; attempt++ {
			if attempt == 10 {
				return errors.New("BatchWriteItem left items unprocessed ten times")
			}
			if attempt > 0 {
				time.Sleep(time.Duration(attempt) * 50 * time.Millisecond)
			}
			out, err := client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
			if err != nil {
				return fmt.Errorf("write TableData: %w", err)
			}
			pending = out.UnprocessedItems
		}
	}
	return nil
}
