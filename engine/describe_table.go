package engine

import (
	"fmt"
	"github.com/dynago/dynago/dynamo"
)

// DescribeTable describes a table.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTable.html
func (db *DB) DescribeTable(in *dynamo.DescribeTableInput) (*dynamo.DescribeTableOutput, error) {
	return run(db, opDescribeTable, func() (*dynamo.DescribeTableOutput, error) { return db.describeTable(in) })
}

func (db *DB) describeTable(in *dynamo.DescribeTableInput) (*dynamo.DescribeTableOutput, error) {
	if in.NoTableName {
		return nil, dynamo.Validation(dynamo.MsgTableNameRequired)
	}
	var c constraints
	c.tableOpName(in.TableName)
	if err := c.err(); err != nil {
		return nil, err
	}
	// On a shared store, describe the table as the store has it now.
	t, err := db.freshTable(in.TableName)
	if err != nil {
		return nil, err
	}
	var desc *dynamo.TableDescription
	if status := db.tableStatus(t); status == dynamo.TableStatusDeleting {
		desc, err = db.describeDeleting(t)
	} else {
		desc, err = db.describe(t, status)
		if err == nil {
			db.withWarm(t, desc)
		}
	}
	if err != nil {
		return nil, err
	}
	return &dynamo.DescribeTableOutput{Table: desc}, nil
}

// tableNotFound is the error of the table operations (DescribeTable,
// DeleteTable, UpdateTable) for a missing table; item operations say only
// "Requested resource not found".
func tableNotFound(name string) error {
	if badTableARN(name) {
		return invalidTableARN(name)
	}
	return dynamo.NotFound(msgTableNotFound(tableNameFromARN(name)))
}

// describe builds a table's description with the given status, without
// the warm throughput, as CreateTable answers (withWarm adds it).
func (db *DB) describe(t *table, status string) (*dynamo.TableDescription, error) {
	m := &t.meta
	count, size, err := db.stats(t)
	if err != nil {
		return nil, err
	}
	dp := m.DeletionProtection
	d := &dynamo.TableDescription{
		AttributeDefinitions:      apiAttrs(m.AttributeDefinitions),
		TableName:                 m.Name,
		KeySchema:                 apiKeys(m.KeySchema),
		TableStatus:               status,
		CreationDateTime:          m.Created,
		TableSizeBytes:            size,
		ItemCount:                 count,
		TableArn:                  t.arn(db),
		TableId:                   m.UUID,
		DeletionProtectionEnabled: &dp,
		OnDemandThroughput:        m.OnDemand.api(),
		SSEDescription:            m.SSE.api(),
	}
	tp := m.Throughput.api()
	// The count of decreases starts again at midnight UTC (DDB-TABLE-185).
	tp.NumberOfDecreasesToday = decreasesToday(m.Throughput, db.now())
	d.ProvisionedThroughput = &tp
	if m.BillingMode == dynamo.BillingModePayPerRequest {
		d.ProvisionedThroughput = &dynamo.ProvisionedThroughputDescription{NumberOfDecreasesToday: tp.NumberOfDecreasesToday}
		d.BillingModeSummary = &dynamo.BillingModeSummary{BillingMode: dynamo.BillingModePayPerRequest, LastUpdateToPayPerRequestDateTime: m.PayPerRequestSince}
	} else if m.BillingModeSet {
		// A table that was on demand keeps the time it last became so
		// (the ack-api-quirks lab, DDB-TABLE-058, 2026-10-08).
		d.BillingModeSummary = &dynamo.BillingModeSummary{BillingMode: dynamo.BillingModeProvisioned, LastUpdateToPayPerRequestDateTime: m.PayPerRequestSince}
	}
	if m.TableClass != "" {
		d.TableClassSummary = &dynamo.TableClassSummary{TableClass: m.TableClass, LastUpdateDateTime: m.TableClassUpdated}
	}
	if m.Stream != nil {
		d.StreamSpecification = m.Stream.api()
	}
	if m.StreamLabel != "" {
		d.LatestStreamLabel = m.StreamLabel
		d.LatestStreamArn = fmt.Sprintf("%s/stream/%s", t.arn(db), m.StreamLabel)
	}
	if err := db.describeIndexes(t, d); err != nil {
		return nil, err
	}
	db.transientIndexStatus(t, d)
	db.describeReplicas(t, d)
	// Only while the restore runs (the ack-api-quirks lab, DDB-TABLE-216).
	if r := m.Restore; r != nil && r.InProgress {
		d.RestoreSummary = &dynamo.RestoreSummary{SourceBackupArn: r.SourceBackupArn, SourceTableArn: r.SourceTableArn, RestoreDateTime: r.At, RestoreInProgress: r.InProgress}
	}
	return d, nil
}

