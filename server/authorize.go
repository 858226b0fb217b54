package server

import (
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/partiql"
)

// With --auth, a request's signer is checked against the resource-based
// policies of the tables and streams it acts on (engine.CheckAccess)
// before the operation runs: an explicit Deny is answered
// AccessDeniedException; anything else is allowed, as dynago has no
// identity-based policies (docs/AUTH.md). The action is the operation's
// IAM action, on the resource IAM checks it on: the table, or the index
// a Query or Scan names, or the stream; a transaction's actions are
// those of its items (PutItem, UpdateItem, DeleteItem,
// ConditionCheckItem, GetItem), as IAM authorizes them; a PartiQL
// statement's is PartiQLSelect, PartiQLInsert, PartiQLUpdate or
// PartiQLDelete (partiql.Access). A table without a policy costs one
// catalog lookup per table of the request (and a statement one lookup
// of the statement cache, whose parse the operation then reuses).
//
// Operations not listed here (those on backups, exports and imports by
// their own ARNs, and the account's lists) are not checked.

// authorize answers the first explicit deny among the tables and streams
// in acts on, or nil.
func authorize(db *engine.DB, caller *engine.Caller, in any) error {
	check := func(action, table, index string) error { return db.CheckAccess(caller, action, table, index) }
	switch v := in.(type) {
	case *dynamo.GetItemInput:
		return check("GetItem", v.TableName, "")
	case *dynamo.PutItemInput:
		return check("PutItem", v.TableName, "")
	case *dynamo.UpdateItemInput:
		return check("UpdateItem", v.TableName, "")
	case *dynamo.DeleteItemInput:
		return check("DeleteItem", v.TableName, "")
	case *dynamo.QueryInput:
		return check("Query", v.TableName, v.IndexName)
	case *dynamo.ScanInput:
		return check("Scan", v.TableName, v.IndexName)
	case *dynamo.SearchVectorsInput:
		return check("SearchVectors", v.TableName, v.IndexName)
	case *dynamo.BatchGetItemInput:
		return firstDenied(v.RequestItems, "BatchGetItem", check)
	case *dynamo.BatchWriteItemInput:
		return firstDenied(v.RequestItems, "BatchWriteItem", check)
	case *dynamo.TransactGetItemsInput:
		for _, it := range v.TransactItems {
			if it.Get != nil {
				if err := check("GetItem", it.Get.TableName, ""); err != nil {
					return err
				}
			}
		}
	case *dynamo.TransactWriteItemsInput:
		for _, it := range v.TransactItems {
			var err error
			switch {
			case it.Put != nil:
				err = check("PutItem", it.Put.TableName, "")
			case it.Update != nil:
				err = check("UpdateItem", it.Update.TableName, "")
			case it.Delete != nil:
				err = check("DeleteItem", it.Delete.TableName, "")
			case it.ConditionCheck != nil:
				err = check("ConditionCheckItem", it.ConditionCheck.TableName, "")
			}
			if err != nil {
				return err
			}
		}
	case *dynamo.DescribeTableInput:
		return check("DescribeTable", v.TableName, "")
	case *dynamo.UpdateTableInput:
		return check("UpdateTable", v.TableName, "")
	case *dynamo.DeleteTableInput:
		return check("DeleteTable", v.TableName, "")
	case *dynamo.DescribeTimeToLiveInput:
		return check("DescribeTimeToLive", v.TableName, "")
	case *dynamo.UpdateTimeToLiveInput:
		return check("UpdateTimeToLive", v.TableName, "")
	case *dynamo.TagResourceInput:
		return check("TagResource", v.ResourceArn, "")
	case *dynamo.UntagResourceInput:
		return check("UntagResource", v.ResourceArn, "")
	case *dynamo.ListTagsOfResourceInput:
		return check("ListTagsOfResource", v.ResourceArn, "")
	case *dynamo.CreateBackupInput:
		return check("CreateBackup", v.TableName, "")
	case *dynamo.DescribeContinuousBackupsInput:
		return check("DescribeContinuousBackups", v.TableName, "")
	case *dynamo.UpdateContinuousBackupsInput:
		return check("UpdateContinuousBackups", v.TableName, "")
	case *dynamo.ExportTableToPointInTimeInput:
		return check("ExportTableToPointInTime", v.TableArn, "")
	case *dynamo.DescribeContributorInsightsInput:
		return check("DescribeContributorInsights", v.TableName, v.IndexName)
	case *dynamo.UpdateContributorInsightsInput:
		return check("UpdateContributorInsights", v.TableName, v.IndexName)
	case *dynamo.PutResourcePolicyInput:
		return policyAccess(db, caller, "PutResourcePolicy", v.ResourceArn)
	case *dynamo.GetResourcePolicyInput:
		return policyAccess(db, caller, "GetResourcePolicy", v.ResourceArn)
	case *dynamo.DeleteResourcePolicyInput:
		return policyAccess(db, caller, "DeleteResourcePolicy", v.ResourceArn)
	case *dynamo.ExecuteStatementInput:
		return statementAccess(db, caller, v.Statement)
	case *dynamo.BatchExecuteStatementInput:
		// A denied statement is its slot's error, AccessDenied, as a
		// batch reports each statement's failure
		// (API_BatchStatementError's codes).
		for i := range v.Statements {
			v.Statements[i].Denied = statementAccess(db, caller, v.Statements[i].Statement)
		}
	case *dynamo.ExecuteTransactionInput:
		for i := range v.TransactStatements {
			if err := statementAccess(db, caller, v.TransactStatements[i].Statement); err != nil {
				return err
			}
		}
	case *dynamo.DescribeStreamInput:
		return db.CheckStreamAccess(caller, "DescribeStream", v.StreamArn)
	case *dynamo.GetShardIteratorInput:
		return db.CheckStreamAccess(caller, "GetShardIterator", v.StreamArn)
	case *dynamo.GetRecordsInput:
		return db.CheckStreamAccess(caller, "GetRecords", streamOfIterator(v.ShardIterator))
	}
	return nil
}

// statementAccess checks a PartiQL statement as IAM authorizes it
// (partiql.Access); one that does not parse is left to its operation.
func statementAccess(db *engine.DB, caller *engine.Caller, statement string) error {
	action, table, index, ok := partiql.Access(db, statement)
	if !ok {
		return nil
	}
	return db.CheckAccess(caller, action, table, index)
}

// policyAccess checks a policy operation on a table's ARN or a stream's.
func policyAccess(db *engine.DB, caller *engine.Caller, action, arn string) error {
	if err := db.CheckStreamAccess(caller, action, arn); err != nil {
		return err
	}
	return db.CheckAccess(caller, action, arn, "")
}

// firstDenied checks the tables of a batch; of several denied, it
// answers for the first in name order, so the answer does not depend on
// the order a map is walked in.
func firstDenied[V any](tables map[string]V, action string, check func(action, table, index string) error) error {
	var first error
	var firstName string
	for table := range tables {
		if err := check(action, table, ""); err != nil && (first == nil || table < firstName) {
			first, firstName = err, table
		}
	}
	return first
}

// streamOfIterator is the stream ARN a shard iterator starts with
// (engine/stream_read.go: "<stream ARN>|1|<base64>").
func streamOfIterator(it string) string {
	for i := 0; i+3 <= len(it); i++ {
		if it[i] == '|' && it[i+1:i+3] == "1|" {
			return it[:i]
		}
	}
	return ""
}
