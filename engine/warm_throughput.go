package engine

import (
	"github.com/dynago/dynago/dynamo"
	"time"
)

// Warm throughput requests: CreateTable's WarmThroughput (the table's and
// each GSI's), UpdateTable's and a GSI Create's or Update's (the
// ack-api-quirks lab, recorded 2026-10-08/09):
//
//   - CreateTable refuses a value below an on-demand table's initial
//     throughput (12000/4000), 0 too, "lower than initial throughput for
//     OnDemand", and on a PROVISIONED table one below the capacity units,
//     "lower than ReadCapacityUnits of ProvisionedThroughput"; the read
//     member is judged first; a member left out keeps its default, and
//     an empty WarmThroughput is accepted (DDB-TABLE-039). No recording
//     shows a GSI's: it is judged alike, "for index <name>", the wording
//     of a GSI's decrease (DDB-TABLE-155).
//   - UpdateTable refuses a value below the current one, "decreasing
//     WarmThroughput is not supported" (DDB-TABLE-179, -061, -059; a
//     GSI's: -155); the current value again, or a higher one, is accepted
//     member by member (-179, -155), and the table, and a GSI, stay
//     ACTIVE (-179, -061, -155).
//   - Under a TransientDelay, an accepted value shows as the one before,
//     Status UPDATING, for the delay, and then the new one, ACTIVE
//     (DDB-TABLE-179's and -155's DescribeTable timelines; the answer
//     too); a value sent meanwhile is judged against the one shown, and
//     the last one sent wins (the table-throughput-billing page's summary,
//     -049, -459). CreateTable's answer shows a WarmThroughput sent,
//     Status UPDATING (-032). Without a delay the change shows at once,
//     ACTIVE.
//   - WarmThroughput is the only change of its UpdateTable (-433, -174;
//     updateCombination), and during a new GSI's resource allocation it
//     is an HTTP 500 (-458; updateInUse).

// warmJob is a warm throughput change under a TransientDelay: until Ends
// the table or GSI shows From, Status UPDATING.
type warmJob struct {
	From warmUnits `json:"from"`
	Ends time.Time `json:"ends"`
}

// warmRequested returns cur with the members w sets replaced.
func warmRequested(cur warmUnits, w *dynamo.WarmThroughput) warmUnits {
	if w.ReadUnitsPerSecond != nil {
		cur.Read = *w.ReadUnitsPerSecond
	}
	if w.WriteUnitsPerSecond != nil {
		cur.Write = *w.WriteUnitsPerSecond
	}
	return cur
}

// warmSet reports whether w sets a member.
func warmSet(w *dynamo.WarmThroughput) bool {
	return w != nil && (w.ReadUnitsPerSecond != nil || w.WriteUnitsPerSecond != nil)
}

// emptyThroughputs judges UpdateTable's WarmThroughput and
// OnDemandThroughput without a member, before the table is looked up (the
// ack-api-quirks lab, DDB-TABLE-456, -437 and -178, recorded
// 2026-10-08/09). A GSI Update's empty WarmThroughput is refused, even
// for an index or a table that does not exist. The table's, sent with
// nothing else, is an HTTP 500 InternalFailure: the recordings show it
// on existing tables only, so it is judged where a request changing
// nothing is, before the lookup. Beside any other member the table's is
// absent: in is returned without it (a copy; in is the caller's).
func emptyThroughputs(in *dynamo.UpdateTableInput) (*dynamo.UpdateTableInput, error) {
	for _, u := range in.GlobalSecondaryIndexUpdates {
		if u.Update != nil && u.Update.WarmThroughput != nil && !warmSet(u.Update.WarmThroughput) {
			return nil, dynamo.Validation(msgWarmEmptyForIndex(u.Update.IndexName))
		}
	}
	warmEmpty := in.WarmThroughput != nil && !warmSet(in.WarmThroughput)
	odtEmpty := in.OnDemandThroughput != nil && onDemandMember(in.OnDemandThroughput) == ""
	if !warmEmpty && !odtEmpty {
		return in, nil
	}
	out := *in
	if warmEmpty {
		out.WarmThroughput = nil
	}
	if odtEmpty {
		out.OnDemandThroughput = nil
	}
	if updatesNothing(&out) {
		return nil, dynamo.InternalFailure()
	}
	return &out, nil
}

// warmWhat names a table ("") or a GSI in the texts.
func warmWhat(index string) string {
	if index == "" {
		return "table"
	}
	return "index " + index
}

// createWarm checks a WarmThroughput of CreateTable, of the table
// (index "") or of a GSI, with the throughput it has (nil: on demand).
func createWarm(index string, w *dynamo.WarmThroughput, p *dynamo.ProvisionedThroughput) error {
	if w == nil {
		return nil
	}
	what := warmWhat(index)
	if p == nil {
		switch {
		case w.ReadUnitsPerSecond != nil && *w.ReadUnitsPerSecond < onDemandWarm.Read:
			return dynamo.Validation(msgWarmBelowOnDemand("ReadUnitsPerSecond", what))
		case w.WriteUnitsPerSecond != nil && *w.WriteUnitsPerSecond < onDemandWarm.Write:
			return dynamo.Validation(msgWarmBelowOnDemand("WriteUnitsPerSecond", what))
		}
		return nil
	}
	switch {
	case w.ReadUnitsPerSecond != nil && *w.ReadUnitsPerSecond < p.ReadCapacityUnits:
		return dynamo.Validation(msgWarmBelowProvisioned("ReadUnitsPerSecond", what, "ReadCapacityUnits"))
	case w.WriteUnitsPerSecond != nil && *w.WriteUnitsPerSecond < p.WriteCapacityUnits:
		return dynamo.Validation(msgWarmBelowProvisioned("WriteUnitsPerSecond", what, "WriteCapacityUnits"))
	}
	return nil
}

