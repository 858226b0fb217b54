package replicate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// recordsPerCall is GetRecords' Limit: the most it allows.
const recordsPerCall = 1000

// shardInfo is a shard as DescribeStream lists it.
type shardInfo struct {
	id, parent string
	closed     bool
}

// describe lists the stream's shards and its status.
func (r *run) describe(ctx context.Context) ([]shardInfo, st.StreamStatus, error) {
	var shards []shardInfo
	var status st.StreamStatus
	in := &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(r.arn)}
	for {
		out, err := r.sc.DescribeStream(ctx, in)
		if err != nil {
			return nil, "", fmt.Errorf("replicate: describe stream %s: %w", r.arn, err)
		}
		d := out.StreamDescription
		status = d.StreamStatus
		for _, s := range d.Shards {
			info := shardInfo{id: aws.ToString(s.ShardId), parent: aws.ToString(s.ParentShardId)}
			if s.SequenceNumberRange != nil && aws.ToString(s.SequenceNumberRange.EndingSequenceNumber) != "" {
				info.closed = true
			}
			shards = append(shards, info)
		}
		if aws.ToString(d.LastEvaluatedShardId) == "" {
			return shards, status, nil
		}
		in.ExclusiveStartShardId = d.LastEvaluatedShardId
	}
}

// streamMode is what a pass over the stream does with the records.
type streamMode int

const (
	modeMark    streamMode = iota // note positions, apply nothing, save at the end
	modeCatchUp                   // apply, until the tip or records newer than the start
	modeFollow                    // apply, until cancelled
)

// mark reads the stream to its tip as it was when the mark started and
// records every shard's position, then moves the checkpoint to the scan
// phase.
func (r *run) mark(ctx context.Context) error {
	r.cp.locked(func(f *checkpointFile) { f.Shards = map[string]*shardState{} })
	if err := r.passes(ctx, modeMark); err != nil {
		return err
	}
	return r.cp.update(func(f *checkpointFile) {
		f.StreamArn = r.arn
		f.Phase = PhaseScan
	})
}

// catchUp applies the stream from the checkpoint's positions: to the tip
// (or to records newer than its start, when writes never pause), or,
// following, until ctx is cancelled.
func (r *run) catchUp(ctx context.Context, follow bool) error {
	if follow {
		return r.passes(ctx, modeFollow)
	}
	return r.passes(ctx, modeCatchUp)
}

// passes reads the stream shard by shard, parents before children, the
// shards whose parents are finished in parallel, until the mode says
// stop.
func (r *run) passes(ctx context.Context, mode streamMode) error {
	passStart := time.Now()
	// A mark and a catch-up end at the stream's tip as it was when they
	// started, so they end while writes go on faster than they read:
	// see tipsAtStart. A mark that stops there notes positions no later
	// than the scan's start, which is all the catch-up after the scan
	// needs: it applies every record after them.
	var tips map[string]*tipState
	if mode == modeCatchUp || mode == modeMark {
		var err error
		if tips, err = r.tipsAtStart(ctx); err != nil {
			return err
		}
	}
	var shards []shardInfo
	var status st.StreamStatus
	relist := true
	for {
		if relist {
			var err error
			if shards, status, err = r.describe(ctx); err != nil {
				return err
			}
		}
		relist = true
		ready, err := r.merge(shards, mode)
		if err != nil {
			return err
		}
		type result struct {
			done, tip bool
			err       error
		}
		results := make([]result, len(ready))
		read := func(i int, sh shardInfo) {
			var tip *tipState
			if tips != nil {
				t, listed := tips[sh.id]
				if !listed {
					// A shard that appeared after the pass started
					// holds only changes made after it started: a mark
					// leaves it to the catch-up, which reads it whole.
					results[i] = result{tip: true}
					return
				}
				tip = t
			}
			done, atTip, err := r.readShard(ctx, sh, mode, tip)
			results[i] = result{done, atTip, err}
		}
		if r.m.keyOnly() {
			var wg sync.WaitGroup
			for i, sh := range ready {
				wg.Add(1)
				go func() { defer wg.Done(); read(i, sh) }()
			}
			wg.Wait()
		} else {
			// With a new key design two source items can meet at one
			// target key (one leaves it, the other takes it), with their
			// records in sibling shards: applying those in parallel could
			// end with the delete last. One shard at a time keeps each
			// shard's order and the order the shards were read in.
			for i, sh := range ready {
				read(i, sh)
			}
		}
		anyDone, allTip := false, true
		for _, res := range results {
			if res.err != nil {
				return res.err
			}
			anyDone = anyDone || res.done
			allTip = allTip && (res.tip || res.done)
		}
		if anyDone {
			// Children may be ready now. Those in this listing are read
			// before the stream is listed again: listing every shard once
			// per generation of them made a pass quadratic in the shards
			// behind it (a stream that rolls over every 100 ms while a
			// slow copy runs has thousands). A shard made since the
			// listing holds only changes made after the pass started
			// (see tipsAtStart), and a following pass lists again.
			relist = false
			continue
		}
		if allTip {
			if mode != modeMark {
				r.add(func(p *Progress) { p.Lag, p.CaughtUpAt = 0, passStart })
				r.report()
			}
			if len(ready) == 0 && status != st.StreamStatusEnabled && status != st.StreamStatusEnabling && mode == modeFollow {
				return fmt.Errorf("replicate: %s's stream is %s and every record is applied: changes from now on have no record, so following cannot go on", r.opts.Source, status)
			}
		}
		if mode != modeFollow {
			return nil // at the tip, or past the tip as it was at the start
		}
		if allTip {
			if err := sleep(ctx, r.opts.PollInterval); err != nil {
				return err
			}
		}
		passStart = time.Now()
	}
}

