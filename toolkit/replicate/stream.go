package replicate

import (
	"context"
	"errors"
	"fmt"
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

// mark reads the stream to its tip and records every shard's position,
// then moves the checkpoint to the scan phase.
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
	start := time.Now()
	stopAt := time.Time{}
	if mode != modeFollow {
		// Record times are to the second: a record stamped a second
		// after the start was written after it.
		stopAt = start.Truncate(time.Second).Add(time.Second)
	}
	passStart := start
	for {
		shards, status, err := r.describe(ctx)
		if err != nil {
			return err
		}
		ready, err := r.merge(shards, mode)
		if err != nil {
			return err
		}
		type result struct {
			done, tip bool
			err       error
		}
		results := make([]result, len(ready))
		var wg sync.WaitGroup
		for i, sh := range ready {
			wg.Add(1)
			go func() {
				defer wg.Done()
				done, tip, err := r.readShard(ctx, sh, mode, stopAt)
				results[i] = result{done, tip, err}
			}()
		}
		wg.Wait()
		anyDone, allTip := false, true
		for _, res := range results {
			if res.err != nil {
				return res.err
			}
			anyDone = anyDone || res.done
			allTip = allTip && (res.tip || res.done)
		}
		if anyDone {
			continue // children may be ready now
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
			return nil // at the tip, or past records newer than the start
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
func (r *run) readShard(ctx context.Context, sh shardInfo, mode streamMode, stopAt time.Time) (done, tip bool, err error) {
	var after string
	r.cp.locked(func(f *checkpointFile) { after = f.Shards[sh.id].After })
	iter, err := r.iterator(ctx, sh.id, after)
	if err != nil {
		return false, false, err
	}
	shortBefore := false
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
		} else if !sh.closed && !stopAt.IsZero() {
			// While writes go on the tip moves and an empty page may never
			// come. Two short pages in a row each read all there was when
			// they were asked for, after the start; a record stamped after
			// the start was written after it: caught up enough.
			short := len(recs) < recordsPerCall
			if short && shortBefore || last.ApproximateCreationDateTime != nil && !last.ApproximateCreationDateTime.Before(stopAt) {
				return false, false, nil
			}
			shortBefore = short
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
