package engine

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// Streams on a shared store.
//
// Several nodes write records of one stream at once, so no node can hand
// out numbers from memory, and taking them from one row would make every
// write to the table a write to that row. Instead:
//
//   - Numbers are hybrid clock readings. Each node reads its numbers from
//     its own clock (microseconds, times 16 for room), never going back,
//     and never below what it has seen of other nodes' clocks. A record's
//     number is also above the number of the item's previous record, kept
//     in a row of its own per item (expected and rewritten by the write),
//     so each item's records are in order whichever nodes wrote them.
//   - Each node publishes in its heartbeat row a watermark: every number
//     it will ever still commit is above it (it is below the smallest
//     number its writes in flight hold, or its clock when none are). A
//     reader sees only records at or below the smallest watermark of the
//     live nodes, so no record can commit behind a reader's position.
//   - A node presumed dead (its heartbeat unchanged for the lease timeout)
//     is fenced: a row says so, and every batch with a stream record
//     expects its node's fence row absent, so a fenced node commits no
//     record after readers stop waiting for it. A fenced node that was
//     only paused notices the fence and joins again under a new id.
//   - Shards are ranges of numbers as before. A rollover closes the open
//     shard below a number from the rolling node's clock; a record
//     numbered below it by a node whose clock is behind still lands in the
//     closed shard, which readers finish only once the watermark has
//     passed its end. Disabling a stream leaves its shard open in the
//     catalog change, and closes it after the commit at the stream's last
//     record: no record can commit after the catalog change.

// heartbeatEvery is how often a node on a shared store publishes its
// heartbeat and watermark: records become readable within about this.
const heartbeatEvery = 100 * time.Millisecond

// Meta rows of streams on a shared store:
//
//	NSMeta 'F' node id -> empty: the node is fenced
//	NSMeta 'P' streamID(8) row key -> seq(8): the item's last record
//
// The tags are in engine/keytags.go.

func metaFenceKey(id string) []byte { return append([]byte{keys.NSMeta, metaTagFence}, id...) }

func metaStreamPosPrefix(streamID uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{keys.NSMeta, metaTagStreamPos}, streamID)
}

func metaStreamPosKey(streamID uint64, row []byte) []byte {
	return append(metaStreamPosPrefix(streamID), row...)
}

// clockSeq is the node's clock as a sequence number.
func clockSeq() uint64 { return uint64(time.Now().UnixMicro()) << 4 }

// ident returns the node's current id (it changes when the node joins
// again after being fenced).
func (n *node) ident() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.id
}

// nextSeq hands out a number above the node's last and above floor, and
// holds it as in flight until settle.
func (n *node) nextSeq(floor uint64) uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	s := max(clockSeq(), n.last+1, floor+1)
	n.last = s
	n.inflight = append(n.inflight, s)
	return s
}

// boundary returns a number above every number the node has handed out,
// without holding it: where a rollover starts the child shard.
func (n *node) boundary() uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.last = max(clockSeq(), n.last+1)
	return n.last
}

// settle ends seq's flight: its batch committed or was abandoned.
func (n *node) settle(seq uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if i := slices.Index(n.inflight, seq); i >= 0 {
		n.inflight = slices.Delete(n.inflight, i, i+1)
	}
}

// watermark is the number at or below which this node will never again
// commit a record.
func (n *node) watermark() uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.inflight) > 0 {
		return slices.Min(n.inflight) - 1
	}
	n.last = max(n.last, clockSeq())
	return n.last
}

// observe raises the node's clock to a number another node published.
func (n *node) observe(seq uint64) {
	n.mu.Lock()
	n.last = max(n.last, seq)
	n.mu.Unlock()
}

// nodeRow is a heartbeat row: beat(8) | watermark(8).
type nodeRow struct {
	id        string
	raw       []byte
	watermark uint64
}

// readNodes reads every heartbeat row and the fenced node ids in r.
func readNodes(r storage.Reader) ([]nodeRow, map[string]bool, error) {
	lower := []byte{keys.NSMeta, metaTagNode}
	it, err := r.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return nil, nil, err
	}
	var rows []nodeRow
	for ok := it.First(); ok; ok = it.Next() {
		r := nodeRow{id: string(it.Key()[2:]), raw: bytes.Clone(it.Value())}
		if len(r.raw) == 16 {
			r.watermark = binary.BigEndian.Uint64(r.raw[8:])
		}
		rows = append(rows, r)
	}
	if err := it.Close(); err != nil {
		return nil, nil, err
	}
	lower = []byte{keys.NSMeta, metaTagFence}
	it, err = r.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return nil, nil, err
	}
	fenced := map[string]bool{}
	for ok := it.First(); ok; ok = it.Next() {
		fenced[string(it.Key()[2:])] = true
	}
	return rows, fenced, it.Close()
}

