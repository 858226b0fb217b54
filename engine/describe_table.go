package engine

import "fmt"

// DescribeTable describes a table.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTable.html
func (db *DB) DescribeTable(in *DescribeTableInput) (*DescribeTableOutput, error) {
	// On a shared store, describe the table as the store has it now.
	db.refreshShared(in.TableName)
	return db.describeTable(in)
}

func (db *DB) describeTable(in *DescribeTableInput) (*DescribeTableOutput, error) {
	if db.closed.Load() {
		return nil, ErrClosed
	}
	if in.NoTableName {
		return nil, Validation(MsgTableNameRequired)
	}
	var c constraints
	c.tableOpName(in.TableName)
	if err := c.err(); err != nil {
		return nil, err
	}
	t := db.lookup(in.TableName)
	if t == nil {
		return nil, tableNotFound(in.TableName)
	}
	var desc *TableDescription
	var err error
	if status := db.tableStatus(t); status == TableStatusDeleting {
		desc, err = db.describeDeleting(t)
	} else {
		desc, err = db.describe(t, status)
	}
	if err != nil {
		return nil, err
	}
	return &DescribeTableOutput{Table: desc}, nil
}

// tableNotFound is the error of the table operations (DescribeTable,
// DeleteTable, UpdateTable) for a missing table; item operations say only
// "Requested resource not found".
func tableNotFound(name string) error {
	if badTableARN(name) {
		return invalidTableARN(name)
	}
	return NotFound(fmt.Sprintf("Requested resource not found: Table: %s not found", tableNameFromARN(name)))
}

// describe builds a table's description with the given status.
func (db *DB) describe(t *table, status string) (*TableDescription, error) {
	m := &t.meta
	count, size, err := db.stats(t)
	if err != nil {
		return nil, err
	}
	dp := m.DeletionProtection
	d := &TableDescription{
		AttributeDefinitions:      m.AttributeDefinitions,
		TableName:                 m.Name,
		KeySchema:                 m.KeySchema,
		TableStatus:               status,
		CreationDateTime:          m.Created,
		TableSizeBytes:            size,
		ItemCount:                 count,
		TableArn:                  t.arn(db),
		TableId:                   m.UUID,
		DeletionProtectionEnabled: &dp,
		OnDemandThroughput:        m.OnDemand,
		SSEDescription:            m.SSE,
	}
	tp := m.Throughput
	// The count of decreases starts again at midnight UTC (DDB-TABLE-185).
	tp.NumberOfDecreasesToday = decreasesToday(tp, db.now())
	d.ProvisionedThroughput = &tp
	if m.BillingMode == BillingModePayPerRequest {
		d.ProvisionedThroughput = &ProvisionedThroughputDescription{NumberOfDecreasesToday: tp.NumberOfDecreasesToday}
		d.BillingModeSummary = &BillingModeSummary{BillingMode: BillingModePayPerRequest, LastUpdateToPayPerRequestDateTime: m.PayPerRequestSince}
	} else if m.BillingModeSet {
		// A table that was on demand keeps the time it last became so
		// (the ack-api-quirks lab, DDB-TABLE-058, 2026-10-08).
		d.BillingModeSummary = &BillingModeSummary{BillingMode: BillingModeProvisioned, LastUpdateToPayPerRequestDateTime: m.PayPerRequestSince}
	}
	if m.TableClass != "" {
		d.TableClassSummary = &TableClassSummary{TableClass: m.TableClass, LastUpdateDateTime: m.TableClassUpdated}
	}
	if m.Stream != nil {
		d.StreamSpecification = m.Stream
	}
	if m.StreamLabel != "" {
		d.LatestStreamLabel = m.StreamLabel
		d.LatestStreamArn = fmt.Sprintf("%s/stream/%s", t.arn(db), m.StreamLabel)
	}
	if err := db.describeIndexes(t, d); err != nil {
		return nil, err
	}
	db.transientIndexStatus(t, d)
	return d, nil
}
