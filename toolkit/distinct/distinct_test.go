package distinct

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

func sortKey(typ types.ScalarAttributeType, i int) types.AttributeValue {
	switch typ {
	case types.ScalarAttributeTypeN:
		return &types.AttributeValueMemberN{Value: fmt.Sprint(i*7 - 50)}
	case types.ScalarAttributeTypeB:
		return &types.AttributeValueMemberB{Value: []byte{byte(i), 0xFF, 0x00}}
	}
	return &types.AttributeValueMemberS{Value: fmt.Sprintf("item#%03d", i)}
}

func fill(t *testing.T, c *dynamodb.Client, table string, typ types.ScalarAttributeType, partitions int) {
	t.Helper()
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:   aws.String(table),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: typ},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	pad := &types.AttributeValueMemberS{Value: strings.Repeat("p", 1000)}
	var batch []types.WriteRequest
	flush := func() {
		if len(batch) == 0 {
			return
		}
		if _, err := c.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: batch}}); err != nil {
			t.Fatal(err)
		}
		batch = nil
	}
	for p := 0; p < partitions; p++ {
		for i := 0; i < 1+p%40; i++ {
			batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("tenant-%04d", p)}, "sk": sortKey(typ, i), "pad": pad,
			}}})
			if len(batch) == 25 {
				flush()
			}
		}
	}
	flush()
}

// fullScanKeys is the ground truth: the partition keys a full Scan sees.
func fullScanKeys(t *testing.T, c *dynamodb.Client, table string) map[string]bool {
	keys := map[string]bool{}
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table)})
	for p.HasMorePages() {
		out, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			keys[it["pk"].(*types.AttributeValueMemberS).Value] = true
		}
	}
	return keys
}

func TestListEqualsFullScan(t *testing.T) {
	s := testserver.Start(t)
	const partitions = 100
	for _, typ := range []types.ScalarAttributeType{types.ScalarAttributeTypeS, types.ScalarAttributeTypeN, types.ScalarAttributeTypeB} {
		table := "distinct-" + string(typ)
		fill(t, s.Client, table, typ, partitions)
		want := fullScanKeys(t, s.Client, table)
		for _, segments := range []int{1, 4, 16} {
			t.Run(fmt.Sprintf("%s/segments=%d", typ, segments), func(t *testing.T) {
				var mu sync.Mutex
				got := map[string]int{}
				st, err := List(context.Background(), s.Client, table, Options{
					Segments: segments,
					OnKey: func(pk types.AttributeValue) {
						mu.Lock()
						got[pk.(*types.AttributeValueMemberS).Value]++
						mu.Unlock()
					},
				})
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) || st.Partitions != partitions {
					t.Fatalf("found %d keys (%d reported), want %d", len(got), st.Partitions, len(want))
				}
				for k, n := range got {
					if n != 1 || !want[k] {
						t.Fatalf("key %s found %d times (in full scan: %v)", k, n, want[k])
					}
				}
				// One half-unit page per partition, plus each segment's
				// final page, which may find nothing, plus half a unit
				// for each of the on-demand table's four storage
				// partitions a page reads past the first: a Scan bills
				// each partition it reads on its own (ScyllaDB
				// Alternator's test_returnconsumedcapacity.py,
				// test_scan_consumed_capacity, against DynamoDB), and a
				// segment's pages cross at most the three boundaries.
				if st.ReadUnits > 0.5*float64(partitions+segments+3) || st.ReadUnits < 0.5*float64(partitions) {
					t.Fatalf("read %v units for %d partitions", st.ReadUnits, partitions)
				}
				if st.FullScanUnits < 3*st.ReadUnits {
					t.Fatalf("a full scan estimated at %v units, the skip-scan cost %v", st.FullScanUnits, st.ReadUnits)
				}
			})
		}
	}
}

func TestListRefusesHashOnlyTable(t *testing.T) {
	s := testserver.Start(t)
	_, err := s.Client.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            aws.String("flat"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = List(context.Background(), s.Client, "flat", Options{OnKey: func(types.AttributeValue) {}})
	if err == nil || !strings.Contains(err.Error(), "no sort key") {
		t.Fatalf("hash-only table: %v", err)
	}
}

// TestListFromIndex is the seed's second method: one "#static" marker
// item per collection, indexed by a sparse KEYS_ONLY GSI.
func TestListFromIndex(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	_, err := s.Client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String("collections"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("collection"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("markers"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("collection"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for p := 0; p < 60; p++ {
		pk := fmt.Sprintf("coll-%03d", p)
		want[pk] = true
		marker := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: "#static"}, "collection": &types.AttributeValueMemberS{Value: pk}}
		if _, err := s.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("collections"), Item: marker}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < p%9; i++ {
			it := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: fmt.Sprintf("item-%d", i)}}
			if _, err := s.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("collections"), Item: it}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var mu sync.Mutex
	got := map[string]int{}
	st, err := ListFromIndex(ctx, s.Client, "collections", "markers", Options{Segments: 4, OnKey: func(pk types.AttributeValue) {
		mu.Lock()
		got[pk.(*types.AttributeValueMemberS).Value]++
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || st.Partitions != len(want) {
		t.Fatalf("found %d (%d reported), want %d", len(got), st.Partitions, len(want))
	}
	for k, n := range got {
		if n != 1 || !want[k] {
			t.Fatalf("%s found %d times", k, n)
		}
	}
	if _, err := ListFromIndex(ctx, s.Client, "collections", "nope", Options{OnKey: func(types.AttributeValue) {}}); err == nil {
		t.Fatal("a missing index was accepted")
	}
}