// createWarms checks CreateTable's WarmThroughput members.
func createWarms(in *dynamo.CreateTableInput) error {
	tp := in.ProvisionedThroughput
	if in.BillingMode == dynamo.BillingModePayPerRequest {
		tp = nil
	}
	if err := createWarm("", in.WarmThroughput, tp); err != nil {
		return err
	}
	for _, g := range in.GlobalSecondaryIndexes {
		gp := g.ProvisionedThroughput
		if in.BillingMode == dynamo.BillingModePayPerRequest {
			gp = nil
		}
		if err := createWarm(g.IndexName, g.WarmThroughput, gp); err != nil {
			return err
		}
	}
	return nil
}

// initialWarm is the high-water mark a created table or GSI starts with:
// the members its request sets.
func initialWarm(w *dynamo.WarmThroughput) warmUnits {
	if w == nil {
		return warmUnits{}
	}
	return warmRequested(warmUnits{}, w)
}

// raiseWarm checks a WarmThroughput of UpdateTable or of a GSI Update
// against cur, what the table (index "") or GSI shows now, and returns the
// new high-water mark.
func raiseWarm(index string, w *dynamo.WarmThroughput, cur warmUnits) (warmUnits, error) {
	want := warmRequested(cur, w)
	what := warmWhat(index)
	switch {
	case want.Read < cur.Read:
		return cur, dynamo.Validation(msgWarmDecrease("ReadUnitsPerSecond", what))
	case want.Write < cur.Write:
		return cur, dynamo.Validation(msgWarmDecrease("WriteUnitsPerSecond", what))
	}
	return want, nil
}

// warmShown returns what the table (index "") or GSI of m shows: the
// value before a running change, and whether one runs.
func (db *DB) warmShown(m *tableMeta, index string, now warmUnits) (warmUnits, bool) {
	if j, ok := m.WarmJobs[index]; ok && db.now().Before(j.Ends) {
		return j.From, true
	}
	return now, false
}

// startWarmJob records, under a TransientDelay, that the table (index "")
// or GSI of m shows from until the delay ends; ended jobs are dropped.
func (db *DB) startWarmJob(m *tableMeta, index string, from warmUnits, now time.Time) {
	jobs := make(map[string]warmJob, len(m.WarmJobs)+1)
	for k, j := range m.WarmJobs {
		if now.Before(j.Ends) && k != index {
			jobs[k] = j
		}
	}
	if db.opts.TransientDelay > 0 {
		jobs[index] = warmJob{From: from, Ends: now.Add(db.opts.TransientDelay)}
	}
	if len(jobs) == 0 {
		jobs = nil
	}
	m.WarmJobs = jobs
}

// updateWarm applies UpdateTable's table WarmThroughput to m (a copy whose
// Warm foldWarm raised), t being the table before.
func (db *DB) updateWarm(t *table, m *tableMeta, w *dynamo.WarmThroughput, now time.Time) error {
	if !warmSet(w) {
		return nil
	}
	cur, _ := db.warmShown(&t.meta, "", tableWarm(&t.meta, db.switchingToOnDemand(t)))
	want, err := raiseWarm("", w, cur)
	if err != nil {
		return err
	}
	m.Warm = want
	db.startWarmJob(m, "", cur, now)
	return nil
}

// updateIndexWarm applies a GSI Update's WarmThroughput to x, a GSI of m
// (whose Warm foldWarm raised); mode is the table's billing mode before.
func (db *DB) updateIndexWarm(m *tableMeta, x *indexMeta, w *dynamo.WarmThroughput, mode string, now time.Time) error {
	if !warmSet(w) {
		return nil
	}
	cur, _ := db.warmShown(m, x.Name, gsiWarm(x, mode))
	want, err := raiseWarm(x.Name, w, cur)
	if err != nil {
		return err
	}
	x.Warm = want
	db.startWarmJob(m, x.Name, cur, now)
	return nil
}

// createdWarm adds to CreateTable's answer d the WarmThroughput of the
// table and of each GSI whose request sent one: the answer has no other
// (DDB-TABLE-138, -032).
func (db *DB) createdWarm(t *table, in *dynamo.CreateTableInput, d *dynamo.TableDescription) {
	if in.WarmThroughput == nil && !anyGSIWarm(in.GlobalSecondaryIndexes) {
		return
	}
	all := *d
	all.GlobalSecondaryIndexes = append([]dynamo.GlobalSecondaryIndexDescription(nil), d.GlobalSecondaryIndexes...)
	db.withWarm(t, &all)
	if in.WarmThroughput != nil {
		d.WarmThroughput = all.WarmThroughput
	}
	for i := range d.GlobalSecondaryIndexes {
		for _, g := range in.GlobalSecondaryIndexes {
			if g.IndexName == d.GlobalSecondaryIndexes[i].IndexName && g.WarmThroughput != nil {
				d.GlobalSecondaryIndexes[i].WarmThroughput = all.GlobalSecondaryIndexes[i].WarmThroughput
			}
		}
	}
}

func anyGSIWarm(gs []dynamo.GlobalSecondaryIndex) bool {
	for _, g := range gs {
		if g.WarmThroughput != nil {
			return true
		}
	}
	return false
}
