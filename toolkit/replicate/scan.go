package replicate

import (
	"context"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// scan copies every item of the source, segments in parallel; each
// segment records every page in the checkpoint once it is written.
func (r *run) scan(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, r.opts.Segments)
	for seg := 0; seg < r.opts.Segments; seg++ {
		done, last := r.cp.segment(seg)
		if done {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.segment(ctx, seg, last); err != nil {
				errs <- err
				cancel()
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

func (r *run) segment(ctx context.Context, seg int, start map[string]types.AttributeValue) error {
	in := &dynamodb.ScanInput{
		TableName:         aws.String(r.opts.Source),
		Limit:             aws.Int32(int32(r.opts.PageSize)),
		ConsistentRead:    aws.Bool(true),
		ExclusiveStartKey: start,
	}
	if r.opts.Segments > 1 {
		in.Segment, in.TotalSegments = aws.Int32(int32(seg)), aws.Int32(int32(r.opts.Segments))
	}
	for {
		out, err := r.c.Scan(ctx, in)
		if err != nil {
			return err
		}
		col := newCollector(r.m)
		var skipped int64
		for _, it := range out.Items {
			item, ok := r.m.item(it)
			if !ok {
				skipped++
				continue
			}
			k, _ := r.m.key(it)
			col.put(item, k)
		}
		if err := writeOps(ctx, r.c, r.opts.Target, col.ops); err != nil {
			return err
		}
		copied := int64(len(col.ops))
		// The page is written: record it, so a resumed run starts after it.
		if err := r.cp.saveSegment(seg, out.LastEvaluatedKey, copied); err != nil {
			return err
		}
		r.add(func(p *Progress) {
			p.Scanned += int64(len(out.Items))
			p.Copied += copied
			p.Skipped += skipped
		})
		r.report()
		if out.LastEvaluatedKey == nil {
			return nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}
