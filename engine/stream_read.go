package engine

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// The read side of DynamoDB Streams: ListStreams, DescribeStream,
// GetShardIterator and GetRecords, and the trimmer that drops records
// after 24 hours.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Operations_Amazon_DynamoDB_Streams.html

const (
	maxGetRecordsLimit = 1000
	maxGetRecordsBytes = 1 << 20
	maxDescribeLimit   = 100
)

// ttlIdentity is the userIdentity of a record written by Time to Live.
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/time-to-live-ttl-streams.html
var ttlIdentity = dynamo.Identity{PrincipalId: "dynamodb.amazonaws.com", Type: "Service"}

func streamNotFound(arn string) *dynamo.Error { return dynamo.NotFound(msgStreamNotFound(arn)) }

// maxLimit checks a Limit against the most an operation returns. The
// model declares only the minimum, but DynamoDB refuses a larger Limit
// with a ValidationException (ScyllaDB Alternator's
// test_list_streams_too_high_limit, run against DynamoDB).
func (c *constraints) maxLimit(v *int32, max int32) {
	if v != nil {
		c.maxValue("limit", *v, max)
	}
}

// The member constraints of the Streams API's ARNs, shard ids and
// sequence numbers (its API reference).
func (c *constraints) streamArn(field, v string) { c.length(field, v, 37, 1024) }
func (c *constraints) shardID(field, v string)   { c.length(field, v, 28, 65) }
func (c *constraints) sequenceNumber(v string)   { c.length("sequenceNumber", v, 21, 40) }

// streamARN is a stream's ARN,
// arn:PARTITION:dynamodb:REGION:ACCOUNT:table/TABLE/stream/LABEL.
type streamARN struct{ table, label string }

// parseStreamARN parses a StreamArn; ok is false for anything but a
// stream's ARN, which DynamoDB refuses with msgInvalidStreamArn.
func parseStreamARN(s string) (a streamARN, ok bool) {
	f := strings.SplitN(s, ":", 6)
	if len(f) != 6 || f[0] != "arn" || f[1] == "" || f[2] != "dynamodb" || f[3] == "" || f[4] == "" {
		return a, false
	}
	rest, found := strings.CutPrefix(f[5], "table/")
	if !found {
		return a, false
	}
	table, label, found := strings.Cut(rest, "/stream/")
	if !found || len(table) < 3 || len(table) > 255 || !validTableChars(table) || label == "" || strings.Contains(label, "/") {
		return a, false
	}
	return streamARN{table: table, label: label}, true
}

// checkStreamARN refuses a StreamArn that is not a stream's ARN.
func checkStreamARN(s string) error {
	if _, ok := parseStreamARN(s); !ok {
		return dynamo.Validation(msgInvalidStreamArn)
	}
	return nil
}

func limitOr(v *int32, def int) int {
	if v == nil {
		return def
	}
	return int(*v)
}

// ListStreams lists the streams still readable, optionally of one table.
func (db *DB) ListStreams(in *dynamo.ListStreamsInput) (*dynamo.ListStreamsOutput, error) {
	return run(db, opListStreams, func() (*dynamo.ListStreamsOutput, error) { return db.listStreams(in) })
}

