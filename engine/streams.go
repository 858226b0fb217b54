package engine

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// DynamoDB Streams.
//
// Each time a table's stream is enabled it gets a new stream: a new id,
// label and ARN. A stream is a line of shards, each the parent of the
// next; a shard is a range of sequence numbers. Every change to an item
// of a table whose stream is enabled puts one record, under the next
// sequence number, in the same storage batch as the change itself
// (stageStreamRecord), so a record exists if and only if its change
// committed.
//
// Storage:
//
//	NSStream | streamID (8) | seq (8)       -> record (encodeRecord)
//	NSMeta 'm' | streamID (8)               -> JSON streamMeta
//	NSMeta 'h' | streamID (8) | index (4)   -> JSON shardMeta
//	NSMeta 'w'                              -> counter: last stream id
//	NSMeta 'n' | streamID (8)               -> 8 bytes: numbers below are reserved
//	NSMeta 'r' | streamID (8)               -> 8 bytes: numbers below are trimmed
//
// Sequence numbers are handed out under the stream's mutex while the
// writer holds its item's lock, so one item's records are in the order of
// its changes. Batches commit in any order, though, so a reader must not
// see sequence number n before every number below n has committed or
// been abandoned: a stream tracks the numbers handed out but not yet
// released (pending), and readers see only below the smallest of them.
// No writer waits on another for this.
//
// A number is never handed out twice, across restarts too: numbers are
// reserved durably in blocks (seqBlock) before they are used, and a
// reopened stream starts above every reservation. The tags are in
// engine/keytags.go.

// seqBlock is how many sequence numbers one durable reservation covers.
const seqBlock = 1024

// Stream limits. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Streams.html
const (
	// streamRetention is how long records, closed shards and disabled
	// streams stay readable.
	streamRetention = 24 * time.Hour
	// iteratorLifetime is how long a shard iterator stays valid.
	iteratorLifetime = 15 * time.Minute
	// streamTrimInterval is how often the trimmer looks for old records.
	streamTrimInterval = time.Minute
)

func metaStreamKey(id uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{keys.NSMeta, metaTagStream}, id)
}

func metaShardKey(id uint64, index uint32) []byte {
	k := binary.BigEndian.AppendUint64([]byte{keys.NSMeta, metaTagShard}, id)
	return binary.BigEndian.AppendUint32(k, index)
}

func metaStreamSeqKey() []byte { return []byte{keys.NSMeta, metaTagStreamSeq} }

func metaStreamNumberKey(tag byte, id uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{keys.NSMeta, tag}, id)
}

func streamPrefix(id uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{keys.NSStream}, id)
}

func streamRecordKey(id, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(streamPrefix(id), seq)
}

// streamMeta is a stream's definition as stored.
type streamMeta struct {
	ID        uint64    `json:"id"`
	TableName string    `json:"tableName"`
	TableID   uint64    `json:"tableID"`
	Label     string    `json:"label"`
	ARN       string    `json:"arn"`
	ViewType  string    `json:"viewType"`
	KeySchema []catKey  `json:"keySchema"`
	HashName  string    `json:"hashName"`
	RangeName string    `json:"rangeName,omitempty"`
	Created   time.Time `json:"created"`
	// Disabled is when the stream was turned off (or its table deleted);
	// zero while it is enabled.
	Disabled time.Time `json:"disabled,omitzero"`
}

// shardMeta is a shard as stored. End is 0 while the shard is open;
// sequence numbers start at 1, so a closed shard's End is at least Start.
type shardMeta struct {
	Index   uint32    `json:"index"`
	ID      string    `json:"id"`
	Parent  string    `json:"parent,omitempty"`
	Start   uint64    `json:"start"`
	End     uint64    `json:"end,omitempty"`
	Created time.Time `json:"created"`
	Closed  time.Time `json:"closed,omitzero"`
}

