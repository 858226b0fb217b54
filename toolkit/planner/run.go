package planner

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/toolkit/internal/keyjson"
)

// Client is the part of the DynamoDB API the planner uses; a
// *dynamodb.Client satisfies it.
type Client interface {
	Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
}

// Item is a DynamoDB item as the SDK returns it.
type Item = map[string]types.AttributeValue

// Planner plans and runs requests against one model.
type Planner struct {
	Model  *Model
	Client Client
	// Counts, if set, returns how many items each partition key value
	// holds (see Counters); keys it reports at zero are not queried, keys
	// it does not report are.
	Counts func(ctx context.Context, keys []string) (map[string]int64, error)
}

// Page is one page of results.
type Page struct {
	Items []Item
	// Cursor fetches the next page; "" when there is none.
	Cursor string
	Plan   *Plan
	// Read is the number of items the page's queries read, and
	// ReadUnits their capacity.
	Read      int
	ReadUnits float64
	Queries   int
}

// Plan returns the plan for a request without running it.
func (pl *Planner) Plan(ctx context.Context, req Request) (*Plan, error) {
	where, err := pl.Model.normalize(req.Where)
	if err != nil {
		return nil, err
	}
	size := req.PageSize
	if size <= 0 {
		size = 20
	}
	p, err := pl.Model.choose(where, size)
	if err != nil {
		return nil, err
	}
	if pl.Counts != nil && len(p.Keys) > 1 {
		counts, err := pl.Counts(ctx, p.Keys)
		if err != nil {
			return nil, err
		}
		var keep []string
		for _, k := range p.Keys {
			if n, known := counts[k]; known && n <= 0 {
				p.Skipped = append(p.Skipped, k)
			} else {
				keep = append(keep, k)
			}
		}
		p.Keys = keep
	}
	p.ExpectedReads = firstRound(p.PageSize, len(p.Keys)) * len(p.Keys)
	return p, nil
}

// cursor is a page's position in every branch, for the next page.
type cursor struct {
	Index string      `json:"i"`
	Keys  []string    `json:"k"`
	Pos   []branchPos `json:"p"`
}

// branchPos is where a branch stands: after the item Last (nil: at the
// start), or Done.
type branchPos struct {
	Last keyjson.Key `json:"l,omitempty"`
	Done bool        `json:"d,omitempty"`
}

// branch is one query's state while a page is assembled.
type branch struct {
	key     string
	origin  Item // where the branch stood when the page began
	start   Item // ExclusiveStartKey of the next fetch
	buf     []Item
	more    bool // DynamoDB may hold more after buf
	last    Item // the last item given
	emitted bool
}

