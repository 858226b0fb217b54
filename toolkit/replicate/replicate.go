// Package replicate copies a DynamoDB table into another while
// applications keep writing the source: a consistent parallel scan, then
// a catch-up from the source's stream, then (optionally) following the
// stream until cancelled and verifying the copy item by item. The copy
// may transform items on the way: derive attributes from templates, and
// give the target a new key design.
//
// The phases, each recorded in the checkpoint before the next starts:
//
//  1. mark: read the source's stream (DynamoDB Streams, NEW_IMAGE or
//     NEW_AND_OLD_IMAGES) to its tip, applying nothing, and remember the
//     last sequence number of every shard. Every change that commits
//     after this point has a record past the mark.
//  2. scan: copy every item with a parallel Scan (ConsistentRead) and
//     BatchWriteItem, segment by segment, checkpointing each page.
//  3. catch-up: read the stream from the mark, shards parents first, and
//     apply every record: INSERT and MODIFY put the (transformed) new
//     image, REMOVE deletes the (transformed) key.
//
// Why the result is exact: applying a record writes the whole item as the
// change left it (or deletes it), so replaying a change the scan already
// saw only sets the item to a state it had, and a later record of the same
// item, applied after it in order, sets the later state. Records of one
// shard are applied in order, shards after their parents, and the
// catch-up starts only when the scan is finished, so the last write the
// target receives for an item is the source's last change of it (or the
// scan's copy, when it did not change after the mark). Within one page of
// records only the last operation per target key is written, which is
// the same result.
//
// A replication stopped at any point (error, Ctrl-C, crash) resumes from
// its checkpoint: a scan page is recorded after its items are written, a
// page of records after it is applied, so resuming repeats at most one
// page, harmlessly. Stream records are kept 24 hours: a replication must
// not pause longer than that (minus its lag), or it fails with
// TrimmedDataAccessException and must start over.
package replicate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
)

// Client is the part of the DynamoDB API a replication uses; a
// *dynamodb.Client satisfies it.
type Client interface {
	DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error)
	Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

// StreamsClient is the part of the DynamoDB Streams API a replication
// uses; a *dynamodbstreams.Client satisfies it.
type StreamsClient interface {
	DescribeStream(ctx context.Context, in *dynamodbstreams.DescribeStreamInput, opts ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error)
	GetShardIterator(ctx context.Context, in *dynamodbstreams.GetShardIteratorInput, opts ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error)
	GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, opts ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error)
}

// Options describe a replication.
type Options struct {
	Source string
	// Target is created if missing: with the source's key schema (or the
	// transform's new key design) and billing mode. An existing target
	// must have that key schema.
	Target string
	// Transform changes items on the way; nil copies them as they are.
	Transform *Transform
	// Segments is the number of parallel scan segments; 0 means 4.
	Segments int
	// PageSize is the Scan Limit; 0 means 500. The checkpoint is written
	// after every page.
	PageSize int
	// Checkpoint is a file recording progress; "" keeps none. A run given
	// the checkpoint of the same replication (tables, transform,
	// segments) continues it: after a finished run, it catches up again
	// from where that run stopped.
	Checkpoint string
	// EnableStream turns the source's stream on (NEW_AND_OLD_IMAGES) when
	// it is off; otherwise a source without a stream is an error.
	EnableStream bool
	// Follow keeps applying new records after the catch-up, until ctx is
	// cancelled; Run then returns nil.
	Follow bool
	// PollInterval is how long Follow waits when the stream has nothing
	// new; 0 means 250ms.
	PollInterval time.Duration
	// Progress, if set, is called after every page and phase change, one
	// call at a time.
	Progress func(Progress)
}

// Progress counts a replication's work in this run.
type Progress struct {
	Phase string
	// Scanned items were read by the scan, Copied written to the target;
	// Skipped had no target key (a key template could not render).
	Scanned, Copied, Skipped int64
	// Marked is the number of records the mark passed over.
	Marked int64
	// Records is the number of stream records applied; Puts and Deletes
	// the writes they came to after keeping the last per key and page.
	Records, Puts, Deletes int64
	// Lag is the age of the last record applied when the catch-up is
	// behind, 0 when it reached the tip of the stream.
	Lag time.Duration
	// CaughtUpAt is when the last pass over the stream that ended at its
	// tip started: every change committed before it is in the target,
	// but for writes still in flight at that moment (a record is
	// readable once the writes numbered before it have settled too).
	CaughtUpAt time.Time
	// Earlier counts what earlier runs of the same checkpoint did.
	EarlierCopied, EarlierRecords int64
	Resumed                       bool
	// ScanTime and StreamTime are the time spent scanning and applying
	// records (catch-up and follow); Elapsed the whole run.
	ScanTime, StreamTime, Elapsed time.Duration
}