// stream is a stream's live state.
type stream struct {
	db *DB

	mu sync.Mutex
	// meta is fixed at creation but for Disabled, which is guarded by mu.
	meta     streamMeta
	shards   []shardMeta // oldest first; the last is open while enabled
	next     uint64      // the next sequence number to hand out
	reserved uint64      // numbers below this are durably reserved
	pending  []uint64    // handed out and not yet released, ascending
	trimmed  uint64      // the records below this sequence number are gone

	// stale makes the next use on a shared store read the definition
	// and shards again: this node or another may have rolled the stream
	// over or disabled it (engine/shared_streams.go).
	stale bool
}

// streamTicket is a sequence number a write batch holds until release.
type streamTicket struct {
	s   *stream
	seq uint64
}

// visibleLocked is the highest sequence number below which every number
// is settled: committed or abandoned.
func (s *stream) visibleLocked() uint64 {
	if s.db.shared {
		return s.db.node.visible()
	}
	if len(s.pending) > 0 {
		return s.pending[0] - 1
	}
	return s.next - 1
}

// allocate hands out the next sequence number, rolling the open shard
// over when it is old enough. ok is false when the stream is disabled: a
// change that commits after that has no record.
func (s *stream) allocate(b *writeBatch, now time.Time, row []byte) (seq uint64, ok bool, err error) {
	if s.db.shared {
		return s.allocateShared(b, now, row)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.meta.Disabled.IsZero() {
		return 0, false, nil
	}
	cur := &s.shards[len(s.shards)-1]
	if now.Sub(cur.Created) >= s.db.shardDuration() && s.next > cur.Start {
		if err := s.rollLocked(now); err != nil {
			return 0, false, err
		}
	}
	if s.next >= s.reserved {
		b := s.db.store.NewBatch()
		defer b.Close()
		r, err := s.reserveIn(b, s.next)
		if err != nil {
			return 0, false, err
		}
		if err := b.Commit(); err != nil {
			return 0, false, err
		}
		s.reserved = r
	}
	seq = s.next
	s.next++
	s.pending = append(s.pending, seq)
	return seq, true, nil
}

// release settles seq: its batch committed or was abandoned.
func (s *stream) release(seq uint64) {
	if s.db.shared {
		s.db.node.settle(seq)
		return
	}
	s.mu.Lock()
	if i, found := slices.BinarySearch(s.pending, seq); found {
		s.pending = slices.Delete(s.pending, i, i+1)
	}
	s.mu.Unlock()
}

// reserveIn stages in b a reservation covering number n, if the current
// one does not, and returns the reservation to apply once b commits.
func (s *stream) reserveIn(b storage.Batch, n uint64) (uint64, error) {
	if n < s.reserved {
		return s.reserved, nil
	}
	r := n + seqBlock
	return r, b.Set(metaStreamNumberKey(metaTagReserved, s.meta.ID), binary.BigEndian.AppendUint64(nil, r))
}

// closingLocked returns the open shard as closed at the last number
// handed out, and the next number after it. An empty shard takes one
// number, so its range is never empty. The caller applies both once the
// closed shard is stored.
func (s *stream) closingLocked(now time.Time) (closed shardMeta, next uint64) {
	closed, next = s.shards[len(s.shards)-1], s.next
	if next == closed.Start {
		next++
	}
	closed.End, closed.Closed = next-1, now
	return closed, next
}

// rollLocked closes the open shard and opens its child, durably, before
// any record goes to the child.
func (s *stream) rollLocked(now time.Time) error {
	b := s.db.store.NewBatch()
	defer b.Close()
	prev, next := s.closingLocked(now)
	child := s.db.newShard(s.meta.ID, prev.Index+1, prev.ID, next, now)
	if err := putJSON(b, metaShardKey(s.meta.ID, prev.Index), prev); err != nil {
		return err
	}
	if err := putJSON(b, metaShardKey(s.meta.ID, child.Index), child); err != nil {
		return err
	}
	reserved, err := s.reserveIn(b, next)
	if err != nil {
		return err
	}
	if err := b.Commit(); err != nil {
		return err
	}
	s.shards[len(s.shards)-1] = prev
	s.shards = append(s.shards, child)
	s.next, s.reserved = next, reserved
	s.db.log.Debug("stream shard rolled over", "stream", s.meta.ARN, "shard", child.ID, "start", child.Start)
	return nil
}

func (db *DB) shardDuration() time.Duration { return db.opts.StreamShardDuration }

// newShard names a shard the way DynamoDB does: "shardId-", 20 digits and
// 8 hex digits.
func (db *DB) newShard(streamID uint64, index uint32, parent string, start uint64, now time.Time) shardMeta {
	var b [12]byte
	binary.BigEndian.PutUint64(b[:], streamID)
	binary.BigEndian.PutUint32(b[8:], index)
	id := fmt.Sprintf("shardId-%020d-%08x", now.UnixMilli(), uint32(keys.Hash(b[:])))
	return shardMeta{Index: index, ID: id, Parent: parent, Start: start, Created: now}
}

func putJSON(b storage.Batch, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Set(key, raw)
}

// formatSeq spells a sequence number as DynamoDB does: 21 digits or more.
func formatSeq(seq uint64) string { return fmt.Sprintf("1%020d", seq) }

// parseSeq reads a sequence number written by formatSeq.
func parseSeq(s string) (uint64, bool) {
	if len(s) != 21 || s[0] != '1' {
		return 0, false
	}
	var n uint64
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if n > (^uint64(0)-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// streamOf returns the live stream that t's changes go to, or nil.
func (db *DB) streamOf(t *table) *stream {
	if t.meta.StreamID == 0 {
		return nil
	}
	v, ok := db.streams.Load(t.meta.StreamID)
	if !ok {
		return nil
	}
	return v.(*stream)
}

// stageStreamRecord adds to b the stream record of replacing old by the
// item whose encoding is newBody and size newSize (nil: a delete), when
// t's stream is on.
// A change that leaves the item as it was has no record, as DynamoDB
// documents: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Streams.html
func (db *DB) stageStreamRecord(b *writeBatch, t *table, k itemKey, old *storedItem, newBody []byte, newSize int, w writer) error {
	if t.meta.StreamID != 0 && db.shared {
		// Another node may have enabled it: load it, or fail the write
		// rather than commit it without its record.
		if err := db.ensureStream(t.meta.StreamID); err != nil {
			return err
		}
	}
	s := db.streamOf(t)
	if s == nil {
		return nil
	}
	var event byte
	switch {
	case !old.found && newBody == nil:
		return nil
	case !old.found:
		event = recInsert
	case newBody == nil:
		event = recRemove
	default:
		if string(old.body) == string(newBody) {
			return nil
		}
		event = recModify
	}
	now := db.now()
	db.stageReplicated(b, t, k, w)
	seq, ok, err := s.allocate(b, now, k.row)
	if err != nil || !ok {
		return err
	}
	b.tickets = append(b.tickets, streamTicket{s: s, seq: seq})

	view := s.meta.ViewType // fixed for the stream's life
	var oldBody, nb []byte
	size := attr.AttributeSize(t.hashName, k.pk)
	if t.rangeName != "" {
		size += attr.AttributeSize(t.rangeName, k.sk)
	}
	if view == dynamo.ViewOldImage || view == dynamo.ViewNewAndOldImages {
		if old.found {
			oldBody = old.body
			size += old.size
		}
	}
	if view == dynamo.ViewNewImage || view == dynamo.ViewNewAndOldImages {
		if newBody != nil {
			nb = newBody
			size += newSize
		}
	}
	// Insert, not Set: on a shared store two nodes whose clocks read the
	// same instant can take the same number; the second commit then
	// conflicts and runs again with a later number, where a Set would
	// replace the first node's record, acknowledged already.
	return b.Insert(streamRecordKey(s.meta.ID, seq), encodeRecord(event, w, now, size, oldBody, nb, t, k))
}

// Record kinds, as stored.
const (
	recInsert byte = 1
	recModify byte = 2
	recRemove byte = 3
)

const recordFormat = 1

// encodeRecord lays the record of a change to the item at k out as
//
//	format | kind | writer | uvarint(unix ms) | uvarint(size) |
//	uvarint(len) old image | uvarint(len) new image | keys
//
// where each part is an attr item encoding, a length of 0 means absent,
// and the keys (attr.AppendKey) take the rest. Do not change: written to
// disk.
func encodeRecord(kind byte, w writer, at time.Time, size int, oldBody, newBody []byte, t *table, k itemKey) []byte {
	out := make([]byte, 0, 32+len(oldBody)+len(newBody)+len(k.row))
	out = append(out, recordFormat, kind, byte(w))
	out = binary.AppendUvarint(out, uint64(at.UnixMilli()))
	out = binary.AppendUvarint(out, uint64(size))
	out = binary.AppendUvarint(out, uint64(len(oldBody)))
	out = append(out, oldBody...)
	out = binary.AppendUvarint(out, uint64(len(newBody)))
	out = append(out, newBody...)
	return attr.AppendKey(out, t.hashName, k.pk, t.rangeName, k.sk)
}

var errCorruptRecord = errors.New("corrupt stream record")

// storedRecord is a decoded record value.
type storedRecord struct {
	kind     byte
	w        writer
	at       time.Time
	size     int
	keys     []byte
	old, new []byte
}

func decodeRecord(v []byte) (storedRecord, error) {
	var r storedRecord
	bad := errCorruptRecord
	if len(v) < 3 || v[0] != recordFormat {
		return r, bad
	}
	r.kind, r.w = v[1], writer(v[2])
	v = v[3:]
	ms, n := binary.Uvarint(v)
	if n <= 0 {
		return r, bad
	}
	r.at = time.UnixMilli(int64(ms)).UTC()
	v = v[n:]
	size, n := binary.Uvarint(v)
	if n <= 0 {
		return r, bad
	}
	r.size = int(size)
	v = v[n:]
	for _, p := range [2]*[]byte{&r.old, &r.new} {
		l, n := binary.Uvarint(v)
		if n <= 0 || uint64(len(v)-n) < l {
			return r, bad
		}
		if l > 0 {
			*p = v[n : n+int(l)]
		}
		v = v[n+int(l):]
	}
	if len(v) == 0 {
		return r, bad
	}
	r.keys = v
	return r, nil
}

// recordTime reads only a record's time, for the trimmer.
func recordTime(v []byte) (time.Time, bool) {
	if len(v) < 4 || v[0] != recordFormat {
		return time.Time{}, false
	}
	ms, n := binary.Uvarint(v[3:])
	if n <= 0 {
		return time.Time{}, false
	}
	return time.UnixMilli(int64(ms)), true
}

// newStreamLocked creates the stream of a table whose stream is being
// enabled (m.Stream set) and stages its definition and first shard in b.
// It sets m.StreamID and m.StreamLabel. The caller holds db.ddl and calls
// installStream after b commits.
func (db *DB) newStreamLocked(b storage.Batch, m *tableMeta, now time.Time) (*stream, error) {
	id, err := db.nextNumber(b, metaStreamSeqKey())
	if err != nil {
		return nil, err
	}
	label := streamLabel(now)
	if label <= m.StreamLabel { // a label names one stream of the table
		prev, err := time.Parse(streamLabelLayout, m.StreamLabel)
		if err == nil {
			label = streamLabel(prev.Add(time.Millisecond))
		}
	}
	m.StreamID, m.StreamLabel = id, label
	sm := streamMeta{
		ID: id, TableName: m.Name, TableID: m.ID, Label: label,
		ARN:      fmt.Sprintf("arn:aws:dynamodb:%s:%s:table/%s/stream/%s", db.opts.Region, db.opts.AccountID, m.Name, label),
		ViewType: m.Stream.StreamViewType, KeySchema: m.KeySchema, Created: now,
	}
	for _, k := range m.KeySchema {
		if k.KeyType == dynamo.KeyTypeHash {
			sm.HashName = k.AttributeName
		} else {
			sm.RangeName = k.AttributeName
		}
	}
	first := db.newShard(id, 0, "", 1, now)
	if err := putJSON(b, metaStreamKey(id), sm); err != nil {
		return nil, err
	}
	if err := putJSON(b, metaShardKey(id, 0), first); err != nil {
		return nil, err
	}
	return &stream{db: db, meta: sm, shards: []shardMeta{first}, next: 1, reserved: 1, trimmed: 1}, nil
}

// installStream makes a committed new stream live.
func (db *DB) installStream(s *stream) {
	db.streams.Store(s.meta.ID, s)
	db.log.Info("stream enabled", "table", s.meta.TableName, "stream", s.meta.ARN, "view", s.meta.ViewType)
}

// disableStream stages in b turning stream id off: later changes have no
// record, its open shard closes, and it stays readable for 24 hours. The
// stream stays locked, so no change can take a number, until the caller
// has committed b (the catalog change that stops naming the stream goes
// in the same batch) and called finish with whether it committed. The
// caller holds db.ddl.
func (db *DB) disableStream(b storage.Batch, id uint64, now time.Time) (finish func(committed bool), err error) {
	noop := func(bool) {}
	if db.shared {
		if err := db.ensureStream(id); err != nil {
			return noop, err
		}
	}
	v, ok := db.streams.Load(id)
	if !ok {
		return noop, nil
	}
	s := v.(*stream)
	s.mu.Lock()
	if err := s.syncLocked(); err != nil {
		s.mu.Unlock()
		return noop, err
	}
	if !s.meta.Disabled.IsZero() {
		s.mu.Unlock()
		return noop, nil
	}
	if db.shared {
		return s.disableSharedLocked(b, now)
	}
	meta := s.meta
	meta.Disabled = now
	shard, next := s.closingLocked(now)
	reserved, err := s.reserveIn(b, next)
	if err == nil {
		err = putJSON(b, metaStreamKey(id), meta)
	}
	if err == nil {
		err = putJSON(b, metaShardKey(id, shard.Index), shard)
	}
	if err != nil {
		s.mu.Unlock()
		return noop, err
	}
	return func(committed bool) {
		if committed {
			// Only Disabled changes after creation, and it is read
			// under s.mu; the other fields are read without the lock.
			s.meta.Disabled = now
			s.shards[len(s.shards)-1] = shard
			s.next, s.reserved = next, reserved
			db.log.Info("stream disabled", "stream", s.meta.ARN)
		}
		s.mu.Unlock()
	}, nil
}

// rollIdle rolls s over if its open shard is due, even when no record was
// written to it since: DynamoDB closes shards on its schedule whether or
// not the table is written. The trimmer calls it.
func (s *stream) rollIdle(now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.syncLocked(); err != nil {
		return err
	}
	if !s.meta.Disabled.IsZero() || now.Sub(s.shards[len(s.shards)-1].Created) < s.db.shardDuration() {
		return nil
	}
	if s.db.shared {
		return s.rollSharedLocked(now)
	}
	return s.rollLocked(now)
}

// loadStreams reads every stream and its shards at Open.
func (db *DB) loadStreams() error {
	lower := []byte{keys.NSMeta, metaTagStream}
	it, err := db.store.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return err
	}
	var all []*stream
	for ok := it.First(); ok; ok = it.Next() {
		s := &stream{db: db}
		if err := json.Unmarshal(it.Value(), &s.meta); err != nil {
			it.Close()
			return fmt.Errorf("decode stream: %w", err)
		}
		all = append(all, s)
	}
	if err := it.Close(); err != nil {
		return err
	}
	for _, s := range all {
		if err := db.loadStreamState(s); err != nil {
			return fmt.Errorf("stream %s: %w", s.meta.ARN, err)
		}
		db.streams.Store(s.meta.ID, s)
	}
	return nil
}

func (db *DB) loadStreamState(s *stream) error { return db.loadStreamStateFrom(db.store, s) }

// loadStreamStateFrom is loadStreamState reading r, the store or a
// snapshot of it.
func (db *DB) loadStreamStateFrom(r storage.Reader, s *stream) error {
	lower := binary.BigEndian.AppendUint64([]byte{keys.NSMeta, metaTagShard}, s.meta.ID)
	it, err := r.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return err
	}
	for ok := it.First(); ok; ok = it.Next() {
		var sh shardMeta
		if err := json.Unmarshal(it.Value(), &sh); err != nil {
			it.Close()
			return fmt.Errorf("decode shard: %w", err)
		}
		s.shards = append(s.shards, sh)
	}
	if err := it.Close(); err != nil {
		return err
	}
	if len(s.shards) == 0 {
		return fmt.Errorf("no shards")
	}
	last := s.shards[len(s.shards)-1]
	s.next = max(last.Start, last.End+1)
	s.trimmed = s.shards[0].Start
	for tag, dst := range map[byte]*uint64{metaTagReserved: &s.reserved, metaTagTrimmed: &s.trimmed} {
		v, found, err := r.Get(metaStreamNumberKey(tag, s.meta.ID), nil)
		if err != nil {
			return err
		}
		if found && len(v) == 8 {
			*dst = max(*dst, binary.BigEndian.Uint64(v))
		}
	}
	if db.shared {
		return nil // numbers come from the nodes' clocks, not from here
	}
	p := streamPrefix(s.meta.ID)
	rit, err := db.store.NewIter(p, keys.PrefixEnd(p))
	if err != nil {
		return err
	}
	defer rit.Close()
	if rit.Last() {
		s.next = max(s.next, binary.BigEndian.Uint64(rit.Key()[9:])+1)
	}
	// Numbers up to the last reservation may have been handed out (and
	// seen by readers as settled) before the restart: start above them.
	s.next = max(s.next, s.reserved)
	s.reserved = s.next
	return rit.Error()
}

// lookupStream finds a live stream by ARN, or nil. On a shared store a
// stream this node does not know is read from the store (another node
// enabled it); an error reading it is returned, not taken for no such
// stream.
func (db *DB) lookupStream(arn string) (*stream, error) {
	if s := db.knownStream(arn); s != nil {
		return s, nil
	}
	if err := db.loadAllStreams(); err != nil {
		return nil, fmt.Errorf("load streams: %w", err)
	}
	return db.knownStream(arn), nil
}

// knownStream finds a stream this node has loaded by ARN, or nil.
func (db *DB) knownStream(arn string) *stream {
	var found *stream
	db.streams.Range(func(_, v any) bool {
		s := v.(*stream)
		if s.meta.ARN == arn {
			found = s
			return false
		}
		return true
	})
	return found
}

// allStreams returns the live streams ordered by table name, then age.
// On a shared store it reads the streams other nodes enabled first; an
// error reading them is returned, not taken for no such stream.
func (db *DB) allStreams() ([]*stream, error) {
	if err := db.loadAllStreams(); err != nil {
		return nil, fmt.Errorf("load streams: %w", err)
	}
	var out []*stream
	db.streams.Range(func(_, v any) bool {
		out = append(out, v.(*stream))
		return true
	})
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].meta, out[j].meta
		if a.TableName != b.TableName {
			return a.TableName < b.TableName
		}
		return a.ID < b.ID
	})
	return out, nil
}