// merge adds newly listed shards to the state and returns the shards to
// read now: not done, and their parent done or gone.
func (r *run) merge(shards []shardInfo, mode streamMode) ([]shardInfo, error) {
	var ready []shardInfo
	var err error
	r.cp.locked(func(f *checkpointFile) {
		listed := map[string]bool{}
		for _, sh := range shards {
			listed[sh.id] = true
			if f.Shards[sh.id] == nil {
				f.Shards[sh.id] = &shardState{Parent: sh.parent}
			}
		}
		for id, s := range f.Shards {
			if listed[id] {
				continue
			}
			if !s.Done && mode != modeMark {
				err = fmt.Errorf("replicate: shard %s of %s's stream was trimmed before it was read to its end (records are kept 24 hours): the target may miss changes; remove the checkpoint and start over", id, r.opts.Source)
				return
			}
			delete(f.Shards, id)
		}
		for _, sh := range shards {
			s := f.Shards[sh.id]
			if s.Done {
				continue
			}
			if p := f.Shards[s.Parent]; s.Parent != "" && p != nil && !p.Done {
				continue
			}
			ready = append(ready, sh)
		}
	})
	return ready, err
}

// readShard reads one shard from its position, in order, applying each
// page unless marking. done: the shard is closed and read to its end;
// tip: the last read found nothing new.
func (r *run) readShard(ctx context.Context, sh shardInfo, mode streamMode, tipAt *tipState) (done, tip bool, err error) {
	var after string
	r.cp.locked(func(f *checkpointFile) { after = f.Shards[sh.id].After })
	iter, err := r.iterator(ctx, sh.id, after)
	if err != nil {
		return false, false, err
	}
	for {
		out, err := r.sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter, Limit: aws.Int32(recordsPerCall)})
		var expired *st.ExpiredIteratorException
		switch {
		case errors.As(err, &expired):
			if iter, err = r.iterator(ctx, sh.id, after); err != nil {
				return false, false, err
			}
			continue
		case err != nil:
			return false, false, fmt.Errorf("replicate: read shard %s: %w", sh.id, trimmed(err, r.opts.Source))
		}
		recs := out.Records
		var last *st.StreamRecord
		if len(recs) > 0 {
			last = recs[len(recs)-1].Dynamodb
			if last == nil || last.SequenceNumber == nil {
				return false, false, fmt.Errorf("replicate: shard %s: a record without a sequence number", sh.id)
			}
			after = aws.ToString(last.SequenceNumber)
		}
		done := out.NextShardIterator == nil
		if mode == modeMark {
			r.cp.locked(func(f *checkpointFile) {
				f.Shards[sh.id].After = after
				f.Shards[sh.id].Done = done
			})
			r.add(func(p *Progress) { p.Marked += int64(len(recs)) })
		} else if len(recs) > 0 || done {
			puts, dels, err := r.apply(ctx, recs)
			if err != nil {
				return false, false, err
			}
			n := int64(len(recs))
			if err := r.cp.update(func(f *checkpointFile) {
				f.Shards[sh.id].After = after
				f.Shards[sh.id].Done = done
				f.Applied += n
			}); err != nil {
				return false, false, err
			}
			r.add(func(p *Progress) {
				p.Records += n
				p.Puts += puts
				p.Deletes += dels
				if last != nil && last.ApproximateCreationDateTime != nil {
					p.Lag = max(0, time.Since(*last.ApproximateCreationDateTime))
				}
			})
			r.report()
		}
		if done {
			return true, false, nil
		}
		if len(recs) == 0 {
			if !sh.closed {
				return false, true, nil
			}
			// A closed shard may still be settling its last records:
			// it ends only when GetRecords says so.
			if err := sleep(ctx, 20*time.Millisecond); err != nil {
				return false, false, err
			}
		} else if tipAt != nil {
			// While writes go on the tip moves and an empty page may never
			// come: stop once past the first change made after the start.
			passed, err := r.pastTip(ctx, sh.id, tipAt, after)
			if err != nil {
				return false, false, err
			}
			if passed {
				return false, false, nil
			}
		}
		iter = out.NextShardIterator
	}
}