// CopyRate is items copied per second of scan.
func (p Progress) CopyRate() float64 {
	if p.ScanTime <= 0 {
		return 0
	}
	return float64(p.Copied) / p.ScanTime.Seconds()
}

// ApplyRate is stream records applied per second of catch-up and follow.
func (p Progress) ApplyRate() float64 {
	if p.StreamTime <= 0 {
		return 0
	}
	return float64(p.Records) / p.StreamTime.Seconds()
}

// Run replicates opts.Source into opts.Target; see the package comment.
// On error or cancellation the checkpoint holds the progress made, and a
// new Run with the same options goes on.
func Run(ctx context.Context, c Client, sc StreamsClient, opts Options) (Progress, error) {
	r := &run{c: c, sc: sc, opts: opts, start: time.Now()}
	err := r.run(ctx)
	return r.snapshot(), err
}

type run struct {
	c    Client
	sc   StreamsClient
	opts Options
	m    *mapper
	cp   *checkpoint
	arn  string
	view types.StreamViewType

	start      time.Time
	phaseFrom  time.Time // guarded by mu
	streamFrom time.Time // guarded by mu

	mu       sync.Mutex // guards progress and Progress calls
	progress Progress
}

func (r *run) run(ctx context.Context) error {
	o := &r.opts
	if o.Source == "" || o.Target == "" {
		return errors.New("replicate: Source and Target are required")
	}
	if o.Source == o.Target {
		return errors.New("replicate: the source and target are the same table")
	}
	if o.Segments <= 0 {
		o.Segments = 4
	}
	if o.PageSize <= 0 {
		o.PageSize = 500
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 250 * time.Millisecond
	}
	src, err := r.c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(o.Source)})
	if err != nil {
		return err
	}
	r.m, err = newMapper(o.Transform, keyNames(src.Table.KeySchema))
	if err != nil {
		return err
	}
	if err := r.ensureStream(ctx, src.Table); err != nil {
		return err
	}
	if !r.m.keyOnly() && r.view != types.StreamViewTypeNewAndOldImages {
		return fmt.Errorf("replicate: the new key design reads attributes other than %s's key, so a change or removal needs the item's old image to find its old target key; %s's stream is %s, not NEW_AND_OLD_IMAGES", o.Source, o.Source, r.view)
	}
	r.cp, err = openCheckpoint(o.Checkpoint, checkpointID{Source: o.Source, Target: o.Target, Transform: o.Transform.String(), Segments: o.Segments})
	if err != nil {
		return err
	}
	if r.cp.loaded {
		var arn string
		r.cp.locked(func(f *checkpointFile) {
			arn = f.StreamArn
			r.progress.EarlierCopied, r.progress.EarlierRecords = f.Copied, f.Applied
		})
		if arn != "" && arn != r.arn {
			return fmt.Errorf("replicate: %s's stream changed since the checkpoint was written (%s, now %s): changes in between may be lost; remove %s and start over", o.Source, arn, r.arn, o.Checkpoint)
		}
		r.progress.Resumed = true
	}
	if err := r.ensureTarget(ctx, src.Table); err != nil {
		return err
	}
	if !r.cp.loaded {
		// A fresh replication must start from an empty target: it only
		// writes what the source holds and the stream says, so an item
		// already there and since deleted from the source would stay.
		out, err := r.c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(o.Target), Limit: aws.Int32(1)})
		if err != nil {
			return err
		}
		if len(out.Items) > 0 {
			return fmt.Errorf("replicate: target %s already holds items, and no checkpoint continues the replication that wrote them: items since deleted from %s would stay. Continue that replication with its checkpoint, or start over with an empty (or absent) target", o.Target, o.Source)
		}
	}

	if r.cp.phase() == PhaseMark {
		r.setPhase(PhaseMark)
		if err := r.mark(ctx); err != nil {
			return err
		}
	}
	if r.cp.phase() == PhaseScan {
		r.setPhase(PhaseScan)
		err := r.scan(ctx)
		r.add(func(p *Progress) { p.ScanTime = time.Since(r.phaseFrom) })
		if err != nil {
			return err
		}
		if err := r.cp.update(func(f *checkpointFile) { f.Phase = PhaseCatchUp }); err != nil {
			return err
		}
	}
	r.mu.Lock()
	r.streamFrom = time.Now()
	r.mu.Unlock()
	r.setPhase(PhaseCatchUp)
	defer func() { r.add(func(p *Progress) { p.StreamTime = time.Since(r.streamFrom) }) }()
	if err := r.catchUp(ctx, false); err != nil {
		return err
	}
	if !o.Follow {
		r.report()
		return nil
	}
	r.setPhase(PhaseFollow)
	if err := r.catchUp(ctx, true); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}

