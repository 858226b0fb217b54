package engine

import (
	"slices"
	"time"

	"github.com/dynago/dynago/dynamo"
)

// Kinesis Data Streams for DynamoDB: a table's streaming destinations,
// stored in its catalog entry. dynago has no Kinesis to write to, so a
// destination never becomes ACTIVE: it is what DynamoDB makes of a
// stream it cannot use. DynamoDB accepts any well-formed ARN at once
// (200, ENABLING) and fails it about two seconds later, as ENABLE_FAILED
// with the description "User does not have a permission to use kinesis
// stream", for a stream that does not exist, one it may not write to, or
// another service's ARN (the ack-api-quirks lab, DDB-TABLE-318 and
// DDB-TABLE-268, recorded 2026-10-09). Here the ENABLING lasts the
// server's transient delay (Options.TransientDelay; none by default).
//
// The rest follows DynamoDB's rules for the entries (DDB-TABLE-268, -299,
// -301, -302): a table has at most one destination ENABLING, ACTIVE,
// UPDATING or DISABLING, and any number of DISABLED or ENABLE_FAILED
// ones; Enable is refused while one is live, and flips an existing entry
// of the same stream rather than adding a second; Disable and Update act
// only on an ACTIVE destination, so here they always answer DynamoDB's
// refusal for one that is not. DescribeTable says nothing of them
// (DDB-TABLE-299).
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_EnableKinesisStreamingDestination.html

// kinesisMeta is one destination of a table.
type kinesisMeta struct {
	StreamArn string `json:"stream"`
	// Precision is the ApproximateCreationDateTimePrecision the Enable
	// that made it set, "" when it set none (DynamoDB describes none
	// then, DDB-TABLE-300).
	Precision string `json:"precision,omitempty"`
	// Enabled is when it was last enabled.
	Enabled time.Time `json:"enabled"`
}

// msgKinesisPermission is DynamoDB's description of a destination whose
// stream it cannot use (DDB-TABLE-268, DDB-TABLE-318).
const msgKinesisPermission = "User does not have a permission to use kinesis stream"

// Refusals of the destination operations, each a ValidationException
// (the ack-api-quirks catalogue of ValidationException texts,
// DDB-TABLE-442, and DDB-TABLE-268, -299, -300, -301, -302).
const (
	msgKinesisState          = "Table is not in a valid state to enable Kinesis Streaming Destination: "
	msgKinesisEnableState    = msgKinesisState + "EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform ENABLE operation."
	msgKinesisDisableState   = msgKinesisState + "KinesisStreamingDestination must be ACTIVE to perform DISABLE operation."
	msgKinesisDisableConfig  = "Stream cannot be disabled using EnableKinesisStreamingConfiguration parameters"
	msgKinesisUpdateNoConfig = "Streaming destination cannot be updated with given parameters: UpdateKinesisStreamingConfiguration cannot be null or contain only null values"
)

func msgKinesisUpdateState(table, arn string) string {
	return msgKinesisState + "Kinesis streaming is not in ACTIVE state. Updates are only allowed in ACTIVE state. TableName: " + table + ", kdsArn: " + arn
}

func msgKinesisNoDestination(table, arn string) string {
	return msgKinesisState + "No streaming destination with streamArn: " + arn + " found for table with tableName: " + table
}

// kinesisStatus is the status x shows at now.
func (db *DB) kinesisStatus(x kinesisMeta, now time.Time) string {
	if db.opts.TransientDelay > 0 && now.Before(x.Enabled.Add(db.opts.TransientDelay)) {
		return dynamo.DestinationStatusEnabling
	}
	return dynamo.DestinationStatusEnableFailed
}

// kinesisChecks checks the members Enable, Disable and Update share:
// TableName (a name or the table's ARN) and StreamArn, 37 to 1024
// characters (AWS's service model).
func kinesisChecks(c *constraints, tableName, streamArn string, noStreamArn bool) {
	c.tableOpName(tableName)
	if noStreamArn {
		c.notNull("streamArn")
	} else {
		c.length("streamArn", streamArn, 37, 1024)
	}
}

