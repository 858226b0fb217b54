package server

import (
	"sync"

	"github.com/dynago/dynago/dynamo"
)

// apiOperations is every operation of DynamoDB's API (version
// 2012-08-10), as AWS's service model lists them. docs/API.md says which
// of them dynago serves, which answer a stored state, and which it
// refuses; a test keeps the three lists and this one in step with the
// routing table.
var apiOperations = []string{
	"BatchExecuteStatement", "BatchGetItem", "BatchWriteItem",
	"CreateBackup", "CreateGlobalTable", "CreateTable",
	"DeleteBackup", "DeleteItem", "DeleteResourcePolicy", "DeleteTable",
	"DescribeBackup", "DescribeContinuousBackups", "DescribeContributorInsights",
	"DescribeEndpoints", "DescribeExport", "DescribeGlobalTable",
	"DescribeGlobalTableSettings", "DescribeImport",
	"DescribeKinesisStreamingDestination", "DescribeLimits", "DescribeTable",
	"DescribeTableReplicaAutoScaling", "DescribeTimeToLive",
	"DisableKinesisStreamingDestination", "EnableKinesisStreamingDestination",
	"ExecuteStatement", "ExecuteTransaction", "ExportTableToPointInTime",
	"GetItem", "GetResourcePolicy", "ImportTable",
	"ListBackups", "ListContributorInsights", "ListExports", "ListGlobalTables",
	"ListImports", "ListTables", "ListTagsOfResource",
	"PutItem", "PutResourcePolicy", "Query",
	"RestoreTableFromBackup", "RestoreTableToPointInTime", "Scan", "SearchVectors",
	"TagResource", "TransactGetItems", "TransactWriteItems", "UntagResource",
	"UpdateContinuousBackups", "UpdateContributorInsights", "UpdateGlobalTable",
	"UpdateGlobalTableSettings", "UpdateItem", "UpdateKinesisStreamingDestination",
	"UpdateTable", "UpdateTableReplicaAutoScaling", "UpdateTimeToLive",
}

// unservedOperations holds the operations of apiOperations that the
// server does not route, built at its first use.
var unservedOperations = sync.OnceValue(func() map[string]bool {
	served := operations()
	m := map[string]bool{}
	for _, name := range apiOperations {
		if served[name] == nil {
			m[name] = true
		}
	}
	return m
})

// unknownOperation is the answer to a target the server does not route:
// for an operation of DynamoDB's API that dynago does not serve, the
// UnknownOperationException DynamoDB gives where it does not serve one,
// with its text; for any other target, the message-less one DynamoDB
// gives a target that names no operation (recorded by dynalite's
// test/connection.js, https://github.com/architect/dynalite).
func unknownOperation(target string) *dynamo.Error {
	if len(target) > len(targetPrefix) && target[:len(targetPrefix)] == targetPrefix && unservedOperations()[target[len(targetPrefix):]] {
		return dynamo.UnknownOperationUnserved()
	}
	return dynamo.UnknownOperation()
}
