package replicate

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// VerifyOptions describe a verification: the same tables and transform as
// the replication.
type VerifyOptions struct {
	Source, Target string
	Transform      *Transform
	// Segments is the number of parallel scan segments per table; 0
	// means 4.
	Segments int
	// Examples is the most differences to describe; 0 means 10.
	Examples int
}

// Kinds of difference.
const (
	Missing   = "missing"   // the source item has no target item
	Extra     = "extra"     // the target item has no source item
	Differs   = "differs"   // both exist and their attributes differ
	Collision = "collision" // two source items map to one target key
)

// Difference is one example of a difference.
type Difference struct {
	Kind string
	// Key is the target key.
	Key map[string]types.AttributeValue
	// Attributes lists, for Differs, the attributes whose values differ
	// or that only one side has.
	Attributes []string
}

// Report is the result of a verification.
type Report struct {
	SourceItems, TargetItems int64
	// Skipped source items have no target key (a key template cannot
	// render); they are not expected in the target.
	Skipped                               int64
	Matching                              int64
	Missing, Extra, Differing, Collisions int64
	Examples                              []Difference
	Elapsed                               time.Duration
}

// Differences is the number of differences of every kind.
func (r Report) Differences() int64 { return r.Missing + r.Extra + r.Differing + r.Collisions }

// entry is one item as verification remembers it: a digest of its
// content and, when keys are redesigned, the source key to fetch it by.
type entry struct {
	sum    [16]byte
	srcKey map[string]types.AttributeValue
}

// Verify scans both tables in parallel (strongly consistent reads) and
// compares the target with the transformed source, item by item. It
// keeps a digest of every item in memory (some 100 bytes an item, more
// with a new key design). Run it when the source's writes have stopped
// and the replication has caught up: a write in flight shows as a
// difference.
func Verify(ctx context.Context, c Client, opts VerifyOptions) (Report, error) {
	start := time.Now()
	var rep Report
	if opts.Source == "" || opts.Target == "" {
		return rep, errors.New("replicate: Source and Target are required")
	}
	if opts.Segments <= 0 {
		opts.Segments = 4
	}
	if opts.Examples <= 0 {
		opts.Examples = 10
	}
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(opts.Source)})
	if err != nil {
		return rep, err
	}
	m, err := newMapper(opts.Transform, keyNames(desc.Table.KeySchema))
	if err != nil {
		return rep, err
	}

	var mu sync.Mutex
	src, dst := map[string]entry{}, map[string][16]byte{}
	collided := map[string]bool{}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 2*opts.Segments)
	for _, table := range []string{opts.Source, opts.Target} {
		for seg := 0; seg < opts.Segments; seg++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := scanAll(ctx, c, table, seg, opts.Segments, func(items []map[string]types.AttributeValue) {
					mu.Lock()
					defer mu.Unlock()
					for _, it := range items {
						if table == opts.Target {
							rep.TargetItems++
							dst[m.keyString(projectKey(it, m.dstKeys))] = digest(it)
							continue
						}
						rep.SourceItems++
						t, ok := m.item(it)
						if !ok {
							rep.Skipped++
							continue
						}
						k, _ := m.key(it)
						ks := m.keyString(k)
						if _, dup := src[ks]; dup {
							collided[ks] = true
						}
						e := entry{sum: digest(t)}
						if m.t.redesign() {
							e.srcKey = projectKey(it, m.srcKeys)
						}
						src[ks] = e
					}
				})
				if err != nil {
					errs <- err
					cancel()
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return rep, err
	}

	var diffs []Difference
	example := func(kind, ks string) {
		if len(diffs) < opts.Examples {
			diffs = append(diffs, Difference{Kind: kind, Key: decodeKey(ks, m.dstKeys)})
		}
	}
	// Walk in key order, so the examples are the same from run to run.
	keys := make([]string, 0, len(src))
	for ks := range src {
		keys = append(keys, ks)
	}
	sort.Strings(keys)
	for _, ks := range keys {
		e := src[ks]
		switch sum, ok := dst[ks]; {
		case collided[ks]:
			rep.Collisions++
			example(Collision, ks)
		case !ok:
			rep.Missing++
			example(Missing, ks)
		case sum != e.sum:
			rep.Differing++
			example(Differs, ks)
		default:
			rep.Matching++
		}
	}
	var extra []string
	for ks := range dst {
		if _, ok := src[ks]; !ok {
			extra = append(extra, ks)
		}
	}
	sort.Strings(extra)
	for _, ks := range extra {
		rep.Extra++
		example(Extra, ks)
	}
	// Name the differing attributes of the examples, reading both items
	// again.
	for i := range diffs {
		d := &diffs[i]
		if d.Kind != Differs {
			continue
		}
		srcKey := src[m.keyString(d.Key)].srcKey
		if srcKey == nil {
			srcKey = d.Key
		}
		a, err := getItem(ctx, c, opts.Source, srcKey)
		if err != nil {
			return rep, err
		}
		b, err := getItem(ctx, c, opts.Target, d.Key)
		if err != nil {
			return rep, err
		}
		if a != nil {
			a, _ = m.item(a)
		}
		d.Attributes = diffAttributes(a, b)
	}
	rep.Examples = diffs
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// scanAll reads one segment of a table, strongly consistent, handing
// each page to f.
func scanAll(ctx context.Context, c Client, table string, seg, total int, f func([]map[string]types.AttributeValue)) error {
	in := &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)}
	if total > 1 {
		in.Segment, in.TotalSegments = aws.Int32(int32(seg)), aws.Int32(int32(total))
	}
	for {
		out, err := c.Scan(ctx, in)
		if err != nil {
			return err
		}
		f(out.Items)
		if out.LastEvaluatedKey == nil {
			return nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

func getItem(ctx context.Context, c Client, table string, key map[string]types.AttributeValue) (map[string]types.AttributeValue, error) {
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, err
	}
	return out.Item, nil
}

// digest is a 128-bit digest of an item's canonical encoding.
func digest(item map[string]types.AttributeValue) [16]byte {
	sum := sha256.Sum256(appendCanonicalItem(nil, item))
	return [16]byte(sum[:16])
}

func projectKey(item map[string]types.AttributeValue, names []string) map[string]types.AttributeValue {
	k := make(map[string]types.AttributeValue, len(names))
	for _, n := range names {
		k[n] = item[n]
	}
	return k
}

// decodeKey reverses keyString for key values (S, N, B).
func decodeKey(ks string, names []string) map[string]types.AttributeValue {
	k := make(map[string]types.AttributeValue, len(names))
	b := []byte(ks)
	for _, n := range names {
		if len(b) == 0 {
			break
		}
		tag := b[0]
		l, w := binary.Uvarint(b[1:])
		if w <= 0 || uint64(len(b)-1-w) < l {
			break
		}
		v := b[1+w : 1+w+int(l)]
		b = b[1+w+int(l):]
		switch tag {
		case 'S':
			k[n] = &types.AttributeValueMemberS{Value: string(v)}
		case 'N':
			k[n] = &types.AttributeValueMemberN{Value: string(v)}
		case 'B':
			k[n] = &types.AttributeValueMemberB{Value: append([]byte(nil), v...)}
		}
	}
	return k
}

// diffAttributes names the attributes whose values differ between a and
// b, or that only one has, sorted.
func diffAttributes(a, b map[string]types.AttributeValue) []string {
	var out []string
	for n, v := range a {
		if w, ok := b[n]; !ok || !equalValues(v, w) {
			out = append(out, n)
		}
	}
	for n := range b {
		if _, ok := a[n]; !ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
