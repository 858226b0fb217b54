// Package retrofit adds a derived attribute to every item of an existing
// DynamoDB table: for example resourceId-action-accessedBy, computed from
// three attributes, so a new GSI can index it (seed 000's audit log).
//
// A parallel Scan feeds conditional writes. Each write sets the derived
// attribute only if the source attributes still hold the values the scan
// read; when a concurrent writer changed them first, the write fails, the
// item is read again and the derivation retried, so a concurrent change is
// never overwritten with a stale value. Items already holding the right
// value are not written, items lacking a source are skipped (a sparse
// index leaves them out anyway). Writes are rate-limited in write units
// per second; progress is checkpointed to a file after every page, so a
// run killed or interrupted resumes where it stopped and writes no item
// twice.
package retrofit

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/toolkit/internal/itemsize"
)

// Client is the part of the DynamoDB API a retrofit uses; a
// *dynamodb.Client satisfies it.
type Client interface {
	DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
}

// Options describe a retrofit.
type Options struct {
	Table     string
	Attribute string    // the derived attribute to set
	Template  *Template // how to compute it
	// Segments is the number of parallel scan segments; 0 means 4.
	Segments int
	// PageSize is the Scan Limit; 0 means 100.
	PageSize int
	// WriteUnitsPerSecond caps the write rate; 0 means no cap.
	WriteUnitsPerSecond float64
	// Checkpoint is a file recording progress; "" keeps none. A run
	// given an existing checkpoint for the same table, attribute,
	// template and segments resumes from it.
	Checkpoint string
	// DryRun scans and counts what would be written, and writes nothing.
	// Its WriteUnits are what the writes would bill: each item's, and each
	// secondary index's the write touches, as DynamoDB bills an UpdateItem
	// (it reads whole items for their sizes, at the same read cost).
	DryRun bool
	// Progress, if set, is called after each page, one call at a time.
	Progress func(Progress)
}

// Progress counts a retrofit's work so far.
type Progress struct {
	Scanned   int64 // items read by the scan
	Written   int64 // items given their derived value (DryRun: would be)
	Unchanged int64 // items that already held it
	Skipped   int64 // items lacking a source attribute, or deleted meanwhile
	Retried   int64 // writes that lost to a concurrent change and were redone
	// ReadUnits and WriteUnits are the capacity consumed; in a dry run
	// WriteUnits estimates what the writes would cost.
	ReadUnits, WriteUnits float64
	// TableItems is the table's item count from DescribeTable, for an ETA
	// (DynamoDB refreshes it about every six hours).
	TableItems int64
	Elapsed    time.Duration
	Resumed    bool // the run continued from a checkpoint
}

// Rate is items scanned per second.
func (p Progress) Rate() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.Scanned) / p.Elapsed.Seconds()
}

// ETA estimates the time left from the scan rate and the table's size; 0
// when unknown.
func (p Progress) ETA() time.Duration {
	r := p.Rate()
	if r == 0 || p.TableItems <= p.Scanned {
		return 0
	}
	return time.Duration(float64(p.TableItems-p.Scanned) / r * float64(time.Second))
}

// maxAttempts bounds the re-reads of one item under constant contention.
const maxAttempts = 20

