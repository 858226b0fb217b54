package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// Global tables, version 2019.11.21, on one server: UpdateTable's
// ReplicaUpdates creates the table in another region's database of the
// same account (Options.Replicas gives it: with --namespace
// account-region, the namespace a client of that region signing with the
// same key sees), copies the items there, and from then on every write
// in one replica reaches the others through the stream machinery: a
// background replicator per database reads the change records of its
// replicated tables and applies each changed item to the other replicas.
//
// What AWS documents, and this follows:
//
//   - adding a replica to a table without a stream enables one with
//     NEW_AND_OLD_IMAGES; a stream already enabled stays as it is (a
//     KEYS_ONLY one replicates too), and cannot be disabled while the
//     table has replicas; removing the last replica leaves the stream on
//     (Alternator's test_global_tables.py, run against DynamoDB);
//   - DescribeTable lists the replicas and GlobalTableVersion
//     "2019.11.21" while there are replicas, neither once the last is
//     removed (the same tests; AWS's "Determining the version" page);
//   - conflicts are resolved item by item, the last writer winning
//     (AWS's "How global tables work", version 2019.11.21), and the
//     items carry no aws:rep:* attributes, which only version 2017.11.29
//     added (AWS's "Global tables: How it works" for 2017.11.29 lists
//     them; the 2019.11.21 pages name none).
//
// Last writer wins, here: every change of a replicated item takes a
// stamp from its database's hybrid clock (the wall clock in nanoseconds,
// or one more than the last stamp handed out or seen, whichever is
// larger) and the region it was made in. A replica applies an incoming
// item only if its stamp is not older than the stamp of the item it has;
// stamps compare by time, then, a tie, by region name, so every replica
// picks the same winner. The stamps of the items live in memory: after a
// restart the replicator starts at the end of each stream, and an item
// not written since has no stamp, which any incoming change beats.
//
// Replicated writes are made by byReplica: their change records stay in
// the replica's stream, as on DynamoDB, and the replicator skips them, so
// a change travels once and never comes back.

// replicatorPoll is how often the replicator looks at its streams when no
// write has woken it.
const replicatorPoll = 100 * time.Millisecond

// stamp is the version of a replicated item: when and where it changed.
type stamp struct {
	at     uint64 // hybrid clock, nanoseconds
	region string
}

// before reports whether a is older than b: by time, then by region.
func (a stamp) before(b stamp) bool {
	return a.at < b.at || (a.at == b.at && a.region < b.region)
}

// replication is a database's part of its global tables.
type replication struct {
	mu       sync.Mutex
	clock    uint64
	versions map[uint64]map[string]stamp // table id → row key → stamp
	pos      map[uint64]uint64           // stream id → next sequence number to ship
	started  bool
	wake     chan struct{}
}

// next hands out a stamp time for a change made now.
func (r *replication) next(now time.Time) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := uint64(now.UnixNano())
	if t <= r.clock {
		t = r.clock + 1
	}
	r.clock = t
	return t
}

func (r *replication) version(table uint64, row string) stamp {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.versions[table][row]
}

// setVersion records the stamp of an item's change, and moves the clock
// past it.
func (r *replication) setVersion(table uint64, row string, s stamp) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.versions == nil {
		r.versions = map[uint64]map[string]stamp{}
	}
	m := r.versions[table]
	if m == nil {
		m = map[string]stamp{}
		r.versions[table] = m
	}
	m[row] = s
	r.clock = max(r.clock, s.at)
}

// position returns the next sequence number of stream id to ship,
// starting after last when the stream has none yet.
func (r *replication) position(id, last uint64) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pos == nil {
		r.pos = map[uint64]uint64{}
	}
	p, ok := r.pos[id]
	if !ok {
		p = last + 1
		r.pos[id] = p
	}
	return p
}

func (r *replication) setPosition(id, p uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pos[id] = p
}

// poke wakes the replicator.
func (r *replication) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// replVersion is the stamp a batch's change takes, recorded once the
// batch commits (writeBatch.Commit).
type replVersion struct {
	table uint64
	row   string
	at    uint64
}