func (db *DB) listStreams(in *dynamo.ListStreamsInput) (*dynamo.ListStreamsOutput, error) {
	var c constraints
	if in.TableName != "" {
		c.tableName("tableName", in.TableName)
	}
	c.limit(in.Limit)
	c.maxLimit(in.Limit, maxDescribeLimit)
	if in.ExclusiveStartStreamArn != "" {
		c.streamArn("exclusiveStartStreamArn", in.ExclusiveStartStreamArn)
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	var startAfter streamARN
	if in.ExclusiveStartStreamArn != "" {
		var ok bool
		if startAfter, ok = parseStreamARN(in.ExclusiveStartStreamArn); !ok {
			return nil, dynamo.Validation(msgInvalidStreamArn)
		}
	}
	limit := limitOr(in.Limit, maxDescribeLimit)
	table := tableNameFromARN(in.TableName)
	t, err := db.lookup(table)
	if err != nil {
		return nil, err
	}
	streams, err := db.allStreams()
	if err != nil {
		return nil, err
	}
	if in.TableName != "" && t == nil {
		// A deleted table's streams stay listed while readable.
		found := false
		for _, s := range streams {
			found = found || s.meta.TableName == table
		}
		if !found {
			return nil, dynamo.NotFound(msgTableNotFound(table))
		}
	}
	out := &dynamo.ListStreamsOutput{Streams: []dynamo.StreamSummary{}}
	// A start ARN need not name a live stream: the list goes on after
	// where it would be, in the order of table name and label (no
	// recording of DynamoDB's answer; ListTables treats an
	// ExclusiveStartTableName so).
	started := in.ExclusiveStartStreamArn == ""
	for _, s := range streams {
		if in.TableName != "" && s.meta.TableName != table {
			continue
		}
		if !started {
			if s.meta.TableName < startAfter.table || (s.meta.TableName == startAfter.table && s.meta.Label <= startAfter.label) {
				continue
			}
			started = true
		}
		if len(out.Streams) == limit {
			out.LastEvaluatedStreamArn = out.Streams[limit-1].StreamArn
			break
		}
		out.Streams = append(out.Streams, dynamo.StreamSummary{StreamArn: s.meta.ARN, TableName: s.meta.TableName, StreamLabel: s.meta.Label})
	}
	return out, nil
}

// DescribeStream describes a stream and its shards, oldest first.
func (db *DB) DescribeStream(in *dynamo.DescribeStreamInput) (*dynamo.DescribeStreamOutput, error) {
	return run(db, opDescribeStream, func() (*dynamo.DescribeStreamOutput, error) { return db.describeStream(in) })
}

func (db *DB) describeStream(in *dynamo.DescribeStreamInput) (*dynamo.DescribeStreamOutput, error) {
	var c constraints
	c.streamArn("streamArn", in.StreamArn)
	c.limit(in.Limit)
	c.maxLimit(in.Limit, maxDescribeLimit)
	if in.ExclusiveStartShardId != "" {
		c.shardID("exclusiveStartShardId", in.ExclusiveStartShardId)
	}
	if f := in.ShardFilter; f != nil {
		c.enum("shardFilter.type", f.Type, "CHILD_SHARDS")
		if f.ShardId != "" {
			c.shardID("shardFilter.shardId", f.ShardId)
		}
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	if err := checkStreamARN(in.StreamArn); err != nil {
		return nil, err
	}
	if f := in.ShardFilter; f != nil && f.Type == "" {
		return nil, dynamo.Validation(msgShardFilterNoType)
	}
	if f := in.ShardFilter; f != nil && f.ShardId == "" {
		return nil, dynamo.Validation(msgShardFilterNoShardID)
	}
	s, err := db.lookupStream(in.StreamArn)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, streamNotFound(in.StreamArn)
	}
	limit := limitOr(in.Limit, maxDescribeLimit)
	if err := s.syncStream(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	meta := s.meta
	shards := append([]shardMeta(nil), s.shards...)
	s.mu.Unlock()

	d := dynamo.StreamDescription{
		StreamArn: meta.ARN, StreamLabel: meta.Label, StreamStatus: dynamo.StreamEnabled,
		StreamViewType: meta.ViewType, CreationRequestDateTime: meta.Created,
		TableName: meta.TableName, KeySchema: apiKeys(meta.KeySchema), Shards: []dynamo.Shard{},
	}
	if !meta.Disabled.IsZero() {
		d.StreamStatus = dynamo.StreamDisabled
	}
	started := in.ExclusiveStartShardId == ""
	for _, sh := range shards {
		if f := in.ShardFilter; f != nil && sh.Parent != f.ShardId {
			continue
		}
		if !started {
			started = sh.ID == in.ExclusiveStartShardId
			continue
		}
		if len(d.Shards) == limit {
			d.LastEvaluatedShardId = d.Shards[limit-1].ShardId
			break
		}
		out := dynamo.Shard{ShardId: sh.ID, ParentShardId: sh.Parent}
		out.SequenceNumberRange.StartingSequenceNumber = formatSeq(sh.Start)
		if sh.End != 0 {
			out.SequenceNumberRange.EndingSequenceNumber = formatSeq(sh.End)
		}
		d.Shards = append(d.Shards, out)
	}
	return &dynamo.DescribeStreamOutput{StreamDescription: d}, nil
}

// shardView is what a reader of one shard needs, read under the stream's
// lock: the shard, the highest settled sequence number, the trim horizon,
// and the view to read records in, which the caller closes. It fails
// with DynamoDB's error when no shard matches. On a shared store the
// settled number and the records come from one snapshot
// (engine/shared_streams.go).
func (s *stream) shardView(match func(shardMeta) bool) (sh shardMeta, visible, trimmed uint64, view storage.Reader, done func(), err error) {
	done = func() {}
	if err := s.syncStream(); err != nil {
		return sh, 0, 0, nil, done, err
	}
	view = s.db.store
	if s.db.shared {
		snap, v, err := s.db.node.settledView()
		if err != nil {
			return sh, 0, 0, nil, done, err
		}
		// The shards as the snapshot has them: a rollover committed
		// after the snapshot starts its child above v, while one
		// committed before is in it, so a shard read as open never
		// hands out records its closing later gives to its child.
		in := &stream{db: s.db, meta: s.meta}
		if err := s.db.loadStreamStateFrom(snap, in); err != nil {
			snap.Close()
			return sh, 0, 0, nil, done, err
		}
		i := slices.IndexFunc(in.shards, match)
		if i < 0 {
			snap.Close()
			return sh, 0, 0, nil, done, dynamo.NotFound(msgShardNotFound)
		}
		return in.shards[i], v, max(in.trimmed, s.trimmedNow()), snap, func() { snap.Close() }, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.shards, match)
	if i < 0 {
		done()
		return sh, 0, 0, nil, func() {}, dynamo.NotFound(msgShardNotFound)
	}
	if !s.db.shared {
		visible = s.visibleLocked()
	}
	return s.shards[i], visible, s.trimmed, view, done, nil
}

// GetShardIterator returns an iterator for reading a shard.
func (db *DB) GetShardIterator(in *dynamo.GetShardIteratorInput) (*dynamo.GetShardIteratorOutput, error) {
	return run(db, opGetShardIterator, func() (*dynamo.GetShardIteratorOutput, error) { return db.getShardIterator(in) })
}

func (db *DB) getShardIterator(in *dynamo.GetShardIteratorInput) (*dynamo.GetShardIteratorOutput, error) {
	var c constraints
	c.streamArn("streamArn", in.StreamArn)
	c.shardID("shardId", in.ShardId)
	c.enum("shardIteratorType", in.ShardIteratorType, dynamo.IteratorTrimHorizon, dynamo.IteratorLatest, dynamo.IteratorAtSequenceNumber, dynamo.IteratorAfterSequenceNumber, dynamo.IteratorAtTimestamp)
	if in.ShardIteratorType == "" {
		c.notNull("shardIteratorType")
	}
	if in.SequenceNumber != "" {
		c.sequenceNumber(in.SequenceNumber)
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	if err := checkStreamARN(in.StreamArn); err != nil {
		return nil, err
	}
	bySeq := in.ShardIteratorType == dynamo.IteratorAtSequenceNumber || in.ShardIteratorType == dynamo.IteratorAfterSequenceNumber
	if bySeq != (in.SequenceNumber != "") {
		return nil, dynamo.Validation(msgSequenceNumberUse(in.ShardIteratorType, in.SequenceNumber != ""))
	}
	s, err := db.lookupStream(in.StreamArn)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, streamNotFound(in.StreamArn)
	}
	now := db.now()
	sh, visible, trimmed, _, done, err := s.shardView(func(sh shardMeta) bool { return sh.ID == in.ShardId })
	if err != nil {
		return nil, err
	}
	done()
	var pos uint64
	switch in.ShardIteratorType {
	case dynamo.IteratorTrimHorizon:
		pos = max(sh.Start, trimmed)
	case dynamo.IteratorLatest:
		pos = visible + 1
		if sh.End != 0 {
			pos = sh.End + 1
		}
		pos = max(pos, sh.Start)
	case dynamo.IteratorAtSequenceNumber, dynamo.IteratorAfterSequenceNumber:
		seq, ok := parseSeq(in.SequenceNumber)
		if !ok || seq < sh.Start || (sh.End != 0 && seq > sh.End) {
			return nil, dynamo.Validation(msgInvalidSequenceNumber(sh.ID, in.SequenceNumber))
		}
		if seq < trimmed {
			return nil, dynamo.TrimmedDataAccess(msgTrimmed)
		}
		pos = seq
		if in.ShardIteratorType == dynamo.IteratorAfterSequenceNumber {
			pos = seq + 1
		}
	case dynamo.IteratorAtTimestamp:
		if in.Timestamp == nil {
			return nil, dynamo.Validation("Timestamp must be provided for AT_TIMESTAMP iterator type")
		}
		if in.Timestamp.After(now) {
			return nil, dynamo.Validation("The timestamp provided is in the future")
		}
		var err error
		if pos, err = db.seqAtTime(s, sh, max(sh.Start, trimmed), *in.Timestamp); err != nil {
			return nil, err
		}
	}
	return &dynamo.GetShardIteratorOutput{ShardIterator: encodeIterator(s.meta.ARN, s.meta.ID, sh.Index, pos, now)}, nil
}

// seqAtTime finds the first record of sh at or after ts, or the position
// after the last one.
func (db *DB) seqAtTime(s *stream, sh shardMeta, from uint64, ts time.Time) (uint64, error) {
	lower := streamRecordKey(s.meta.ID, from)
	var upper []byte
	if sh.End != 0 {
		upper = streamRecordKey(s.meta.ID, sh.End+1)
	} else {
		upper = keys.PrefixEnd(streamPrefix(s.meta.ID))
	}
	it, err := db.store.NewIter(lower, upper)
	if err != nil {
		return 0, err
	}
	defer it.Close()
	last := from
	for ok := it.First(); ok; ok = it.Next() {
		seq := binary.BigEndian.Uint64(it.Key()[9:])
		if at, ok := recordTime(it.Value()); ok && !at.Before(ts) {
			return seq, nil
		}
		last = seq + 1
	}
	return last, it.Error()
}

// A shard iterator is "<stream ARN>|1|<base64>", where the base64 part
// holds the stream id, the shard index, the next sequence number to read,
// the creation time and a check word. It carries everything a reader
// needs, so iterators survive a server restart, as on DynamoDB.
const iteratorSalt = "dynago shard iterator v1"

func iteratorCheck(b []byte) uint64 {
	return keys.Hash(append(append([]byte(nil), b...), iteratorSalt...))
}

func encodeIterator(arn string, streamID uint64, shard uint32, pos uint64, now time.Time) string {
	b := make([]byte, 0, 36)
	b = binary.BigEndian.AppendUint64(b, streamID)
	b = binary.BigEndian.AppendUint32(b, shard)
	b = binary.BigEndian.AppendUint64(b, pos)
	b = binary.BigEndian.AppendUint64(b, uint64(now.UnixMilli()))
	b = binary.BigEndian.AppendUint64(b, iteratorCheck(b))
	return arn + "|1|" + base64.StdEncoding.EncodeToString(b)
}

type iteratorPos struct {
	streamID uint64
	shard    uint32
	pos      uint64
	created  time.Time
}

func decodeIterator(it string) (iteratorPos, bool) {
	var p iteratorPos
	i := strings.LastIndex(it, "|1|")
	if i < 0 {
		return p, false
	}
	b, err := base64.StdEncoding.DecodeString(it[i+3:])
	if err != nil || len(b) != 36 || binary.BigEndian.Uint64(b[28:]) != iteratorCheck(b[:28]) {
		return p, false
	}
	p.streamID = binary.BigEndian.Uint64(b)
	p.shard = binary.BigEndian.Uint32(b[8:])
	p.pos = binary.BigEndian.Uint64(b[12:])
	p.created = time.UnixMilli(int64(binary.BigEndian.Uint64(b[20:])))
	return p, true
}

// javaTime spells a time as DynamoDB's Java-born messages do.
func javaTime(t time.Time) string { return t.UTC().Format("Mon Jan 02 15:04:05 MST 2006") }

// GetRecords reads the records of a shard from an iterator's position:
// up to Limit records and 1 MB. Records that are not yet settled (a lower
// sequence number still committing) are left for the next call.
func (db *DB) GetRecords(in *dynamo.GetRecordsInput) (*dynamo.GetRecordsOutput, error) {
	return run(db, opGetRecords, func() (*dynamo.GetRecordsOutput, error) { return db.getRecords(in) })
}

func (db *DB) getRecords(in *dynamo.GetRecordsInput) (*dynamo.GetRecordsOutput, error) {
	var c constraints
	c.length("shardIterator", in.ShardIterator, 1, 2048)
	c.limit(in.Limit)
	c.maxLimit(in.Limit, maxGetRecordsLimit)
	if err := c.err(); err != nil {
		return nil, err
	}
	p, ok := decodeIterator(in.ShardIterator)
	if !ok {
		return nil, dynamo.Validation(msgInvalidShardIterator)
	}
	now := db.now()
	if now.Sub(p.created) > iteratorLifetime {
		return nil, dynamo.ExpiredIterator(msgIteratorExpired(javaTime(p.created), javaTime(now), iteratorLifetime.Milliseconds()))
	}
	v, found := db.streams.Load(p.streamID)
	if !found && db.shared {
		if err := db.ensureStream(p.streamID); err != nil {
			return nil, err
		}
		v, found = db.streams.Load(p.streamID)
	}
	if !found {
		return nil, dynamo.NotFound(msgIteratorStreamGone)
	}
	s := v.(*stream)
	sh, visible, trimmed, view, done, err := s.shardView(func(sh shardMeta) bool { return sh.Index == p.shard })
	if err != nil {
		return nil, err
	}
	defer done()
	if p.pos < trimmed && p.pos >= sh.Start {
		return nil, dynamo.TrimmedDataAccess(msgTrimmed)
	}
	hi := visible // the last sequence number this call may read
	if sh.End != 0 {
		hi = min(hi, sh.End)
	}
	limit := limitOr(in.Limit, maxGetRecordsLimit)
	out := &dynamo.GetRecordsOutput{Records: []dynamo.Record{}}
	next := p.pos
	if p.pos <= hi {
		it, err := view.NewIter(streamRecordKey(s.meta.ID, p.pos), streamRecordKey(s.meta.ID, hi+1))
		if err != nil {
			return nil, err
		}
		defer it.Close()
		bytes := 0
		next = hi + 1
		for ok := it.First(); ok; ok = it.Next() {
			seq := binary.BigEndian.Uint64(it.Key()[9:])
			if len(out.Records) == limit {
				next = seq
				break
			}
			r, err := db.decodeStreamRecord(s, seq, it.Value())
			if err != nil {
				return nil, err
			}
			// A page holds at most 1 MB of records, and at least one.
			if len(out.Records) > 0 && bytes+int(r.Dynamodb.SizeBytes) > maxGetRecordsBytes {
				next = seq
				break
			}
			bytes += int(r.Dynamodb.SizeBytes)
			out.Records = append(out.Records, r)
		}
		if err := it.Error(); err != nil {
			return nil, err
		}
	}
	db.meters.streamRecordsRead.Add(uint64(len(out.Records)))
	if sh.End != 0 && next > sh.End {
		return out, nil // the shard is closed and read to its end
	}
	out.NextShardIterator = encodeIterator(s.meta.ARN, s.meta.ID, sh.Index, next, now)
	return out, nil
}

// decodeStreamRecord builds the API record of a stored one.
func (db *DB) decodeStreamRecord(s *stream, seq uint64, v []byte) (dynamo.Record, error) {
	sr, err := decodeRecord(v)
	if err != nil {
		return dynamo.Record{}, fmt.Errorf("stream %s record %d: %w", s.meta.ARN, seq, err)
	}
	r := dynamo.Record{
		EventID:      eventID(s.meta.ID, seq),
		EventVersion: "1.1",
		EventSource:  "aws:dynamodb",
		AwsRegion:    db.opts.Region,
		Dynamodb: dynamo.StreamRecord{
			ApproximateCreationDateTime: sr.at.Truncate(time.Second),
			SequenceNumber:              formatSeq(seq),
			SizeBytes:                   int64(sr.size),
			StreamViewType:              s.meta.ViewType,
		},
	}
	switch sr.kind {
	case recInsert:
		r.EventName = dynamo.EventInsert
	case recModify:
		r.EventName = dynamo.EventModify
	default:
		r.EventName = dynamo.EventRemove
	}
	if sr.w == byTTL {
		id := ttlIdentity
		r.UserIdentity = &id
	}
	if r.Dynamodb.Keys, err = attr.DecodeItem(sr.keys); err != nil {
		return dynamo.Record{}, err
	}
	if sr.old != nil {
		if r.Dynamodb.OldImage, err = attr.DecodeItem(sr.old); err != nil {
			return dynamo.Record{}, err
		}
	}
	if sr.new != nil {
		if r.Dynamodb.NewImage, err = attr.DecodeItem(sr.new); err != nil {
			return dynamo.Record{}, err
		}
	}
	return r, nil
}

// eventID is a record's id: 32 hex digits, derived from the stream and the
// sequence number so that reading a record twice shows the same id.
func eventID(streamID, seq uint64) string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:], streamID)
	binary.BigEndian.PutUint64(b[8:], seq)
	var out [16]byte
	binary.BigEndian.PutUint64(out[:], keys.Hash(b[:]))
	b[0] ^= 0xA5
	binary.BigEndian.PutUint64(out[8:], keys.Hash(b[:]))
	return hex.EncodeToString(out[:])
}