// Run returns one page of a request: its first, or the one after
// req.Cursor.
func (pl *Planner) Run(ctx context.Context, req Request) (*Page, error) {
	p, err := pl.Plan(ctx, req)
	if err != nil {
		return nil, err
	}
	page := &Page{Plan: p, Items: []Item{}}
	branches := make([]*branch, len(p.Keys))
	for i, k := range p.Keys {
		branches[i] = &branch{key: k, more: true}
	}
	if req.Cursor != "" {
		c, err := decodeCursor(req.Cursor)
		if err != nil {
			return nil, err
		}
		if c.Index != p.Index || !slices.Equal(c.Keys, p.Keys) {
			return nil, errors.New("planner: the cursor belongs to another request")
		}
		for i, pos := range c.Pos {
			branches[i].more = !pos.Done
			branches[i].start = pos.Last.To()
			branches[i].origin = branches[i].start
		}
	}
	keyAttrs := pl.startKeyAttrs(p)
	var mu sync.Mutex
	// fill fetches, in parallel, the next items of every branch whose
	// buffer is empty and which may hold more, at most need each.
	fill := func(need int) error {
		var wg sync.WaitGroup
		var firstErr error
		for _, b := range branches {
			if len(b.buf) > 0 || !b.more {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				in := &dynamodb.QueryInput{
					TableName:                 aws.String(pl.Model.Table),
					KeyConditionExpression:    aws.String("#pk = :pk"),
					ExpressionAttributeNames:  map[string]string{"#pk": p.PartitionKey},
					ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: b.key}},
					ScanIndexForward:          aws.Bool(false),
					Limit:                     aws.Int32(int32(need)),
					ExclusiveStartKey:         b.start,
					ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
				}
				if p.Index != "" {
					in.IndexName = aws.String(p.Index)
				}
				out, err := pl.Client.Query(ctx, in)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
					return
				}
				page.Queries++
				page.Read += int(out.ScannedCount)
				if out.ConsumedCapacity != nil {
					page.ReadUnits += aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
				}
				b.buf = out.Items
				b.more = out.LastEvaluatedKey != nil
				if b.more {
					b.start = out.LastEvaluatedKey
				}
			}()
		}
		wg.Wait()
		return firstErr
	}
	// The first round asks each branch for its share of the page plus one;
	// later rounds ask a branch that ran dry for what the page still needs.
	if err := fill(firstRound(p.PageSize, len(branches))); err != nil {
		return nil, err
	}
	for len(page.Items) < p.PageSize {
		// Every branch that may hold more must show its next item before
		// the merge can pick the greatest.
		if err := fill(p.PageSize - len(page.Items)); err != nil {
			return nil, err
		}
		best := -1
		for i, b := range branches {
			if len(b.buf) == 0 {
				continue
			}
			if best < 0 || compareAV(b.buf[0][pl.Model.SortKey], branches[best].buf[0][pl.Model.SortKey]) > 0 {
				best = i // strictly greater: ties go to the earlier branch
			}
		}
		if best < 0 {
			break // every branch is exhausted
		}
		b := branches[best]
		it := b.buf[0]
		b.buf = b.buf[1:]
		b.last, b.emitted = it, true
		page.Items = append(page.Items, it)
	}
	// The cursor: each branch resumes after the last item it gave this
	// page, or where it stood when the page began. Items read but not
	// given are read again by the next page.
	c := cursor{Index: p.Index, Keys: p.Keys}
	more := false
	for _, b := range branches {
		pos := branchPos{Done: len(b.buf) == 0 && !b.more}
		if !pos.Done {
			more = true
			at := b.origin
			if b.emitted {
				at = keyOf(b.last, keyAttrs)
			}
			if pos.Last, err = keyjson.From(at); err != nil {
				return nil, fmt.Errorf("planner: %w", err)
			}
		}
		c.Pos = append(c.Pos, pos)
	}
	if more {
		page.Cursor = encodeCursor(c)
	}
	return page, nil
}

// startKeyAttrs are the attributes of a start key on the plan's index:
// its partition key, the sort key, and the table's keys.
func (pl *Planner) startKeyAttrs(p *Plan) []string {
	attrs := []string{p.PartitionKey, pl.Model.SortKey}
	for _, k := range pl.Model.TableKeys {
		if !slices.Contains(attrs, k) {
			attrs = append(attrs, k)
		}
	}
	return attrs
}

func keyOf(it Item, attrs []string) Item {
	k := make(Item, len(attrs))
	for _, a := range attrs {
		if v, ok := it[a]; ok {
			k[a] = v
		}
	}
	return k
}

func encodeCursor(c cursor) string {
	data, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(data)
}

func decodeCursor(s string) (cursor, error) {
	var c cursor
	data, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(data, &c)
	}
	if err != nil || len(c.Pos) != len(c.Keys) {
		return c, errors.New("planner: malformed cursor")
	}
	return c, nil
}

// compareAV orders sort key values as DynamoDB does: S and B by bytes, N
// by value. Values of different types order by type name, which DynamoDB
// never needs since a key attribute has one type.
func compareAV(a, b types.AttributeValue) int {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		if y, ok := b.(*types.AttributeValueMemberS); ok {
			return strings.Compare(x.Value, y.Value)
		}
	case *types.AttributeValueMemberN:
		if y, ok := b.(*types.AttributeValueMemberN); ok {
			fx, _, err1 := big.ParseFloat(x.Value, 10, 200, big.ToNearestEven)
			fy, _, err2 := big.ParseFloat(y.Value, 10, 200, big.ToNearestEven)
			if err1 == nil && err2 == nil {
				return fx.Cmp(fy)
			}
		}
	case *types.AttributeValueMemberB:
		if y, ok := b.(*types.AttributeValueMemberB); ok {
			return strings.Compare(string(x.Value), string(y.Value))
		}
	}
	return strings.Compare(fmt.Sprintf("%T", a), fmt.Sprintf("%T", b))
}

// firstRound is how many items the first round of a page asks of each of
// n branches: an even share of the page, plus one to see past it. A
// branch that gives more than its share is asked again for what the page
// still needs, so a page reads about its size plus one item per branch,
// not its size times the branches.
func firstRound(pageSize, n int) int {
	if n <= 1 {
		return pageSize
	}
	return (pageSize+n-1)/n + 1
}
