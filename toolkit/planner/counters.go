package planner

import (
	"context"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CounterClient is the part of the DynamoDB API Counters uses.
type CounterClient interface {
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
}

// Counters keeps a count of items per partition key value, in items of a
// table keyed by a string attribute, updated with atomic ADD: the
// application adds 1 when it writes an item under a key and -1 when it
// deletes one, and the planner skips keys counted at zero.
type Counters struct {
	Client    CounterClient
	Table     string
	KeyAttr   string // the counter items' partition key attribute
	CountAttr string // the attribute holding the count
	// Prefix is prepended to a key to name its counter item, so counters
	// can share a table with other items (index overloading).
	Prefix string
}

// Add adds delta to key's counter, atomically.
func (c *Counters) Add(ctx context.Context, key string, delta int64) error {
	_, err := c.Client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(c.Table),
		Key:                       map[string]types.AttributeValue{c.KeyAttr: &types.AttributeValueMemberS{Value: c.Prefix + key}},
		UpdateExpression:          aws.String("ADD #c :d"),
		ExpressionAttributeNames:  map[string]string{"#c": c.CountAttr},
		ExpressionAttributeValues: map[string]types.AttributeValue{":d": &types.AttributeValueMemberN{Value: strconv.FormatInt(delta, 10)}},
	})
	return err
}

// Counts reads the counters of keys; a key with no counter item is left
// out (unknown). It fits Planner.Counts.
func (c *Counters) Counts(ctx context.Context, keys []string) (map[string]int64, error) {
	out := map[string]int64{}
	for start := 0; start < len(keys); start += 100 {
		batch := keys[start:min(start+100, len(keys))]
		req := make([]map[string]types.AttributeValue, 0, len(batch))
		seen := map[string]bool{}
		for _, k := range batch {
			if !seen[k] {
				seen[k] = true
				req = append(req, map[string]types.AttributeValue{c.KeyAttr: &types.AttributeValueMemberS{Value: c.Prefix + k}})
			}
		}
		pending := map[string]types.KeysAndAttributes{c.Table: {Keys: req, ConsistentRead: aws.Bool(true)}}
		for len(pending) > 0 {
			res, err := c.Client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: pending})
			if err != nil {
				return nil, err
			}
			for _, it := range res.Responses[c.Table] {
				k, _ := it[c.KeyAttr].(*types.AttributeValueMemberS)
				n, _ := it[c.CountAttr].(*types.AttributeValueMemberN)
				if k == nil || n == nil {
					continue
				}
				v, err := strconv.ParseInt(n.Value, 10, 64)
				if err != nil {
					return nil, fmt.Errorf("planner: counter %s: %w", k.Value, err)
				}
				out[k.Value[len(c.Prefix):]] = v
			}
			pending = res.UnprocessedKeys
		}
	}
	return out, nil
}