// stageReplicated gives a user's change of a replicated table's item its
// stamp, recorded when b commits; the item's lock is held until then.
func (db *DB) stageReplicated(b *writeBatch, t *table, k itemKey, w writer) {
	if len(t.meta.Replicas) == 0 || w == byReplica {
		return
	}
	b.repl = append(b.repl, replVersion{table: t.meta.ID, row: string(k.row), at: db.repl.next(db.now())})
}

// commitReplicated records the stamps of a committed batch's changes.
func (db *DB) commitReplicated(b *writeBatch) {
	for _, v := range b.repl {
		db.repl.setVersion(v.table, v.row, stamp{at: v.at, region: db.opts.Region})
	}
}

// replicaDB returns the database of region, for the table's replicas.
func (db *DB) replicaDB(region string) (*DB, error) {
	if db.opts.Replicas == nil {
		return nil, errNoReplicas
	}
	return db.opts.Replicas(region)
}

var errNoReplicas = errors.New("no replicas")

// msgLocalRegionReplica is DynamoDB's refusal of a replica update naming
// the table's own region (aws/aws-cli issue 4906, 2020, and
// rrahul963/serverless-create-global-dynamodb-table issue 44, 2021, quote
// it; Alternator's test_add_region_already_exists matches it against
// DynamoDB).
const msgLocalRegionReplica = "Cannot add, delete, or update the local region through ReplicaUpdates. Use CreateTable, DeleteTable, or UpdateTable as required."

// msgDisableGlobalStream is DynamoDB's refusal to disable the stream of a
// table with replicas (terraform-aws-modules/terraform-aws-dynamodb-table
// pull request 30 quotes it; Alternator's
// test_global_table_streaming_cannot_be_changed matches it).
const msgDisableGlobalStream = "Disabling Stream is not allowed for a Global Table replica."

// msgNoReplicaRegions is dynago's own refusal of a replica update on a
// server that keeps one database for every region (--namespace shared,
// the embedded engine): there is no other region to put a replica in.
const msgNoReplicaRegions = "This server keeps one database for every region, so a table cannot have replicas in other regions: serve with --namespace account-region"

// replicaUpdateMembers checks ReplicaUpdates' members: each update names
// one action, and each action its RegionName.
func (c *constraints) replicaUpdateMembers(us []dynamo.ReplicationGroupUpdate) {
	for i, u := range us {
		f := fmt.Sprintf("replicaUpdates.%d.member", i+1)
		for _, a := range []struct {
			name string
			act  *dynamo.ReplicaAction
		}{{"create", u.Create}, {"update", u.Update}, {"delete", u.Delete}} {
			if a.act != nil && a.act.NoRegionName {
				c.notNull(f + "." + a.name + ".regionName")
			}
		}
	}
}

// replicaUpdatesShape refuses an update naming no action or several.
func replicaUpdatesShape(us []dynamo.ReplicationGroupUpdate) error {
	for _, u := range us {
		n := 0
		for _, a := range []*dynamo.ReplicaAction{u.Create, u.Update, u.Delete} {
			if a != nil {
				n++
			}
		}
		if n != 1 {
			return invalid("One of ReplicationGroupUpdate.Create, ReplicationGroupUpdate.Update, ReplicationGroupUpdate.Delete must not be null")
		}
	}
	return nil
}