// Warm throughput (the ack-api-quirks lab, recorded 2026-10-08):
//
//   - DescribeTable reports it on every table and GSI, never set or not,
//     Status ACTIVE: 12000 read and 4000 write units per second on an
//     on-demand table and its GSIs; on a PROVISIONED table or GSI its
//     provisioned capacity units (DDB-TABLE-134, -058, -061);
//   - it never drops: a throughput decrease leaves the highest value yet,
//     and so does a switch to PROVISIONED after on-demand (DDB-TABLE-061,
//     -134, -153); while a switch to PAY_PER_REQUEST runs (the table
//     UPDATING) the table keeps the value it had (DDB-TABLE-064);
//   - CreateTable's answer has none, on the table or its GSIs (DDB-TABLE-138
//     and the table-throughput-billing page's summary): describe leaves it
//     out, and DescribeTable and UpdateTable add it (withWarm). No
//     recording shows a DeleteTable answer's (nor a DELETING table's); it
//     stays without one, as e2e/tables_exact_test.go pins that answer.
//
// The high-water mark is the catalog's Warm of the table and of each GSI,
// raised by every UpdateTable (foldWarm) before it changes anything.

// warmUnits is a warm throughput's read and write units per second.
type warmUnits struct {
	Read  int64 `json:"read,omitempty"`
	Write int64 `json:"write,omitempty"`
}

// The warm throughput of on-demand tables and GSIs (DDB-TABLE-134).
var onDemandWarm = warmUnits{Read: 12000, Write: 4000}

func (w warmUnits) max(o warmUnits) warmUnits {
	return warmUnits{Read: max(w.Read, o.Read), Write: max(w.Write, o.Write)}
}

// tableWarm returns m's warm throughput now; switching says a switch to
// PAY_PER_REQUEST is still running.
func tableWarm(m *tableMeta, switching bool) warmUnits {
	switch {
	case switching && m.Warm != (warmUnits{}):
		return m.Warm
	case m.BillingMode == dynamo.BillingModePayPerRequest:
		return m.Warm.max(onDemandWarm)
	}
	return m.Warm.max(warmUnits{Read: m.Throughput.ReadCapacityUnits, Write: m.Throughput.WriteCapacityUnits})
}

// gsiWarm returns the warm throughput of a GSI of a table billed by mode.
func gsiWarm(x *indexMeta, mode string) warmUnits {
	if mode == dynamo.BillingModePayPerRequest || x.Throughput == nil {
		return x.Warm.max(onDemandWarm)
	}
	return x.Warm.max(warmUnits{Read: x.Throughput.ReadCapacityUnits, Write: x.Throughput.WriteCapacityUnits})
}

func warmDescription(w warmUnits) *dynamo.WarmThroughputDescription {
	return &dynamo.WarmThroughputDescription{ReadUnitsPerSecond: w.Read, WriteUnitsPerSecond: w.Write, Status: dynamo.TableStatusActive}
}

// warmShownDescription describes what the table (index "") or GSI of m
// shows, its value now being w: the value before a change still running,
// Status UPDATING (engine/warm_throughput.go).
func (db *DB) warmShownDescription(m *tableMeta, index string, w warmUnits) *dynamo.WarmThroughputDescription {
	shown, running := db.warmShown(m, index, w)
	d := warmDescription(shown)
	if running {
		d.Status = dynamo.TableStatusUpdating
	}
	return d
}

// switchingToOnDemand reports whether t is UPDATING for a switch to
// PAY_PER_REQUEST.
func (db *DB) switchingToOnDemand(t *table) bool {
	return t.meta.BillingMode == dynamo.BillingModePayPerRequest && db.updatingCause(t) == causeBilling
}

// foldWarm raises the high-water marks of m (a copy the caller owns, its
// Indexes cloned) to the warm throughput t has now.
func (db *DB) foldWarm(t *table, m *tableMeta) {
	m.Warm = tableWarm(&t.meta, db.switchingToOnDemand(t))
	for i := range m.Indexes {
		if m.Indexes[i].Global {
			m.Indexes[i].Warm = gsiWarm(&m.Indexes[i], t.meta.BillingMode)
		}
	}
}

// withWarm adds the warm throughput of t and its GSIs to d, t's
// description.
func (db *DB) withWarm(t *table, d *dynamo.TableDescription) {
	d.WarmThroughput = db.warmShownDescription(&t.meta, "", tableWarm(&t.meta, db.switchingToOnDemand(t)))
	for i := range d.GlobalSecondaryIndexes {
		g := &d.GlobalSecondaryIndexes[i]
		var x *indexMeta
		if ix := t.index(g.IndexName); ix != nil {
			x = &ix.meta
		} else if tr, ok := t.meta.IndexTransitions[g.IndexName]; ok && tr.Deleted != nil {
			x = tr.Deleted // DELETING
		}
		if x != nil {
			g.WarmThroughput = db.warmShownDescription(&t.meta, g.IndexName, gsiWarm(x, t.meta.BillingMode))
		}
	}
}