// precisionCheck checks an ApproximateCreationDateTimePrecision at field.
func precisionCheck(c *constraints, field string, cfg *dynamo.KinesisStreamingConfiguration) {
	if cfg != nil {
		c.enum(field+".approximateCreationDateTimePrecision", cfg.ApproximateCreationDateTimePrecision,
			dynamo.PrecisionMillisecond, dynamo.PrecisionMicrosecond)
	}
}

// EnableKinesisStreamingDestination starts streaming a table's changes to
// a Kinesis data stream: the destination is stored, ENABLING, and fails
// as DynamoDB fails a stream it cannot use.
func (db *DB) EnableKinesisStreamingDestination(in *dynamo.KinesisStreamingDestinationInput) (*dynamo.KinesisStreamingDestinationOutput, error) {
	return run(db, opEnableKinesisStreamingDestination, func() (*dynamo.KinesisStreamingDestinationOutput, error) {
		return db.enableKinesis(in)
	})
}

func (db *DB) enableKinesis(in *dynamo.KinesisStreamingDestinationInput) (*dynamo.KinesisStreamingDestinationOutput, error) {
	if in.NoTableName {
		return nil, dynamo.Validation(dynamo.MsgTableNameRequired)
	}
	var c constraints
	kinesisChecks(&c, in.TableName, in.StreamArn, in.NoStreamArn)
	precisionCheck(&c, "enableKinesisStreamingConfiguration", in.EnableKinesisStreamingConfiguration)
	if err := c.err(); err != nil {
		return nil, err
	}

	db.ddl.Lock()
	defer db.ddl.Unlock()
	t, err := db.freshTable(in.TableName)
	if err != nil {
		return nil, err
	}
	now := db.now()
	for _, x := range t.meta.Kinesis {
		if db.kinesisStatus(x, now) == dynamo.DestinationStatusEnabling {
			return nil, dynamo.Validation(msgKinesisEnableState)
		}
	}
	cfg := dynamo.KinesisStreamingConfiguration{}
	if in.EnableKinesisStreamingConfiguration != nil {
		cfg = *in.EnableKinesisStreamingConfiguration
	}
	// The newest destination comes first, as DynamoDB lists them
	// (DDB-TABLE-268); a stream enabled before keeps its one entry.
	dests := []kinesisMeta{{StreamArn: in.StreamArn, Precision: cfg.ApproximateCreationDateTimePrecision, Enabled: now}}
	for _, x := range t.meta.Kinesis {
		if x.StreamArn != in.StreamArn {
			dests = append(dests, x)
		}
	}
	m := t.meta // copy; the old *table stays valid for readers holding it
	m.Kinesis = dests
	if err := db.commitMeta(m); err != nil {
		return nil, err
	}
	return &dynamo.KinesisStreamingDestinationOutput{TableName: t.meta.Name, StreamArn: in.StreamArn,
		DestinationStatus: dynamo.DestinationStatusEnabling, EnableKinesisStreamingConfiguration: &cfg}, nil
}

// commitMeta stores m as its table's catalog entry; the caller holds
// db.ddl.
func (db *DB) commitMeta(m tableMeta) error {
	b := db.store.NewBatch()
	defer b.Close()
	next, err := db.putTableLocked(b, newTable(m))
	if err != nil {
		return err
	}
	if err := b.Commit(); err != nil {
		return err
	}
	db.tables.Store(&next)
	return nil
}