func keyNames(ks []types.KeySchemaElement) []string {
	var hash, rng string
	for _, k := range ks {
		if k.KeyType == types.KeyTypeHash {
			hash = aws.ToString(k.AttributeName)
		} else {
			rng = aws.ToString(k.AttributeName)
		}
	}
	if rng == "" {
		return []string{hash}
	}
	return []string{hash, rng}
}

func (r *run) add(f func(p *Progress)) {
	r.mu.Lock()
	f(&r.progress)
	r.mu.Unlock()
}

func (r *run) snapshot() Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.progress
	p.Elapsed = time.Since(r.start)
	return p
}

// report calls the Progress callback.
func (r *run) report() {
	if r.opts.Progress == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.progress
	p.Elapsed = time.Since(r.start)
	switch p.Phase {
	case PhaseScan:
		p.ScanTime = time.Since(r.phaseFrom)
	case PhaseCatchUp, PhaseFollow:
		p.StreamTime = time.Since(r.streamFrom)
	}
	r.opts.Progress(p)
}

func (r *run) setPhase(phase string) {
	r.mu.Lock()
	r.progress.Phase = phase
	r.phaseFrom = time.Now()
	r.mu.Unlock()
	r.report()
}

// ensureStream finds the source's stream, enabling it when allowed.
func (r *run) ensureStream(ctx context.Context, t *types.TableDescription) error {
	spec := t.StreamSpecification
	if spec == nil || !aws.ToBool(spec.StreamEnabled) {
		if !r.opts.EnableStream {
			return fmt.Errorf("replicate: %s has no stream; enable one with NEW_AND_OLD_IMAGES (or NEW_IMAGE), or allow replicate to enable it (EnableStream, --enable-stream)", r.opts.Source)
		}
		_, err := r.c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
			TableName:           aws.String(r.opts.Source),
			StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
		})
		if err != nil {
			return fmt.Errorf("replicate: enable %s's stream: %w", r.opts.Source, err)
		}
		for t.StreamSpecification == nil || !aws.ToBool(t.StreamSpecification.StreamEnabled) || aws.ToString(t.LatestStreamArn) == "" {
			if err := sleep(ctx, 200*time.Millisecond); err != nil {
				return err
			}
			out, err := r.c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(r.opts.Source)})
			if err != nil {
				return err
			}
			t = out.Table
		}
		spec = t.StreamSpecification
	}
	r.view, r.arn = spec.StreamViewType, aws.ToString(t.LatestStreamArn)
	if r.view != types.StreamViewTypeNewImage && r.view != types.StreamViewTypeNewAndOldImages {
		return fmt.Errorf("replicate: %s's stream is %s; replicate needs the new image of every change (NEW_IMAGE or NEW_AND_OLD_IMAGES). The view type of a stream cannot change: disable the stream and enable it again with NEW_AND_OLD_IMAGES (other consumers of the stream will see a new stream)", r.opts.Source, r.view)
	}
	if r.arn == "" {
		return fmt.Errorf("replicate: %s reports no LatestStreamArn", r.opts.Source)
	}
	return nil
}

// ensureTarget creates the target if it is missing, or checks its keys.
func (r *run) ensureTarget(ctx context.Context, src *types.TableDescription) error {
	out, err := r.c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(r.opts.Target)})
	var nf *types.ResourceNotFoundException
	switch {
	case errors.As(err, &nf):
		return r.createTarget(ctx, src)
	case err != nil:
		return err
	}
	got := keyNames(out.Table.KeySchema)
	if fmt.Sprint(got) != fmt.Sprint(r.m.dstKeys) {
		return fmt.Errorf("replicate: target %s is keyed by %v, not %v", r.opts.Target, got, r.m.dstKeys)
	}
	return waitActive(ctx, r.c, r.opts.Target, out.Table)
}

func (r *run) createTarget(ctx context.Context, src *types.TableDescription) error {
	attrTypes := map[string]types.ScalarAttributeType{}
	for _, d := range src.AttributeDefinitions {
		attrTypes[aws.ToString(d.AttributeName)] = d.AttributeType
	}
	in := &dynamodb.CreateTableInput{TableName: aws.String(r.opts.Target)}
	for i, k := range r.m.dstKeys {
		kt := types.KeyTypeHash
		if i == 1 {
			kt = types.KeyTypeRange
		}
		at := types.ScalarAttributeTypeS
		if !r.m.t.redesign() {
			at = attrTypes[k]
		}
		in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String(k), KeyType: kt})
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(k), AttributeType: at})
	}
	in.BillingMode = types.BillingModePayPerRequest
	if b := src.BillingModeSummary; (b == nil || b.BillingMode == types.BillingModeProvisioned) && src.ProvisionedThroughput != nil &&
		aws.ToInt64(src.ProvisionedThroughput.ReadCapacityUnits) > 0 {
		in.BillingMode = types.BillingModeProvisioned
		in.ProvisionedThroughput = &types.ProvisionedThroughput{
			ReadCapacityUnits:  src.ProvisionedThroughput.ReadCapacityUnits,
			WriteCapacityUnits: src.ProvisionedThroughput.WriteCapacityUnits,
		}
	}
	out, err := r.c.CreateTable(ctx, in)
	var inUse *types.ResourceInUseException
	if errors.As(err, &inUse) { // created meanwhile: check it
		return r.ensureTarget(ctx, src)
	}
	if err != nil {
		return fmt.Errorf("replicate: create %s: %w", r.opts.Target, err)
	}
	return waitActive(ctx, r.c, r.opts.Target, out.TableDescription)
}