// updateReplicas applies UpdateTable's ReplicaUpdates, one after the
// other, and answers with the table's description, the replica being
// created CREATING and the one being deleted DELETING.
func (db *DB) updateReplicas(in *dynamo.UpdateTableInput) (*dynamo.UpdateTableOutput, error) {
	if err := replicaUpdatesShape(in.ReplicaUpdates); err != nil {
		return nil, err
	}
	if _, err := db.freshTable(in.TableName); err != nil {
		return nil, err
	}
	name := tableNameFromARN(in.TableName)
	status := map[string]string{}
	for _, u := range in.ReplicaUpdates {
		var region string
		switch {
		case u.Create != nil:
			region = u.Create.RegionName
		case u.Update != nil:
			region = u.Update.RegionName
		default:
			region = u.Delete.RegionName
		}
		if region == db.opts.Region {
			return nil, dynamo.Validation(msgLocalRegionReplica)
		}
		if db.opts.Replicas == nil || db.shared {
			return nil, dynamo.Validation(msgNoReplicaRegions)
		}
		var err error
		switch {
		case u.Create != nil:
			err = db.createReplica(name, region)
			status[region] = dynamo.ReplicaStatusCreating
		case u.Delete != nil:
			err = db.deleteReplica(name, region)
			status[region] = dynamo.ReplicaStatusDeleting
		default:
			// Update changes a replica's own settings (throughput,
			// indexes, class), which dynago's replicas take from the
			// table: it only checks the replica exists.
			t, lerr := db.freshTable(name)
			if lerr == nil && !slices.Contains(t.meta.Replicas, region) {
				lerr = invalid("Update global table operation failed because there is no replica in region %s", region)
			}
			err = lerr
		}
		if err != nil {
			return nil, err
		}
	}
	t, err := db.freshTable(name)
	if err != nil {
		return nil, err
	}
	desc, err := db.describe(t, db.tableStatus(t))
	if err != nil {
		return nil, err
	}
	db.withWarm(t, desc)
	for region, st := range status {
		if st == dynamo.ReplicaStatusDeleting {
			desc.Replicas = append(desc.Replicas, dynamo.ReplicaDescription{RegionName: region, ReplicaStatus: st})
			if desc.GlobalTableVersion == "" {
				desc.GlobalTableVersion = dynamo.GlobalTableVersionCurrent
			}
			continue
		}
		for i := range desc.Replicas {
			if desc.Replicas[i].RegionName == region {
				desc.Replicas[i].ReplicaStatus = st
			}
		}
	}
	slices.SortFunc(desc.Replicas, func(a, b dynamo.ReplicaDescription) int {
		switch {
		case a.RegionName < b.RegionName:
			return -1
		case a.RegionName > b.RegionName:
			return 1
		}
		return 0
	})
	return &dynamo.UpdateTableOutput{TableDescription: desc}, nil
}

// createReplica makes the table a replica group with region: it turns the
// table's stream on if it is off, creates the table in region's database
// with the same keys, indexes, billing and stream, records the group in
// every member, copies the items, and starts the replicators.
func (db *DB) createReplica(name, region string) error {
	// This table: the group grows, and the stream is on. The lock of
	// one database is never held while another's is taken.
	var group, was []string
	var desc *dynamo.TableDescription
	err := func() error {
		db.ddl.Lock()
		defer db.ddl.Unlock()
		t, err := db.freshTable(name)
		if err != nil {
			return err
		}
		if slices.Contains(t.meta.Replicas, region) {
			return invalid("Failed to create a replica in region %s: the table already has a replica there", region)
		}
		was = t.meta.Replicas
		group = append(slices.Clone(t.meta.Replicas), region)
		if !slices.Contains(group, db.opts.Region) {
			group = append(group, db.opts.Region)
		}
		slices.Sort(group)
		m := t.meta
		m.Replicas = group
		b := db.store.NewBatch()
		defer b.Close()
		var st *stream
		if m.Stream == nil {
			m.Stream = &catStream{StreamEnabled: true, StreamViewType: dynamo.ViewNewAndOldImages}
			if st, err = db.newStreamLocked(b, &m, db.now()); err != nil {
				return err
			}
		}
		nt := newTable(m)
		next, err := db.putTableLocked(b, nt)
		if err != nil {
			return err
		}
		if err := b.Commit(); err != nil {
			return err
		}
		if st != nil {
			db.installStream(st)
		}
		db.tables.Store(&next)
		db.watchReplicated(nt)
		desc, err = db.describe(nt, dynamo.TableStatusActive)
		return err
	}()
	if err != nil {
		return err
	}
	peer, err := db.replicaDB(region)
	if err == nil {
		_, err = peer.CreateTable(replicaCreateInput(desc))
	}
	if err != nil {
		// No replica: the group is as it was (the stream stays on).
		if rerr := db.setReplicaGroup(name, was); rerr != nil {
			db.log.Error("restore replica group", "table", name, "err", rerr)
		}
		return err
	}
	if err := db.spreadReplicaGroup(name, group); err != nil {
		return err
	}
	// The copy: every item as it is now, with its stamp. Changes made
	// meanwhile reach the replica through the stream as well; the newer
	// stamp wins wherever they meet.
	t, err := db.freshTable(name)
	if err != nil {
		return err
	}
	return db.scanKeys(t, func(keys attr.Item) error { return db.shipTo(t, keys, []string{region}) })
}

