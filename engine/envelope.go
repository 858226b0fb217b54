package engine

import (
	"errors"
	"github.com/dynago/dynago/dynamo"
)

// The envelope: what every public operation does around its own work,
// written once (run) and told apart by a line of traits per operation
// (opTraits). An operation's input checks and work are an unexported
// method; its public method is one call of run, given a closure that
// calls it. (A closure rather than the method itself: run calls what it
// is given without knowing it, so a method value's argument would escape
// to the heap, where the closure's captures stay in the caller's frame.)

// op names a public operation, an index into opTraits.
type op uint8

const (
	opGetItem op = iota
	opPutItem
	opDeleteItem
	opUpdateItem
	opQuery
	opScan
	opBatchGetItem
	opBatchWriteItem
	opTransactGetItems
	opTransactWriteItems
	opCreateTable
	opDeleteTable
	opUpdateTable
	opDescribeTable
	opListTables
	opDescribeLimits
	opDescribeEndpoints
	opTagResource
	opUntagResource
	opListTagsOfResource
	opUpdateTimeToLive
	opDescribeTimeToLive
	opListStreams
	opDescribeStream
	opGetShardIterator
	opGetRecords
	opCreateBackup
	opDescribeBackup
	opListBackups
	opDeleteBackup
	opRestoreTableFromBackup
	opUpdateContinuousBackups
	opDescribeContinuousBackups
	opRestoreTableToPointInTime
	opExportTableToPointInTime
	opDescribeExport
	opListExports
	opImportTable
	opDescribeImport
	opListImports
	opDescribeContributorInsights
	opUpdateContributorInsights
	opListContributorInsights
	opDescribeGlobalTable
	opDescribeGlobalTableSettings
	opListGlobalTables
	opDescribeTableReplicaAutoScaling
	opPutResourcePolicy
	opGetResourcePolicy
	opDeleteResourcePolicy
	opEnableKinesisStreamingDestination
	opDescribeKinesisStreamingDestination
	opDisableKinesisStreamingDestination
	opUpdateKinesisStreamingDestination
	opUpdateTableReplicaAutoScaling
	opSearchVectors
	numOps
)

// traits is what run does around one operation.
type traits struct {
	// retry runs the operation again from the start, on a catalog read
	// afresh, when it meets another node's write on a shared store: an
	// item or a table another node changed, a table another node deleted
	// and created again under the same name since this node read it, a
	// DDL's catalog entry changed before its commit (engine/shared.go).
	retry bool
	// closedFirst answers ErrClosed before any check of the input; the
	// other operations meet a closed database where they reach the
	// catalog, after their input's checks.
	closedFirst bool
	// answer rewords the operation's error for the client.
	answer answer
	// countCanceled counts a canceled transaction in the meters.
	countCanceled bool
}

// answer is how run rewords an operation's error.
type answer uint8

const (
	// answerAsIs leaves the error as it is.
	answerAsIs answer = iota
	// answerCurrent answers a value's own problem in the current
	// validation layer's words (currentLayer).
	answerCurrent
	// answerCurrentEnveloped is answerCurrent inside the envelope the
	// single-item writes report their request's problems in.
	answerCurrentEnveloped
)