// waitActive polls until the table is ACTIVE (at once on dynago).
func waitActive(ctx context.Context, c Client, table string, t *types.TableDescription) error {
	for t == nil || t.TableStatus != types.TableStatusActive {
		if t != nil && t.TableStatus != types.TableStatusCreating && t.TableStatus != types.TableStatusUpdating {
			return fmt.Errorf("replicate: table %s is %s", table, t.TableStatus)
		}
		if err := sleep(ctx, time.Second); err != nil {
			return err
		}
		out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		if err != nil {
			return err
		}
		t = out.Table
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// writeConcurrency is how many BatchWriteItem calls one page of writes
// makes at once. A page's writes are to distinct keys, so their order
// does not matter.
const writeConcurrency = 4

// writeOps writes puts and deletes (distinct keys) with BatchWriteItem,
// 25 a call and writeConcurrency calls at once, retrying unprocessed
// items with backoff. It returns when all are written.
func writeOps(ctx context.Context, c Client, table string, ops []types.WriteRequest) error {
	if len(ops) <= 25 {
		return writeBatch(ctx, c, table, ops)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	chunks := make(chan []types.WriteRequest)
	errs := make(chan error, writeConcurrency)
	var wg sync.WaitGroup
	for w := 0; w < writeConcurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for chunk := range chunks {
				if err := writeBatch(ctx, c, table, chunk); err != nil {
					errs <- err
					cancel()
					return
				}
			}
		}()
	}
feed:
	for len(ops) > 0 {
		n := min(len(ops), 25)
		select {
		case chunks <- ops[:n]:
			ops = ops[n:]
		case <-ctx.Done():
			break feed
		}
	}
	close(chunks)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	return ctx.Err()
}

// writeBatch writes up to 25 operations, retrying unprocessed items and
// throttling with backoff.
func writeBatch(ctx context.Context, c Client, table string, pending []types.WriteRequest) error {
	backoff := 20 * time.Millisecond
	for attempt := 0; len(pending) > 0; attempt++ {
		out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: pending}})
		if err != nil {
			if !retryable(err) || attempt >= 10 {
				return fmt.Errorf("replicate: write %s: %w", table, err)
			}
		} else {
			pending = out.UnprocessedItems[table]
			if len(pending) == 0 {
				return nil
			}
		}
		if err := sleep(ctx, backoff); err != nil {
			return err
		}
		backoff = min(2*backoff, 5*time.Second)
	}
	return nil
}

// retryable reports throttling and server errors, which a later attempt
// may get past.
func retryable(err error) bool {
	var pe *types.ProvisionedThroughputExceededException
	var rl *types.RequestLimitExceeded
	var ise *types.InternalServerError
	var te *types.ThrottlingException
	return errors.As(err, &pe) || errors.As(err, &rl) || errors.As(err, &ise) || errors.As(err, &te)
}

// collector gathers the writes of one page, keeping the last per target
// key, in first-seen order.
type collector struct {
	m     *mapper
	index map[string]int
	ops   []types.WriteRequest
}

func newCollector(m *mapper) *collector { return &collector{m: m, index: map[string]int{}} }

func (c *collector) put(item map[string]types.AttributeValue, key map[string]types.AttributeValue) {
	c.set(key, types.WriteRequest{PutRequest: &types.PutRequest{Item: item}})
}

func (c *collector) del(key map[string]types.AttributeValue) {
	c.set(key, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: key}})
}

func (c *collector) set(key map[string]types.AttributeValue, w types.WriteRequest) {
	ks := c.m.keyString(key)
	if i, ok := c.index[ks]; ok {
		c.ops[i] = w
		return
	}
	c.index[ks] = len(c.ops)
	c.ops = append(c.ops, w)
}

// counts returns the puts and deletes collected.
func (c *collector) counts() (puts, deletes int64) {
	for _, w := range c.ops {
		if w.PutRequest != nil {
			puts++
		} else {
			deletes++
		}
	}
	return puts, deletes
}