// iterator returns a shard iterator just after sequence number after, or
// at the shard's oldest record.
func (r *run) iterator(ctx context.Context, shard, after string) (*string, error) {
	in := &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(r.arn), ShardId: aws.String(shard), ShardIteratorType: st.ShardIteratorTypeTrimHorizon}
	if after != "" {
		in.ShardIteratorType, in.SequenceNumber = st.ShardIteratorTypeAfterSequenceNumber, aws.String(after)
	}
	out, err := r.sc.GetShardIterator(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("replicate: shard iterator for %s: %w", shard, trimmed(err, r.opts.Source))
	}
	return out.ShardIterator, nil
}

// trimmed explains TrimmedDataAccessException.
func trimmed(err error, source string) error {
	var t *st.TrimmedDataAccessException
	if errors.As(err, &t) {
		return fmt.Errorf("%w: records of %s's stream this replication still needed are gone (kept 24 hours); remove the checkpoint and start over", err, source)
	}
	return err
}

// apply writes the effect of a page of records, keeping the last write
// per target key: INSERT and MODIFY put the transformed new image (and
// delete the old target key when the change moved the item to another
// one), REMOVE deletes the transformed key.
func (r *run) apply(ctx context.Context, recs []st.Record) (puts, deletes int64, err error) {
	col := newCollector(r.m)
	for _, rec := range recs {
		d := rec.Dynamodb
		if d == nil {
			continue
		}
		newImage, oldImage := fromStream(d.NewImage), fromStream(d.OldImage)
		switch rec.EventName {
		case st.OperationTypeInsert, st.OperationTypeModify:
			if newImage == nil {
				return 0, 0, fmt.Errorf("replicate: %s record %s has no new image", rec.EventName, aws.ToString(d.SequenceNumber))
			}
			newKey, okNew := r.m.key(newImage)
			if oldImage != nil {
				if oldKey, okOld := r.m.key(oldImage); okOld && (!okNew || r.m.keyString(oldKey) != r.m.keyString(newKey)) {
					col.del(oldKey)
				}
			}
			if okNew {
				item, _ := r.m.item(newImage)
				col.put(item, newKey)
			}
		case st.OperationTypeRemove:
			src := oldImage
			if src == nil {
				src = fromStream(d.Keys)
			}
			if k, ok := r.m.key(src); ok {
				col.del(k)
			}
		}
	}
	if err := writeOps(ctx, r.c, r.opts.Target, col.ops); err != nil {
		return 0, 0, err
	}
	puts, deletes = col.counts()
	return puts, deletes, nil
}

// tipState is where an open shard's tip was when a catch-up started: a
// LATEST iterator taken then, and the sequence number of the first record
// it returns, the first change made after the start, once one exists.
type tipState struct {
	iter *string
	seq  string
}

// tipsAtStart takes a LATEST iterator on every open shard, and lists the
// closed ones, as the catch-up starts. This needs no clock: the tip is
// the stream's own position, wherever its records' times come from.
func (r *run) tipsAtStart(ctx context.Context) (map[string]*tipState, error) {
	shards, _, err := r.describe(ctx)
	if err != nil {
		return nil, err
	}
	tips := map[string]*tipState{}
	for _, sh := range shards {
		if sh.closed {
			tips[sh.id] = nil // read to its end
			continue
		}
		out, err := r.sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{
			StreamArn: aws.String(r.arn), ShardId: aws.String(sh.id), ShardIteratorType: st.ShardIteratorTypeLatest,
		})
		if err != nil {
			return nil, fmt.Errorf("replicate: shard %s: %w", sh.id, trimmed(err, r.opts.Source))
		}
		tips[sh.id] = &tipState{iter: out.ShardIterator}
	}
	return tips, nil
}

// pastTip reports whether after, the last sequence number applied, is at
// or past the first record written after the catch-up started. Until
// such a record exists it asks the LATEST iterator for it.
func (r *run) pastTip(ctx context.Context, shard string, t *tipState, after string) (bool, error) {
	if t.seq == "" && t.iter != nil {
		out, err := r.sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: t.iter, Limit: aws.Int32(1)})
		var expired *st.ExpiredIteratorException
		switch {
		case errors.As(err, &expired):
			// Taken more than 15 minutes ago: the tip moves to now.
			g, err := r.sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{
				StreamArn: aws.String(r.arn), ShardId: aws.String(shard), ShardIteratorType: st.ShardIteratorTypeLatest,
			})
			if err != nil {
				return false, fmt.Errorf("replicate: shard %s: %w", shard, trimmed(err, r.opts.Source))
			}
			t.iter = g.ShardIterator
			return false, nil
		case err != nil:
			return false, fmt.Errorf("replicate: read shard %s: %w", shard, trimmed(err, r.opts.Source))
		}
		if len(out.Records) > 0 && out.Records[0].Dynamodb != nil {
			t.seq = aws.ToString(out.Records[0].Dynamodb.SequenceNumber)
		}
		t.iter = out.NextShardIterator
	}
	return t.seq != "" && after != "" && compareSeq(after, t.seq) >= 0, nil
}

// compareSeq orders two sequence numbers: decimal strings of any length.
func compareSeq(a, b string) int {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