// join registers the node on the store before it hands out any number.
// It publishes its heartbeat first and learns the others' watermarks
// after: a reader that computed visibility without this node did so from
// watermarks this node then observes, so its numbers start above what
// that reader showed. It publishes again with its raised clock.
func (n *node) join() error {
	if err := n.observeAll(); err != nil {
		return err
	}
	if err := n.beat(); err != nil {
		return err
	}
	if err := n.observeAll(); err != nil {
		return err
	}
	return n.beat()
}

// observeAll raises the node's clock to every live node's watermark.
func (n *node) observeAll() error {
	rows, fenced, err := readNodes(n.db.store)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if !fenced[r.id] {
			n.observe(r.watermark)
		}
	}
	return nil
}

// heartbeat publishes this node's heartbeat and watermark and keeps its
// clock up with the others'; a node another has fenced joins again under
// a new id, holding off new numbers until it has.
func (n *node) heartbeat() error {
	_, fenced, err := n.db.store.Get(metaFenceKey(n.ident()), nil)
	if err != nil {
		return err
	}
	if fenced {
		n.ready.Lock()
		defer n.ready.Unlock()
		n.mu.Lock()
		old := n.id
		n.id = newNodeID()
		n.seen = map[string]heartbeat{}
		n.mu.Unlock()
		n.db.log.Warn("node was presumed dead by another and fenced; joining again", "old", old, "node", n.ident())
		return n.join()
	}
	if err := n.beat(); err != nil {
		return err
	}
	return n.observeAll()
}

// beat writes the heartbeat row: a counter and the watermark.
func (n *node) beat() error {
	n.mu.Lock()
	n.beats++
	count, id := n.beats, n.id
	n.mu.Unlock()
	v := binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, count), n.watermark())
	b := n.db.store.NewBatch()
	defer b.Close()
	if err := b.Set(metaNodeKey(id), v); err != nil {
		return err
	}
	return b.Commit()
}

// settledView returns a snapshot and the highest number at or below
// which every record of every stream is settled in it: the smallest
// watermark of the live nodes. Nodes presumed dead are fenced first, and
// the watermarks are read in a serializable snapshot taken after that, so
// a write of a fenced node that had checked its fence before the fence
// committed either is in the snapshot or can never commit (PostgreSQL
// makes a deferrable snapshot wait out such writes). The caller reads the
// records in the snapshot and closes it.
func (n *node) settledView() (storage.Snapshot, uint64, error) {
	if err := n.fenceDead(); err != nil {
		return nil, 0, err
	}
	// This node's own watermark is taken before the snapshot, so that
	// every record at or below it has committed before the snapshot
	// begins and is in it. (Taken after, it could cover a write that
	// committed after the snapshot, which the reader would then skip.)
	// Other nodes' watermarks are in the snapshot with the records they
	// cover: each is published after those records commit.
	low := n.watermark()
	snap, err := n.db.store.NewSnapshot()
	if err != nil {
		return nil, 0, err
	}
	rows, fenced, err := readNodes(snap)
	if err != nil {
		snap.Close()
		return nil, 0, err
	}
	me := n.ident()
	for _, r := range rows {
		if r.id != me && !fenced[r.id] {
			low = min(low, r.watermark)
		}
	}
	return snap, low, nil
}

// visible is settledView's number alone, for the trimmer.
func (n *node) visible() uint64 {
	snap, v, err := n.settledView()
	if err != nil {
		n.db.outage.warn("read node watermarks", "err", err)
		return 0
	}
	snap.Close()
	return v
}

// fenceDead fences every node presumed dead and not fenced yet.
func (n *node) fenceDead() error {
	rows, fenced, err := readNodes(n.db.store)
	if err != nil {
		return err
	}
	me := n.ident()
	for _, r := range rows {
		if r.id == me || fenced[r.id] {
			continue
		}
		alive, err := n.alive(r.id)
		if err != nil {
			return err
		}
		if !alive {
			if err := n.fence(r.id); err != nil {
				return fmt.Errorf("fence node %s: %w", r.id, err)
			}
		}
	}
	return nil
}