// spreadReplicaGroup sets the table's replica group to group in every
// region of it but this one.
func (db *DB) spreadReplicaGroup(name string, group []string) error {
	for _, r := range group {
		if r == db.opts.Region {
			continue
		}
		other, err := db.replicaDB(r)
		if err != nil {
			return err
		}
		if err := other.setReplicaGroup(name, group); err != nil {
			return err
		}
	}
	return nil
}

// deleteReplica removes region from the table's replica group and
// deletes the table there.
func (db *DB) deleteReplica(name, region string) error {
	var group []string
	err := func() error {
		db.ddl.Lock()
		defer db.ddl.Unlock()
		t, err := db.freshTable(name)
		if err != nil {
			return err
		}
		if !slices.Contains(t.meta.Replicas, region) {
			return invalid("Failed to delete the replica in region %s: the table has no replica there", region)
		}
		group = slices.DeleteFunc(slices.Clone(t.meta.Replicas), func(r string) bool { return r == region })
		return db.setReplicaGroupLocked(t, group)
	}()
	if err != nil {
		return err
	}
	if err := db.spreadReplicaGroup(name, group); err != nil {
		return err
	}
	peer, err := db.replicaDB(region)
	if err != nil {
		return err
	}
	if err := peer.setReplicaGroup(name, nil); err != nil {
		return err
	}
	if _, err := peer.DeleteTable(&dynamo.DeleteTableInput{TableName: name}); err != nil {
		var de *dynamo.Error
		if !errors.As(err, &de) || de.Code != dynamo.CodeResourceNotFound {
			return err
		}
	}
	return nil
}

// setReplicaGroup records the replica group of this database's table
// name: every region with a replica, this one included, or none.
func (db *DB) setReplicaGroup(name string, group []string) error {
	db.ddl.Lock()
	defer db.ddl.Unlock()
	t, err := db.freshTable(name)
	if err != nil {
		return err
	}
	return db.setReplicaGroupLocked(t, group)
}

func (db *DB) setReplicaGroupLocked(t *table, group []string) error {
	m := t.meta
	if len(group) < 2 {
		group = nil // a table alone is no global table
	}
	m.Replicas = group
	b := db.store.NewBatch()
	defer b.Close()
	var st *stream
	if group != nil && m.Stream == nil {
		m.Stream = &catStream{StreamEnabled: true, StreamViewType: dynamo.ViewNewAndOldImages}
		var err error
		if st, err = db.newStreamLocked(b, &m, db.now()); err != nil {
			return err
		}
	}
	nt := newTable(m)
	next, err := db.putTableLocked(b, nt)
	if err != nil {
		return err
	}
	if err := b.Commit(); err != nil {
		return err
	}
	if st != nil {
		db.installStream(st)
	}
	db.tables.Store(&next)
	db.watchReplicated(nt)
	return nil
}

// replicaCreateInput is the CreateTable request of a replica of the table
// d describes.
func replicaCreateInput(d *dynamo.TableDescription) *dynamo.CreateTableInput {
	in := &dynamo.CreateTableInput{
		TableName:            d.TableName,
		AttributeDefinitions: d.AttributeDefinitions,
		KeySchema:            d.KeySchema,
		StreamSpecification:  d.StreamSpecification,
		OnDemandThroughput:   d.OnDemandThroughput,
	}
	onDemand := d.BillingModeSummary != nil && d.BillingModeSummary.BillingMode == dynamo.BillingModePayPerRequest
	if onDemand {
		in.BillingMode = dynamo.BillingModePayPerRequest
	} else {
		in.BillingMode = dynamo.BillingModeProvisioned
		in.ProvisionedThroughput = &dynamo.ProvisionedThroughput{ReadCapacityUnits: d.ProvisionedThroughput.ReadCapacityUnits, WriteCapacityUnits: d.ProvisionedThroughput.WriteCapacityUnits}
	}
	for _, g := range d.GlobalSecondaryIndexes {
		x := dynamo.GlobalSecondaryIndex{IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection, OnDemandThroughput: g.OnDemandThroughput}
		if !onDemand && g.ProvisionedThroughput != nil {
			x.ProvisionedThroughput = &dynamo.ProvisionedThroughput{ReadCapacityUnits: g.ProvisionedThroughput.ReadCapacityUnits, WriteCapacityUnits: g.ProvisionedThroughput.WriteCapacityUnits}
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, x)
	}
	for _, l := range d.LocalSecondaryIndexes {
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, dynamo.LocalSecondaryIndex{IndexName: l.IndexName, KeySchema: l.KeySchema, Projection: l.Projection})
	}
	return in
}