// trimStreams drops what is older than the 24-hour retention: records,
// closed shards, and streams disabled that long ago.
func (db *DB) trimStreams(now time.Time) error {
	cutoff := now.Add(-streamRetention)
	streams, err := db.allStreams()
	if err != nil {
		return err
	}
	for _, s := range streams {
		if err := s.rollIdle(now); err != nil {
			return fmt.Errorf("stream %s: %w", s.meta.ARN, err)
		}
		if err := db.trimStream(s, cutoff); err != nil {
			return fmt.Errorf("stream %s: %w", s.meta.ARN, err)
		}
	}
	return nil
}

func (db *DB) trimStream(s *stream, cutoff time.Time) error {
	s.mu.Lock()
	disabled := s.meta.Disabled
	visible, from := s.visibleLocked(), s.trimmed
	s.mu.Unlock()
	prefix := streamPrefix(s.meta.ID)

	if !disabled.IsZero() && disabled.Before(cutoff) {
		// The whole stream has expired.
		b := db.store.NewBatch()
		defer b.Close()
		if err := b.DeleteRange(prefix, keys.PrefixEnd(prefix)); err != nil {
			return err
		}
		lower := binary.BigEndian.AppendUint64([]byte{keys.NSMeta, metaTagShard}, s.meta.ID)
		if err := b.DeleteRange(lower, keys.PrefixEnd(lower)); err != nil {
			return err
		}
		if err := b.Delete(metaStreamKey(s.meta.ID)); err != nil {
			return err
		}
		if db.shared {
			pp := metaStreamPosPrefix(s.meta.ID)
			if err := b.DeleteRange(pp, keys.PrefixEnd(pp)); err != nil {
				return err
			}
		}
		for _, tag := range []byte{metaTagReserved, metaTagTrimmed} {
			if err := b.Delete(metaStreamNumberKey(tag, s.meta.ID)); err != nil {
				return err
			}
		}
		if err := b.Commit(); err != nil {
			return err
		}
		db.streams.Delete(s.meta.ID)
		db.log.Info("stream expired", "stream", s.meta.ARN)
		return nil
	}

	// Find the first record to keep: records are in commit-time order
	// within a stream, up to clock steps, which only delay trimming.
	keep := from
	if visible >= from {
		it, err := db.store.NewIter(streamRecordKey(s.meta.ID, from), streamRecordKey(s.meta.ID, visible+1))
		if err != nil {
			return err
		}
		keep = visible + 1
		for ok := it.First(); ok; ok = it.Next() {
			at, ok := recordTime(it.Value())
			if ok && !at.Before(cutoff) {
				keep = binary.BigEndian.Uint64(it.Key()[9:])
				break
			}
		}
		err = it.Error()
		it.Close()
		if err != nil {
			return err
		}
	}
	b := db.store.NewBatch()
	defer b.Close()
	if keep > from {
		if err := b.DeleteRange(streamRecordKey(s.meta.ID, from), streamRecordKey(s.meta.ID, keep)); err != nil {
			return err
		}
		// The horizon is kept, so a restart knows which numbers are
		// trimmed and which never had a record.
		if err := b.Set(metaStreamNumberKey(metaTagTrimmed, s.meta.ID), binary.BigEndian.AppendUint64(nil, keep)); err != nil {
			return err
		}
	}
	// Closed shards go once they have been closed for the retention
	// period: all their records are older than that by then.
	s.mu.Lock()
	var gone int
	for _, sh := range s.shards[:len(s.shards)-1] {
		if sh.Closed.IsZero() || !sh.Closed.Before(cutoff) {
			break
		}
		if err := b.Delete(metaShardKey(s.meta.ID, sh.Index)); err != nil {
			s.mu.Unlock()
			return err
		}
		gone++
	}
	s.mu.Unlock()
	if b.Empty() {
		return nil
	}
	if err := b.Commit(); err != nil {
		return err
	}
	s.mu.Lock()
	s.trimmed = max(s.trimmed, keep)
	s.shards = s.shards[gone:]
	s.mu.Unlock()
	return nil
}