// fence marks node id dead; its records can no longer commit.
func (n *node) fence(id string) error {
	b := n.db.store.NewBatch()
	defer b.Close()
	if err := b.Set(metaFenceKey(id), nil); err != nil {
		return err
	}
	if err := b.Commit(); err != nil {
		return err
	}
	n.db.log.Info("fenced a node presumed dead", "fenced", id, "node", n.ident())
	return nil
}

// allocateShared takes the number of a record of the item at row in s,
// in b: above the item's previous record, whose row b expects and
// rewrites, and held in flight until b is released. b also expects this
// node not to be fenced. The open shard rolls over first when due. Only
// that takes s.mu; the item's row is read without it, so writes to one
// stream do not wait on each other's round trips.
func (s *stream) allocateShared(b *writeBatch, now time.Time, row []byte) (uint64, bool, error) {
	s.mu.Lock()
	err := s.syncLocked()
	if err == nil && s.meta.Disabled.IsZero() {
		if cur := s.shards[len(s.shards)-1]; cur.End == 0 && now.Sub(cur.Created) >= s.db.shardDuration() {
			err = s.rollSharedLocked(now)
		}
	}
	disabled := !s.meta.Disabled.IsZero()
	s.mu.Unlock()
	if err != nil || disabled {
		return 0, false, err
	}
	n := s.db.node
	posKey := metaStreamPosKey(s.meta.ID, row)
	raw, found, err := s.db.store.Get(posKey, nil)
	if err != nil {
		return 0, false, err
	}
	var last uint64
	if found && len(raw) == 8 {
		last = binary.BigEndian.Uint64(raw)
	}
	n.ready.RLock()
	seq := n.nextSeq(last) // stageStreamRecord holds it as a ticket
	id := n.ident()
	n.ready.RUnlock()
	b.Expect(posKey, raw, found)
	b.Expect(metaFenceKey(id), nil, false)
	if err := b.Set(posKey, binary.BigEndian.AppendUint64(nil, seq)); err != nil {
		return 0, false, err
	}
	return seq, true, nil
}

// rollSharedLocked closes the open shard of s below a number above all
// this node has handed out and opens its child there. A node that rolled
// it first makes this one conflict; either way the shards are read again
// at the next use.
func (s *stream) rollSharedLocked(now time.Time) error {
	prev := s.shards[len(s.shards)-1]
	// The stream must still be enabled and the shard open as the store
	// has them, not only as this node last read them.
	st := s.db.store
	streamRaw, found, err := st.Get(metaStreamKey(s.meta.ID), nil)
	if err != nil || !found {
		return err
	}
	prevRaw, found, err := st.Get(metaShardKey(s.meta.ID, prev.Index), nil)
	if err != nil || !found {
		return err
	}
	var cur streamMeta
	var stored shardMeta
	if json.Unmarshal(streamRaw, &cur) != nil || json.Unmarshal(prevRaw, &stored) != nil || !cur.Disabled.IsZero() || stored.End != 0 {
		s.stale = true
		return s.syncLocked()
	}
	start := s.db.node.boundary()
	prev.End, prev.Closed = start-1, now
	child := s.db.newShard(s.meta.ID, prev.Index+1, prev.ID, start, now)
	b := st.NewBatch()
	defer b.Close()
	b.Expect(metaStreamKey(s.meta.ID), streamRaw, true)
	b.Expect(metaShardKey(s.meta.ID, prev.Index), prevRaw, true)
	b.Expect(metaShardKey(s.meta.ID, child.Index), nil, false)
	if err := putJSON(b, metaShardKey(s.meta.ID, prev.Index), prev); err != nil {
		return err
	}
	if err := putJSON(b, metaShardKey(s.meta.ID, child.Index), child); err != nil {
		return err
	}
	s.stale = true
	err = b.Commit()
	if errorsIsConflict(err) {
		return s.syncLocked() // another node rolled it over
	}
	if err != nil {
		return err
	}
	s.db.log.Debug("stream shard rolled over", "stream", s.meta.ARN, "shard", child.ID, "start", child.Start)
	return s.syncLocked()
}