// describeReplicas adds the replica group to a table's description.
func (db *DB) describeReplicas(t *table, d *dynamo.TableDescription) {
	if len(t.meta.Replicas) == 0 {
		return
	}
	d.GlobalTableVersion = dynamo.GlobalTableVersionCurrent
	d.Replicas = make([]dynamo.ReplicaDescription, len(t.meta.Replicas))
	for i, r := range t.meta.Replicas {
		d.Replicas[i] = dynamo.ReplicaDescription{RegionName: r, ReplicaStatus: dynamo.ReplicaStatusActive}
	}
}

// watchReplicated starts shipping the changes of a table that has
// replicas, from the end of its stream, and the replicator with them.
func (db *DB) watchReplicated(t *table) {
	if len(t.meta.Replicas) == 0 || db.opts.Replicas == nil {
		return
	}
	if s := db.streamOf(t); s != nil {
		s.mu.Lock()
		last := s.visibleLocked()
		s.mu.Unlock()
		db.repl.position(s.meta.ID, last)
	}
	db.startReplicator()
}

// resumeReplicas starts the replicator of a database opened with tables
// that have replicas.
func (db *DB) resumeReplicas() {
	for _, t := range *db.tables.Load() {
		db.watchReplicated(t)
	}
}

// startReplicator starts the database's replicator, once.
func (db *DB) startReplicator() {
	db.repl.mu.Lock()
	defer db.repl.mu.Unlock()
	if db.repl.started || db.closed.Load() {
		return
	}
	db.repl.started = true
	db.bg.Add(1)
	go func() {
		defer db.bg.Done()
		tick := time.NewTicker(replicatorPoll)
		defer tick.Stop()
		for {
			select {
			case <-db.bgStop:
				return
			case <-tick.C:
			case <-db.repl.wake:
			}
			for _, t := range *db.tables.Load() {
				if len(t.meta.Replicas) == 0 {
					continue
				}
				if err := db.replicateTable(t); err != nil && !db.closed.Load() {
					db.log.Error("replicate", "table", t.meta.Name, "err", err)
				}
			}
		}
	}()
}

// replicateTable ships the table's changes recorded since the last call
// to its other replicas, the ones older than Options.ReplicationLag.
func (db *DB) replicateTable(t *table) error {
	s := db.streamOf(t)
	if s == nil {
		return nil
	}
	s.mu.Lock()
	visible := s.visibleLocked()
	s.mu.Unlock()
	pos := db.repl.position(s.meta.ID, visible)
	if pos > visible {
		return nil
	}
	it, err := db.store.NewIter(streamRecordKey(s.meta.ID, pos), streamRecordKey(s.meta.ID, visible+1))
	if err != nil {
		return err
	}
	defer it.Close()
	lag := db.opts.ReplicationLag
	now := db.now()
	for ok := it.First(); ok; ok = it.Next() {
		seq := binary.BigEndian.Uint64(it.Key()[9:])
		sr, err := decodeRecord(it.Value())
		if err != nil {
			return err
		}
		if sr.w != byReplica {
			if lag > 0 && now.Sub(sr.at) < lag {
				return nil // later: the records behind it are younger still
			}
			keys, err := attr.DecodeItem(sr.keys)
			if err != nil {
				return err
			}
			if err := db.shipTo(t, keys, t.meta.Replicas); err != nil {
				return err
			}
		}
		db.repl.setPosition(s.meta.ID, seq+1)
	}
	return it.Error()
}

