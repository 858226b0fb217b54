package engine

import (
	"fmt"
	"github.com/dynago/dynago/dynamo"
)

// DescribeLimits returns DynamoDB's default account and table quotas. dynago
// enforces the table ones (capacityCap), not the account's; clients that size their requests by them see the
// numbers they would see on AWS.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeLimits.html
func (db *DB) DescribeLimits() (*dynamo.DescribeLimitsOutput, error) {
	return run(db, opDescribeLimits, db.describeLimits)
}

func (db *DB) describeLimits() (*dynamo.DescribeLimitsOutput, error) {
	return &dynamo.DescribeLimitsOutput{
		AccountMaxReadCapacityUnits:  80000,
		AccountMaxWriteCapacityUnits: 80000,
		TableMaxReadCapacityUnits:    tableMaxCapacityUnits,
		TableMaxWriteCapacityUnits:   tableMaxCapacityUnits,
	}, nil
}

// DescribeEndpoints answers endpoint discovery with the address clients
// already use: address is the host (and port) the request came to. A cache
// period of 1440 minutes is what DynamoDB returns.
func (db *DB) DescribeEndpoints(address string) (*dynamo.DescribeEndpointsOutput, error) {
	return run(db, opDescribeEndpoints, func() (*dynamo.DescribeEndpointsOutput, error) { return db.describeEndpoints(address) })
}

func (db *DB) describeEndpoints(address string) (*dynamo.DescribeEndpointsOutput, error) {
	return &dynamo.DescribeEndpointsOutput{Endpoints: []dynamo.Endpoint{{Address: address, CachePeriodInMinutes: 1440}}}, nil
}

// Per-table and per-index provisioned capacity caps, DescribeLimits'
// TableMax numbers: a table's throughput and each global secondary
// index's are checked apart (a table at the cap may have indexes at it
// too), with LimitExceededException (the ack-api-quirks lab, DDB-TABLE-170,
// 2026-10-08: CreateTable and UpdateTable of the table, CreateTable of an
// index). Reads are checked before writes. The lab quotes the index text
// up to "Per table maximum: 40000. ..."; its tail is taken to be the table
// text's.
const (
	tableMaxCapacityUnits = 40000
	msgCapacityLimitTail  = "Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits."
)

// capacityCap returns the LimitExceededException of throughput p over the
// caps, for the table (index "") or for the index named index.
func (db *DB) capacityCap(index string, p *dynamo.ProvisionedThroughput) error {
	if p == nil {
		return nil
	}
	for _, u := range []struct {
		name  string
		value int64
	}{{"ReadCapacityUnits", p.ReadCapacityUnits}, {"WriteCapacityUnits", p.WriteCapacityUnits}} {
		if u.value <= tableMaxCapacityUnits {
			continue
		}
		var msg string
		if index == "" {
			msg = fmt.Sprintf("The requested %s, %d, is above the per table maximum for the account in %s. Per table maximum: %d. %s",
				u.name, u.value, db.opts.Region, tableMaxCapacityUnits, msgCapacityLimitTail)
		} else {
			msg = fmt.Sprintf("The requested %s for index %s, %d, is above the per index maximum for the account in %s. Per table maximum: %d. %s",
				u.name, index, u.value, db.opts.Region, tableMaxCapacityUnits, msgCapacityLimitTail)
		}
		return dynamo.LimitExceeded(msg)
	}
	return nil
}

// How many restores, imports and exports may be in progress at once in an
// account: 50 restores (the API reference of RestoreTableFromBackup: "up
// to 50 concurrent restores (any type of restore) in a given account"),
// 50 imports (LimitExceededException: "up to 50 simultaneous import table
// operations are allowed per account") and 300 exports (the developer
// guide's quotas for export to Amazon S3). Beyond them DynamoDB answers
// LimitExceededException; no recording of its texts was found, so the
// texts are dynago's, in the form of its other subscriber limits. On a
// shared store two nodes starting one at the same moment may each admit
// it at the limit: the count is of the jobs the store holds.
const (
	maxRestoresInProgress = 50
	maxImportsInProgress  = 50
	maxExportsInProgress  = 300
)

func msgTooManyJobs(n int, what string) string {
	return fmt.Sprintf("Subscriber limit exceeded: Only %d %s can be in progress at a time in an account", n, what)
}

// checkJobLimit returns LimitExceededException when a restore (what
// "restores"), an import or an export would go past its limit.
func (db *DB) checkJobLimit(what string) error {
	var n, max int
	switch what {
	case "restores":
		jobs, err := db.restoreJobs()
		if err != nil {
			return err
		}
		n, max = len(jobs), maxRestoresInProgress
	case "imports":
		all, err := db.allImports()
		if err != nil {
			return err
		}
		for _, im := range all {
			if im.Desc.ImportStatus == dynamo.ImportStatusInProgress {
				n++
			}
		}
		max = maxImportsInProgress
	case "exports":
		all, err := db.allExports()
		if err != nil {
			return err
		}
		for _, em := range all {
			if em.Desc.ExportStatus == dynamo.ExportStatusInProgress {
				n++
			}
		}
		max = maxExportsInProgress
	}
	if n >= max {
		return dynamo.LimitExceeded(msgTooManyJobs(max, what))
	}
	return nil
}