// Run retrofits the table. On error or cancellation the checkpoint holds
// the pages completed, and a new Run with the same options goes on.
func Run(ctx context.Context, c Client, opts Options) (Progress, error) {
	var p Progress
	if opts.Table == "" || opts.Attribute == "" || opts.Template == nil {
		return p, errors.New("retrofit: Table, Attribute and Template are required")
	}
	for _, s := range opts.Template.Sources() {
		if s == opts.Attribute {
			return p, fmt.Errorf("retrofit: the template reads %s, the attribute it writes", s)
		}
	}
	segments := opts.Segments
	if segments <= 0 {
		segments = 4
	}
	pageSize := opts.PageSize
	if pageSize <= 0 {
		pageSize = 100
	}
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(opts.Table)})
	if err != nil {
		return p, err
	}
	var keyNames []string
	for _, k := range desc.Table.KeySchema {
		keyNames = append(keyNames, aws.ToString(k.AttributeName))
	}
	for _, k := range keyNames {
		if k == opts.Attribute {
			return p, fmt.Errorf("retrofit: %s is a key attribute of %s", k, opts.Table)
		}
	}
	p.TableItems = aws.ToInt64(desc.Table.ItemCount)

	cp, err := openCheckpoint(opts.Checkpoint, checkpointID{Table: opts.Table, Attribute: opts.Attribute, Template: opts.Template.String(), Segments: segments, DryRun: opts.DryRun})
	if err != nil {
		return p, err
	}
	p.Resumed = cp.resumed()

	r := &run{c: c, opts: opts, keys: keyNames, cp: cp, start: time.Now(), pageSize: pageSize, indexes: indexShapes(desc.Table)}
	r.limit = newLimiter(opts.WriteUnitsPerSecond)
	r.progress.TableItems, r.progress.Resumed = p.TableItems, p.Resumed
	var wg sync.WaitGroup
	errs := make(chan error, segments)
	for seg := 0; seg < segments; seg++ {
		if cp.done(seg) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.segment(ctx, seg, segments); err != nil {
				r.failed.Store(true)
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	r.mu.Lock()
	p = r.progress
	p.Elapsed = time.Since(r.start)
	r.mu.Unlock()
	return p, <-errs
}

// run is the state shared by the segments of one Run.
type run struct {
	c        Client
	opts     Options
	keys     []string
	cp       *checkpoint
	limit    *limiter
	start    time.Time
	pageSize int
	indexes  []indexShape // the table's secondary indexes, for a dry run's bill
	failed   atomic.Bool

	mu       sync.Mutex // guards progress and Progress calls
	progress Progress
}

func (r *run) add(f func(p *Progress)) {
	r.mu.Lock()
	f(&r.progress)
	r.mu.Unlock()
}

// segment works through one scan segment, page by page.
func (r *run) segment(ctx context.Context, seg, total int) error {
	in := &dynamodb.ScanInput{
		TableName:              aws.String(r.opts.Table),
		Limit:                  aws.Int32(int32(r.pageSize)),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		ExclusiveStartKey:      r.cp.last(seg),
	}
	// A write needs the keys and the sources only. A dry run reads whole
	// items, whose sizes the bill of their writes depends on; the Scan
	// costs the same either way (DynamoDB bills the items read, not
	// what the projection returns).
	if !r.opts.DryRun {
		names, proj := projection(r.opts.Attribute, r.keys, r.opts.Template.Sources())
		in.ProjectionExpression, in.ExpressionAttributeNames = aws.String(proj), names
	}
	if total > 1 {
		in.Segment, in.TotalSegments = aws.Int32(int32(seg)), aws.Int32(int32(total))
	}
	for !r.failed.Load() {
		if err := ctx.Err(); err != nil {
			return err
		}
		out, err := r.c.Scan(ctx, in)
		if err != nil {
			return err
		}
		r.add(func(p *Progress) {
			p.Scanned += int64(len(out.Items))
			if out.ConsumedCapacity != nil {
				p.ReadUnits += aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
			}
		})
		for _, it := range out.Items {
			if err := r.item(ctx, it); err != nil {
				return err
			}
		}
		// The page is done: record it, so a resumed run starts after it.
		if err := r.cp.save(seg, out.LastEvaluatedKey); err != nil {
			return err
		}
		if r.opts.Progress != nil {
			r.mu.Lock()
			p := r.progress
			p.Elapsed = time.Since(r.start)
			r.opts.Progress(p)
			r.mu.Unlock()
		}
		if out.LastEvaluatedKey == nil {
			return nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	return nil
}

// item brings one item's derived attribute up to date.
func (r *run) item(ctx context.Context, it map[string]types.AttributeValue) error {
	key := make(map[string]types.AttributeValue, len(r.keys))
	for _, k := range r.keys {
		key[k] = it[k]
	}
	for attempt := 0; ; attempt++ {
		want, ok := r.opts.Template.Render(it)
		if !ok {
			r.add(func(p *Progress) { p.Skipped++ })
			return nil
		}
		if cur, isS := it[r.opts.Attribute].(*types.AttributeValueMemberS); isS && cur.Value == want {
			r.add(func(p *Progress) { p.Unchanged++ })
			return nil
		}
		if r.opts.DryRun {
			units := r.estimateWriteUnits(it, want)
			r.add(func(p *Progress) { p.Written++; p.WriteUnits += units })
			return nil
		}
		if attempt >= maxAttempts {
			return fmt.Errorf("retrofit: item %v changed %d times while being updated; giving up", key, attempt)
		}
		if err := r.limit.wait(ctx); err != nil {
			return err
		}
		out, err := r.c.UpdateItem(ctx, r.update(key, it, want))
		var ccf *types.ConditionalCheckFailedException
		switch {
		case err == nil:
			units := 1.0
			if out.ConsumedCapacity != nil {
				units = aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
			}
			r.limit.spend(units)
			r.add(func(p *Progress) { p.Written++; p.WriteUnits += units })
			return nil
		case errors.As(err, &ccf):
			// A concurrent writer got there first: read the item as it
			// is now and derive again.
			r.limit.spend(1)
			r.add(func(p *Progress) { p.Retried++; p.WriteUnits++ })
			got, err := r.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(r.opts.Table), Key: key, ConsistentRead: aws.Bool(true)})
			if err != nil {
				return err
			}
			if got.Item == nil {
				r.add(func(p *Progress) { p.Skipped++ }) // deleted meanwhile
				return nil
			}
			it = got.Item
		default:
			return err
		}
	}
}

// projection returns the Scan projection of the derived attribute, the
// keys and the template's sources, each attribute once: DynamoDB refuses
// a projection naming one path twice ("Two document paths overlap"),
// which a template reading a key attribute, or one attribute twice,
// would otherwise send.
func projection(attribute string, keys, sources []string) (names map[string]string, proj string) {
	names = map[string]string{"#t": attribute}
	proj = "#t"
	seen := map[string]bool{attribute: true}
	for _, k := range append(append([]string(nil), keys...), sources...) {
		if seen[k] {
			continue
		}
		seen[k] = true
		ph := fmt.Sprintf("#a%d", len(names)-1)
		names[ph] = k
		proj += ", " + ph
	}
	return names, proj
}

// update builds the conditional write: set the derived value if every
// source still holds what was read, and the item still exists.
func (r *run) update(key, it map[string]types.AttributeValue, want string) *dynamodb.UpdateItemInput {
	names := map[string]string{"#t": r.opts.Attribute, "#k": r.keys[0]}
	values := map[string]types.AttributeValue{":t": &types.AttributeValueMemberS{Value: want}}
	cond := "attribute_exists(#k)"
	seen := map[string]bool{}
	for i, s := range r.opts.Template.Sources() {
		if seen[s] {
			continue
		}
		seen[s] = true
		n, v := fmt.Sprintf("#s%d", i), fmt.Sprintf(":s%d", i)
		names[n], values[v] = s, it[s]
		cond += " AND " + n + " = " + v
	}
	return &dynamodb.UpdateItemInput{
		TableName:                 aws.String(r.opts.Table),
		Key:                       key,
		UpdateExpression:          aws.String("SET #t = :t"),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
	}
}

// indexShape is what a write's bill needs of a secondary index: the
// attributes of its key and those it projects.
type indexShape struct {
	keys    []string        // its key attributes, which an item must all hold to be in it
	all     bool            // ProjectionType ALL
	project map[string]bool // otherwise: its keys, the table's keys and INCLUDE's attributes
}

// indexShapes returns the shapes of the table's global and local
// secondary indexes, but those being deleted.
func indexShapes(t *types.TableDescription) []indexShape {
	var tableKeys []string
	for _, k := range t.KeySchema {
		tableKeys = append(tableKeys, aws.ToString(k.AttributeName))
	}
	shape := func(ks []types.KeySchemaElement, p *types.Projection) indexShape {
		sh := indexShape{project: map[string]bool{}}
		for _, k := range ks {
			sh.keys = append(sh.keys, aws.ToString(k.AttributeName))
		}
		if p != nil && p.ProjectionType == types.ProjectionTypeAll {
			sh.all = true
			return sh
		}
		var include []string
		if p != nil {
			include = p.NonKeyAttributes
		}
		for _, a := range append(append(slices.Clone(sh.keys), tableKeys...), include...) {
			sh.project[a] = true
		}
		return sh
	}
	var out []indexShape
	for _, g := range t.GlobalSecondaryIndexes {
		if g.IndexStatus != types.IndexStatusDeleting {
			out = append(out, shape(g.KeySchema, g.Projection))
		}
	}
	for _, l := range t.LocalSecondaryIndexes {
		out = append(out, shape(l.KeySchema, l.Projection))
	}
	return out
}

// entry returns the index's entry for item it, nil when it holds not all
// of the index's key attributes.
func (sh indexShape) entry(it map[string]types.AttributeValue) map[string]types.AttributeValue {
	for _, k := range sh.keys {
		if _, ok := it[k]; !ok {
			return nil
		}
	}
	if sh.all {
		return it
	}
	e := make(map[string]types.AttributeValue, len(sh.project))
	for a := range sh.project {
		if v, ok := it[a]; ok {
			e[a] = v
		}
	}
	return e
}

// estimateWriteUnits is what setting the derived attribute of it, a whole
// item as the scan read it, to value bills, as DynamoDB bills an
// UpdateItem: the larger of the item before and after, and for each
// secondary index the update touches, a put of the entry it adds, a
// delete of the entry it removes, both when it changes the entry's key,
// and one write of the larger entry when it changes only projected
// attributes; an index it does not touch costs nothing.
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ThroughputConsiderations.Writes
func (r *run) estimateWriteUnits(it map[string]types.AttributeValue, value string) float64 {
	attr := r.opts.Attribute
	next := maps.Clone(it)
	next[attr] = &types.AttributeValueMemberS{Value: value}
	units := itemsize.WriteUnits(max(itemsize.Item(it), itemsize.Item(next)))
	for _, sh := range r.indexes {
		before, after := sh.entry(it), sh.entry(next)
		switch {
		case before == nil && after == nil:
		case before == nil:
			units += itemsize.WriteUnits(itemsize.Item(after))
		case after == nil:
			units += itemsize.WriteUnits(itemsize.Item(before))
		case slices.Contains(sh.keys, attr):
			// The derived attribute is a key of the index, and its value
			// changes (an item already holding it is not written).
			units += itemsize.WriteUnits(itemsize.Item(before)) + itemsize.WriteUnits(itemsize.Item(after))
		case sh.all || sh.project[attr]:
			units += itemsize.WriteUnits(max(itemsize.Item(before), itemsize.Item(after)))
		}
	}
	return units
}

// limiter paces writes to a number of write units per second. Writes
// spend what they consumed after the fact; a write waits while the
// budget is negative.
type limiter struct {
	rate   float64
	mu     sync.Mutex
	tokens float64
	at     time.Time
}

func newLimiter(rate float64) *limiter {
	return &limiter{rate: rate, tokens: min(rate, 1), at: time.Now()}
}

func (l *limiter) refill() {
	now := time.Now()
	l.tokens = min(l.tokens+now.Sub(l.at).Seconds()*l.rate, max(l.rate, 1))
	l.at = now
}

func (l *limiter) wait(ctx context.Context) error {
	if l.rate <= 0 {
		return nil
	}
	for {
		l.mu.Lock()
		l.refill()
		short := -l.tokens
		l.mu.Unlock()
		if short < 0 {
			return nil
		}
		d := time.Duration((short + 0.01) / l.rate * float64(time.Second))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
}

func (l *limiter) spend(units float64) {
	if l.rate <= 0 {
		return
	}
	l.mu.Lock()
	l.refill()
	l.tokens -= units
	l.mu.Unlock()
}