// shipTo applies the item at keys, as this replica has it now, with its
// stamp, to the table's replicas in regions (this one skipped).
func (db *DB) shipTo(t *table, keys attr.Item, regions []string) error {
	k, err := t.primaryKey(keys, keyOfKey)
	if err != nil {
		return nil // not this table's key: nothing to ship
	}
	stripe := db.locks.lock(k.row)
	old, _, err := db.loadForWriteInto(t, k, nil)
	ver := db.repl.version(t.meta.ID, string(k.row))
	db.locks.unlock(stripe)
	if err != nil {
		return err
	}
	var item attr.Item
	if old.found {
		if item, err = old.Item(); err != nil {
			return err
		}
	}
	for _, r := range regions {
		if r == db.opts.Region {
			continue
		}
		peer, err := db.replicaDB(r)
		if err != nil {
			return err
		}
		if err := peer.applyReplicated(t.meta.Name, db.opts.Region, keys, item, ver); err != nil {
			return err
		}
	}
	return nil
}

// applyReplicated applies a change made in region from: the item at keys
// becomes item (nil: deleted) unless the item here has a newer stamp. A
// table that is not (or no longer) a replica of from's takes nothing.
func (db *DB) applyReplicated(name, from string, keys, item attr.Item, ver stamp) error {
	t, err := db.lookup(name)
	if err != nil || t == nil || !slices.Contains(t.meta.Replicas, from) {
		return err
	}
	k, err := t.primaryKey(keys, keyOfKey)
	if err != nil {
		return nil
	}
	row := string(k.row)
	_, err = db.writeItemBy(t, k, byReplica, nil, func(old *storedItem) (attr.Item, bool, error) {
		if ver.before(db.repl.version(t.meta.ID, row)) {
			return nil, false, nil // a newer change is here already
		}
		db.repl.setVersion(t.meta.ID, row, ver)
		return item, true, nil
	})
	if errors.Is(err, errTableReplaced) {
		return nil
	}
	return err
}

// scanKeys calls f with the key of every item of t.
func (db *DB) scanKeys(t *table, f func(keys attr.Item) error) error {
	var start attr.Item
	for {
		out, err := db.Scan(&dynamo.ScanInput{TableName: t.meta.Name, ExclusiveStartKey: start, ConsistentRead: true})
		if err != nil {
			return err
		}
		for _, it := range out.Items {
			keys := attr.Item{t.hashName: it[t.hashName]}
			if t.rangeName != "" {
				keys[t.rangeName] = it[t.rangeName]
			}
			if err := f(keys); err != nil {
				return err
			}
		}
		if len(out.LastEvaluatedKey) == 0 {
			return nil
		}
		start = out.LastEvaluatedKey
	}
}

// ReplicationBacklog is what a replicated table has not shipped yet to
// its other replicas.
type ReplicationBacklog struct {
	Table, Region string // the table and the region its changes were made in
	// Pending counts the change records the replicator has not read yet;
	// Lag is how long ago the oldest of them was written (0: none).
	Pending uint64
	Lag     time.Duration
}

// ReplicationBacklogs returns the backlog of every table with replicas,
// for the metrics.
func (db *DB) ReplicationBacklogs() []ReplicationBacklog {
	var out []ReplicationBacklog
	for _, t := range *db.tables.Load() {
		if len(t.meta.Replicas) == 0 {
			continue
		}
		s := db.streamOf(t)
		if s == nil {
			continue
		}
		s.mu.Lock()
		visible := s.visibleLocked()
		s.mu.Unlock()
		pos := db.repl.position(s.meta.ID, visible)
		b := ReplicationBacklog{Table: t.meta.Name, Region: db.opts.Region}
		if pos <= visible {
			b.Pending = visible - pos + 1
			if it, err := db.store.NewIter(streamRecordKey(s.meta.ID, pos), streamRecordKey(s.meta.ID, visible+1)); err == nil {
				if it.First() {
					if at, ok := recordTime(it.Value()); ok {
						b.Lag = max(0, db.now().Sub(at))
					}
				}
				it.Close()
			}
		}
		out = append(out, b)
	}
	return out
}

// leaveReplicaGroup takes this region out of the replica group of the
// table name, just deleted here: deleting a replica as a regular table
// stops replication to its region and leaves the others (AWS's "How
// global tables work", common tasks).
func (db *DB) leaveReplicaGroup(name string, group []string) {
	rest := slices.DeleteFunc(slices.Clone(group), func(r string) bool { return r == db.opts.Region })
	for _, r := range rest {
		other, err := db.replicaDB(r)
		if err == nil {
			err = other.setReplicaGroup(name, rest)
		}
		if err != nil {
			db.log.Error("leave replica group", "table", name, "region", r, "err", err)
		}
	}
}