// disableSharedLocked stages turning s off in b, leaving its open shard
// open: which records it holds is known only once b commits, and then
// finish closes it at the last one. The caller holds s.mu; finish
// releases it.
func (s *stream) disableSharedLocked(b storage.Batch, now time.Time) (func(committed bool), error) {
	meta := s.meta
	meta.Disabled = now
	if err := putJSON(b, metaStreamKey(s.meta.ID), meta); err != nil {
		s.mu.Unlock()
		return func(bool) {}, err
	}
	return func(committed bool) {
		defer s.mu.Unlock()
		if !committed {
			return
		}
		s.meta.Disabled = now
		if err := s.finalizeLocked(); err != nil {
			s.db.log.Warn("close the shard of a disabled stream", "stream", s.meta.ARN, "err", err)
		}
		s.db.log.Info("stream disabled", "stream", s.meta.ARN)
	}, nil
}

// finalizeLocked closes the open shard of a disabled stream at its last
// record (or its start, when it has none). Any node does it that finds it
// undone; they agree on the end, and the first write wins.
func (s *stream) finalizeLocked() error {
	// The shards as the store has them: this node's may predate another
	// node's rollover, and closing a shard that is no longer the last
	// would make it overlap its child.
	if err := s.reloadLocked(); err != nil {
		return err
	}
	sh := s.shards[len(s.shards)-1]
	if sh.End != 0 {
		return nil
	}
	p := streamPrefix(s.meta.ID)
	it, err := s.db.store.NewIter(p, keys.PrefixEnd(p))
	if err != nil {
		return err
	}
	end := sh.Start
	if it.Last() {
		end = max(end, binary.BigEndian.Uint64(it.Key()[9:]))
	}
	if err := it.Close(); err != nil {
		return err
	}
	cur, found, err := s.db.store.Get(metaShardKey(s.meta.ID, sh.Index), nil)
	if err != nil {
		return err
	}
	sh.End, sh.Closed = end, s.meta.Disabled
	b := s.db.store.NewBatch()
	defer b.Close()
	b.Expect(metaShardKey(s.meta.ID, sh.Index), cur, found)
	if err := putJSON(b, metaShardKey(s.meta.ID, sh.Index), sh); err != nil {
		return err
	}
	if err := b.Commit(); err != nil && !errorsIsConflict(err) {
		return err
	}
	return s.reloadLocked()
}

// syncLocked reads what other nodes may have changed of s on a shared
// store when it is stale, and closes the shard of a disabled stream that
// its disabling node left open. The caller holds s.mu.
func (s *stream) syncLocked() error {
	if !s.db.shared {
		return nil
	}
	if s.stale {
		if err := s.reloadLocked(); err != nil {
			return err
		}
		s.stale = false
	}
	if !s.meta.Disabled.IsZero() && s.shards[len(s.shards)-1].End == 0 {
		return s.finalizeLocked()
	}
	return nil
}

// reloadLocked reads s's definition and shards again from a shared store.
func (s *stream) reloadLocked() error {
	fresh, err := s.loadFresh()
	if err != nil || fresh == nil {
		return err
	}
	s.meta, s.shards = fresh.meta, fresh.shards
	s.trimmed = max(s.trimmed, fresh.trimmed)
	return nil
}

// loadFresh reads s's definition and shards from the store, without
// s.mu; nil when the stream has expired (the trimmer forgets it).
func (s *stream) loadFresh() (*stream, error) {
	raw, found, err := s.db.store.Get(metaStreamKey(s.meta.ID), nil)
	if err != nil || !found {
		return nil, err
	}
	fresh := &stream{db: s.db}
	if err := json.Unmarshal(raw, &fresh.meta); err != nil {
		return nil, fmt.Errorf("decode stream: %w", err)
	}
	if err := s.db.loadStreamState(fresh); err != nil {
		return nil, err
	}
	return fresh, nil
}

// syncStream brings s up to date with a shared store before a reader
// uses it.
func (s *stream) syncStream() error {
	if !s.db.shared {
		return nil
	}
	// Read outside s.mu, so that readers do not hold up writers.
	fresh, err := s.loadFresh()
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if fresh != nil {
		s.meta, s.shards = fresh.meta, fresh.shards
		s.trimmed = max(s.trimmed, fresh.trimmed)
		s.stale = false
	}
	return s.syncLocked()
}

// leave removes the heartbeat row of a node that closes cleanly, so that
// readers do not wait for its watermark; nothing of it is in flight by
// then.
func (n *node) leave() {
	b := n.db.store.NewBatch()
	defer b.Close()
	if err := b.Delete(metaNodeKey(n.ident())); err == nil {
		if err := b.Commit(); err != nil {
			n.db.log.Warn("remove heartbeat", "err", err)
		}
	}
}

// trimmedNow is s's trim horizon as this node knows it.
func (s *stream) trimmedNow() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.trimmed
}