// opTraits holds each operation's traits.
var opTraits = [numOps]traits{
	opGetItem:            {answer: answerCurrent},
	opPutItem:            {retry: true, answer: answerCurrentEnveloped},
	opDeleteItem:         {retry: true, answer: answerCurrentEnveloped},
	opUpdateItem:         {retry: true, answer: answerCurrentEnveloped},
	opQuery:              {answer: answerCurrent},
	opScan:               {},
	opBatchGetItem:       {answer: answerCurrent},
	opBatchWriteItem:     {retry: true},
	opTransactGetItems:   {},
	opTransactWriteItems: {retry: true, countCanceled: true},
	opCreateTable:        {retry: true, closedFirst: true},
	opDeleteTable:        {retry: true, closedFirst: true},
	opUpdateTable:        {retry: true, closedFirst: true},
	opDescribeTable:      {closedFirst: true},
	opListTables:         {closedFirst: true},
	opDescribeLimits:     {closedFirst: true},
	opDescribeEndpoints:  {closedFirst: true},
	opTagResource:        {retry: true},
	opUntagResource:      {retry: true},
	opListTagsOfResource: {},
	opUpdateTimeToLive:   {retry: true, closedFirst: true},
	opDescribeTimeToLive: {closedFirst: true},
	opListStreams:        {closedFirst: true},
	opDescribeStream:     {closedFirst: true},
	opGetShardIterator:   {closedFirst: true},
	opGetRecords:         {closedFirst: true},

	opCreateBackup:              {retry: true, closedFirst: true},
	opDescribeBackup:            {closedFirst: true},
	opListBackups:               {closedFirst: true},
	opDeleteBackup:              {retry: true, closedFirst: true},
	opRestoreTableFromBackup:    {retry: true, closedFirst: true},
	opUpdateContinuousBackups:   {retry: true, closedFirst: true},
	opDescribeContinuousBackups: {closedFirst: true},
	opRestoreTableToPointInTime: {retry: true, closedFirst: true},
	opExportTableToPointInTime:  {retry: true, closedFirst: true},
	opDescribeExport:            {closedFirst: true},
	opListExports:               {closedFirst: true},
	opImportTable:               {retry: true, closedFirst: true},
	opDescribeImport:            {closedFirst: true},
	opListImports:               {closedFirst: true},

	opDescribeContributorInsights: {closedFirst: true},
	opUpdateContributorInsights:   {retry: true, closedFirst: true},
	opListContributorInsights:     {closedFirst: true},

	opDescribeGlobalTable:             {closedFirst: true},
	opDescribeGlobalTableSettings:     {closedFirst: true},
	opListGlobalTables:                {closedFirst: true},
	opDescribeTableReplicaAutoScaling: {closedFirst: true},

	opPutResourcePolicy:             {retry: true, closedFirst: true},
	opGetResourcePolicy:             {closedFirst: true},
	opDeleteResourcePolicy:          {retry: true, closedFirst: true},
	opUpdateTableReplicaAutoScaling: {closedFirst: true},

	opEnableKinesisStreamingDestination:   {retry: true, closedFirst: true},
	opDescribeKinesisStreamingDestination: {closedFirst: true},
	opDisableKinesisStreamingDestination:  {closedFirst: true},
	opUpdateKinesisStreamingDestination:   {closedFirst: true},

	opSearchVectors: {answer: answerCurrent},
}

// run runs f, the work of operation o, within the envelope o's traits
// describe. On a store only this process writes, no operation meets a
// conflict, and none runs twice.
func run[Out any](db *DB, o op, f func() (Out, error)) (Out, error) {
	tr := &opTraits[o]
	var out Out
	var err error
	for attempt := 0; ; attempt++ {
		if tr.closedFirst && db.closed.Load() {
			var zero Out
			out, err = zero, ErrClosed
		} else {
			out, err = f()
		}
		if err == nil || !tr.retry || !errorsIsConflict(err) || attempt >= conflictAttempts {
			break
		}
		if rerr := db.reloadCatalog(); rerr != nil {
			err = rerr
			break
		}
		db.meters.conflictRetries.Add(1)
		conflictBackoff(attempt)
	}
	if err == nil {
		return out, nil
	}
	if tr.countCanceled {
		var e *dynamo.Error
		if errors.As(err, &e) && e.Code == dynamo.CodeTransactionCanceled {
			db.meters.txCanceled.Add(1)
		}
	}
	switch tr.answer {
	case answerCurrent:
		err = currentLayer(err, false)
	case answerCurrentEnveloped:
		err = currentLayer(err, true)
	}
	return out, err
}
