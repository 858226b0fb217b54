// Package distinct lists the distinct partition keys of a DynamoDB table
// whose items share partitions (a table with a sort key), reading about one
// item per partition instead of the whole table.
//
// The technique is a skip-scan: a Scan page of one item, then a resume
// from an ExclusiveStartKey made of that item's partition key and the
// largest sort key value of the key's type. No item sorts after that key
// within its partition, so the next page starts at the next partition.
// Each step reads one item, about half a read unit with eventually
// consistent reads. Segments of a parallel scan hold disjoint sets of
// partitions, so the segments run concurrently and the union of what they
// find is every partition once.
package distinct

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Client is the part of the DynamoDB API the skip-scan uses; a
// *dynamodb.Client satisfies it.
type Client interface {
	DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
}

// The largest value of each key type: 256 code points of U+10FFFF (1024
// bytes of UTF-8, the sort key size limit), the largest DynamoDB number,
// and 1024 bytes of 0xFF.
var largest = map[types.ScalarAttributeType]types.AttributeValue{
	types.ScalarAttributeTypeS: &types.AttributeValueMemberS{Value: strings.Repeat("\U0010FFFF", 256)},
	types.ScalarAttributeTypeN: &types.AttributeValueMemberN{Value: "9.9999999999999999999999999999999999999E+125"},
	types.ScalarAttributeTypeB: &types.AttributeValueMemberB{Value: bytes.Repeat([]byte{0xFF}, 1024)},
}

// Options tune a listing.
type Options struct {
	// Segments is the number of parallel scan segments; 0 means 1.
	Segments int
	// ConsistentRead asks for strongly consistent reads (twice the cost).
	ConsistentRead bool
	// OnKey receives each partition key value as it is found, from the
	// segments' goroutines one at a time. Required.
	OnKey func(pk types.AttributeValue)
}

// Stats reports what a listing read and what it cost.
type Stats struct {
	Partitions int     // partition keys found
	Pages      int     // Scan calls made
	ReadUnits  float64 // read units consumed, from ConsumedCapacity
	// FullScanUnits estimates what a full Scan of the table would have
	// cost: its size (from DescribeTable, which DynamoDB updates about
	// every six hours) in 4 KB units, halved unless ConsistentRead.
	FullScanUnits float64
}

// List finds every partition key of table once and passes it to
// opts.OnKey. It stops at the first error or when ctx is cancelled.
func List(ctx context.Context, c Client, table string, opts Options) (Stats, error) {
	var st Stats
	if opts.OnKey == nil {
		return st, errors.New("distinct: Options.OnKey is required")
	}
	segments := max(opts.Segments, 1)
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return st, err
	}
	pk, sk, skType, err := keySchema(desc.Table)
	if err != nil {
		return st, err
	}
	st.FullScanUnits = math.Ceil(float64(aws.ToInt64(desc.Table.TableSizeBytes)) / 4096)
	if !opts.ConsistentRead {
		st.FullScanUnits /= 2
	}

	in := scanInput(table, "", pk, opts)
	in.Limit = aws.Int32(1)
	err = scanSegments(ctx, c, in, segments, pk, opts.OnKey, &st, func(last map[string]types.AttributeValue) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{pk: last[pk], sk: largest[skType]}
	})
	return st, err
}

// scanInput is the Scan every segment of a listing starts from.
func scanInput(table, index, pk string, opts Options) *dynamodb.ScanInput {
	in := &dynamodb.ScanInput{
		TableName:                aws.String(table),
		ProjectionExpression:     aws.String("#pk"),
		ExpressionAttributeNames: map[string]string{"#pk": pk},
		ConsistentRead:           aws.Bool(opts.ConsistentRead),
		ReturnConsumedCapacity:   types.ReturnConsumedCapacityTotal,
	}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	return in
}

// scanSegments runs the Scan in over segments in parallel, passing the
// attribute pk of every item found to onKey and counting into st. After
// each page a segment resumes from next(LastEvaluatedKey). It stops at the
// first error.
func scanSegments(ctx context.Context, c Client, in *dynamodb.ScanInput, segments int, pk string, onKey func(types.AttributeValue), st *Stats,
	next func(last map[string]types.AttributeValue) map[string]types.AttributeValue) error {
	var mu sync.Mutex // serialises onKey and st
	var failed atomic.Bool
	errs := make(chan error, segments)
	var wg sync.WaitGroup
	for seg := 0; seg < segments; seg++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := *in
			if segments > 1 {
				in.Segment, in.TotalSegments = aws.Int32(int32(seg)), aws.Int32(int32(segments))
			}
			for !failed.Load() {
				out, err := c.Scan(ctx, &in)
				if err != nil {
					failed.Store(true)
					errs <- err
					return
				}
				mu.Lock()
				st.Pages++
				if out.ConsumedCapacity != nil {
					st.ReadUnits += aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
				}
				for _, it := range out.Items {
					st.Partitions++
					onKey(it[pk])
				}
				mu.Unlock()
				if out.LastEvaluatedKey == nil {
					return
				}
				in.ExclusiveStartKey = next(out.LastEvaluatedKey)
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// keySchema returns the table's key attribute names and sort key type.
func keySchema(t *types.TableDescription) (pk, sk string, skType types.ScalarAttributeType, err error) {
	for _, k := range t.KeySchema {
		switch k.KeyType {
		case types.KeyTypeHash:
			pk = aws.ToString(k.AttributeName)
		case types.KeyTypeRange:
			sk = aws.ToString(k.AttributeName)
		}
	}
	if sk == "" {
		return "", "", "", fmt.Errorf("distinct: table %s has no sort key: every item is its own partition, so a Scan lists them", aws.ToString(t.TableName))
	}
	for _, d := range t.AttributeDefinitions {
		if aws.ToString(d.AttributeName) == sk {
			skType = d.AttributeType
		}
	}
	if largest[skType] == nil {
		return "", "", "", fmt.Errorf("distinct: sort key %s has type %q", sk, skType)
	}
	return pk, sk, skType, nil
}

// ListFromIndex lists the partition keys of table from a sparse index
// that holds one entry per partition: the seed's "#static" marker item,
// written once per collection with an attribute only it carries, indexed
// by a KEYS_ONLY GSI on that attribute. A parallel Scan of the index reads
// one small entry per partition and passes each entry's table partition
// key to opts.OnKey. It relies on the application writing exactly one
// marker per partition; a GSI is eventually consistent on DynamoDB, so a
// partition created a moment ago may be missing.
func ListFromIndex(ctx context.Context, c Client, table, index string, opts Options) (Stats, error) {
	var st Stats
	if opts.OnKey == nil {
		return st, errors.New("distinct: Options.OnKey is required")
	}
	segments := max(opts.Segments, 1)
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return st, err
	}
	var pk string
	for _, k := range desc.Table.KeySchema {
		if k.KeyType == types.KeyTypeHash {
			pk = aws.ToString(k.AttributeName)
		}
	}
	found := false
	for _, g := range desc.Table.GlobalSecondaryIndexes {
		if aws.ToString(g.IndexName) == index {
			found = true
			st.FullScanUnits = math.Ceil(float64(aws.ToInt64(desc.Table.TableSizeBytes)) / 4096)
			if !opts.ConsistentRead {
				st.FullScanUnits /= 2
			}
		}
	}
	if !found {
		return st, fmt.Errorf("distinct: table %s has no global secondary index %s", table, index)
	}
	err = scanSegments(ctx, c, scanInput(table, index, pk, opts), segments, pk, opts.OnKey, &st, func(last map[string]types.AttributeValue) map[string]types.AttributeValue {
		return last
	})
	return st, err
}