// DescribeKinesisStreamingDestination lists a table's destinations.
func (db *DB) DescribeKinesisStreamingDestination(in *dynamo.DescribeKinesisStreamingDestinationInput) (*dynamo.DescribeKinesisStreamingDestinationOutput, error) {
	return run(db, opDescribeKinesisStreamingDestination, func() (*dynamo.DescribeKinesisStreamingDestinationOutput, error) {
		if in.NoTableName {
			return nil, dynamo.Validation(dynamo.MsgTableNameRequired)
		}
		var c constraints
		c.tableOpName(in.TableName)
		if err := c.err(); err != nil {
			return nil, err
		}
		t, err := db.freshTable(in.TableName)
		if err != nil {
			return nil, err
		}
		now := db.now()
		out := &dynamo.DescribeKinesisStreamingDestinationOutput{TableName: t.meta.Name,
			KinesisDataStreamDestinations: make([]dynamo.KinesisDataStreamDestination, 0, len(t.meta.Kinesis))}
		for _, x := range t.meta.Kinesis {
			d := dynamo.KinesisDataStreamDestination{StreamArn: x.StreamArn, DestinationStatus: db.kinesisStatus(x, now),
				ApproximateCreationDateTimePrecision: x.Precision}
			if d.DestinationStatus == dynamo.DestinationStatusEnableFailed {
				d.DestinationStatusDescription = msgKinesisPermission
			}
			out.KinesisDataStreamDestinations = append(out.KinesisDataStreamDestinations, d)
		}
		return out, nil
	})
}

// DisableKinesisStreamingDestination stops streaming to a destination,
// which DynamoDB does only for an ACTIVE one: here, none.
func (db *DB) DisableKinesisStreamingDestination(in *dynamo.KinesisStreamingDestinationInput) (*dynamo.KinesisStreamingDestinationOutput, error) {
	return run(db, opDisableKinesisStreamingDestination, func() (*dynamo.KinesisStreamingDestinationOutput, error) {
		if in.NoTableName {
			return nil, dynamo.Validation(dynamo.MsgTableNameRequired)
		}
		var c constraints
		kinesisChecks(&c, in.TableName, in.StreamArn, in.NoStreamArn)
		if err := c.err(); err != nil {
			return nil, err
		}
		if _, err := db.freshTable(in.TableName); err != nil {
			return nil, err
		}
		if in.EnableKinesisStreamingConfiguration != nil {
			return nil, dynamo.Validation(msgKinesisDisableConfig)
		}
		// A destination never enabled, a malformed ARN and one not ACTIVE
		// get the same answer (DDB-TABLE-302).
		return nil, dynamo.Validation(msgKinesisDisableState)
	})
}

// UpdateKinesisStreamingDestination changes a destination's precision,
// which DynamoDB does only for an ACTIVE one: here, none.
func (db *DB) UpdateKinesisStreamingDestination(in *dynamo.UpdateKinesisStreamingDestinationInput) (*dynamo.UpdateKinesisStreamingDestinationOutput, error) {
	return run(db, opUpdateKinesisStreamingDestination, func() (*dynamo.UpdateKinesisStreamingDestinationOutput, error) {
		if in.NoTableName {
			return nil, dynamo.Validation(dynamo.MsgTableNameRequired)
		}
		var c constraints
		kinesisChecks(&c, in.TableName, in.StreamArn, in.NoStreamArn)
		precisionCheck(&c, "updateKinesisStreamingConfiguration", in.UpdateKinesisStreamingConfiguration)
		if err := c.err(); err != nil {
			return nil, err
		}
		t, err := db.freshTable(in.TableName)
		if err != nil {
			return nil, err
		}
		if cfg := in.UpdateKinesisStreamingConfiguration; cfg == nil || cfg.ApproximateCreationDateTimePrecision == "" {
			return nil, dynamo.Validation(msgKinesisUpdateNoConfig)
		}
		if !slices.ContainsFunc(t.meta.Kinesis, func(x kinesisMeta) bool { return x.StreamArn == in.StreamArn }) {
			return nil, dynamo.Validation(msgKinesisNoDestination(t.meta.Name, in.StreamArn))
		}
		return nil, dynamo.Validation(msgKinesisUpdateState(t.meta.Name, in.StreamArn))
	})
}
