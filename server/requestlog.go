package server

import (
	"context"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/dynago/dynago/dynamo"
)

// What the server records of each request: its outcome for the metrics
// (Config.Metrics), and at debug level one log line with the operation,
// table, index, HTTP status, error type, latency, capacity units and
// request id. Nothing from the body but table and index names is logged,
// and no header: signatures and keys never reach the log.

// answer wraps a request's ResponseWriter to learn its status and the
// error type answered (writeErrorStatus sets it).
type answer struct {
	http.ResponseWriter
	status  int
	errType string
}

func (a *answer) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
	}
	a.ResponseWriter.WriteHeader(code)
}

func (a *answer) Write(p []byte) (int, error) {
	if a.status == 0 {
		a.status = http.StatusOK
	}
	return a.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection's deadlines.
func (a *answer) Unwrap() http.ResponseWriter { return a.ResponseWriter }

// noteError records the error type of an answer, when w is an answer.
func noteError(w http.ResponseWriter, code string) {
	if a, ok := w.(*answer); ok {
		a.errType = code
	}
}

// requestNote is what an operation tells the log about its request.
type requestNote struct {
	table, index string
	units        float64
	unitsKnown   bool
}

// observing reports whether requests are recorded at all: metrics on, or
// the log at debug level.
func (s *Server) observing() bool {
	return s.metrics != nil || s.debug
}

// finish records a request answered: the metrics, and the debug log line.
func (s *Server) finish(a *answer, op, reqID string, note *requestNote, start time.Time) {
	d := time.Since(start)
	s.metrics.observe(op, a.errType, d)
	if !s.debug {
		return
	}
	attrs := make([]slog.Attr, 0, 9)
	attrs = append(attrs, slog.String("operation", op))
	if note != nil && note.table != "" {
		attrs = append(attrs, slog.String("table", note.table))
	}
	if note != nil && note.index != "" {
		attrs = append(attrs, slog.String("index", note.index))
	}
	status := a.status
	if status == 0 {
		status = http.StatusOK
	}
	attrs = append(attrs, slog.Int("status", status))
	if a.errType != "" {
		attrs = append(attrs, slog.String("error", a.errType))
	}
	attrs = append(attrs, slog.Duration("latency", d))
	if note != nil && note.unitsKnown {
		attrs = append(attrs, slog.Float64("units", note.units))
	}
	attrs = append(attrs, slog.String("request_id", reqID))
	s.log.LogAttrs(context.Background(), slog.LevelDebug, "request", attrs...)
}

// tableOf names the table and index a request is about: "" when it names
// none; the names joined by "," for a batch or transaction over several.
func tableOf(in any) (table, index string) {
	join := func(names map[string]bool) string {
		l := make([]string, 0, len(names))
		for n := range names {
			l = append(l, n)
		}
		sort.Strings(l)
		return strings.Join(l, ",")
	}
	switch v := in.(type) {
	case *dynamo.GetItemInput:
		return v.TableName, ""
	case *dynamo.PutItemInput:
		return v.TableName, ""
	case *dynamo.UpdateItemInput:
		return v.TableName, ""
	case *dynamo.DeleteItemInput:
		return v.TableName, ""
	case *dynamo.QueryInput:
		return v.TableName, v.IndexName
	case *dynamo.ScanInput:
		return v.TableName, v.IndexName
	case *dynamo.CreateTableInput:
		return v.TableName, ""
	case *dynamo.DescribeTableInput:
		return v.TableName, ""
	case *dynamo.DeleteTableInput:
		return v.TableName, ""
	case *dynamo.UpdateTableInput:
		return v.TableName, ""
	case *dynamo.UpdateTimeToLiveInput:
		return v.TableName, ""
	case *dynamo.DescribeTimeToLiveInput:
		return v.TableName, ""
	case *dynamo.CreateBackupInput:
		return v.TableName, ""
	case *dynamo.ListBackupsInput:
		return v.TableName, ""
	case *dynamo.RestoreTableFromBackupInput:
		return v.TargetTableName, ""
	case *dynamo.UpdateContinuousBackupsInput:
		return v.TableName, ""
	case *dynamo.DescribeContinuousBackupsInput:
		return v.TableName, ""
	case *dynamo.RestoreTableToPointInTimeInput:
		return v.TargetTableName, ""
	case *dynamo.ExportTableToPointInTimeInput:
		return tableOfArn(v.TableArn), ""
	case *dynamo.ListExportsInput:
		return tableOfArn(v.TableArn), ""
	case *dynamo.ListImportsInput:
		return tableOfArn(v.TableArn), ""
	case *dynamo.ImportTableInput:
		if p := v.TableCreationParameters; p != nil {
			return p.TableName, ""
		}
		return "", ""
	case *dynamo.BatchGetItemInput:
		names := map[string]bool{}
		for n := range v.RequestItems {
			names[n] = true
		}
		return join(names), ""
	case *dynamo.BatchWriteItemInput:
		names := map[string]bool{}
		for n := range v.RequestItems {
			names[n] = true
		}
		return join(names), ""
	case *dynamo.TransactWriteItemsInput:
		names := map[string]bool{}
		for _, it := range v.TransactItems {
			switch {
			case it.Put != nil:
				names[it.Put.TableName] = true
			case it.Update != nil:
				names[it.Update.TableName] = true
			case it.Delete != nil:
				names[it.Delete.TableName] = true
			case it.ConditionCheck != nil:
				names[it.ConditionCheck.TableName] = true
			}
		}
		return join(names), ""
	case *dynamo.TransactGetItemsInput:
		names := map[string]bool{}
		for _, it := range v.TransactItems {
			if it.Get != nil {
				names[it.Get.TableName] = true
			}
		}
		return join(names), ""
	}
	return "", ""
}

// askCapacity makes a request that did not ask for its ConsumedCapacity
// ask for the total, so the log can show the units; it reports whether
// the client asked itself (then the answer keeps it). A mode the client
// sent that is not NONE is left for the engine to accept or refuse.
func askCapacity(in any) (asked bool) {
	var mode *string
	switch v := in.(type) {
	case *dynamo.GetItemInput:
		mode = &v.ReturnConsumedCapacity
	case *dynamo.PutItemInput:
		mode = &v.ReturnConsumedCapacity
	case *dynamo.UpdateItemInput:
		mode = &v.ReturnConsumedCapacity
	case *dynamo.DeleteItemInput:
		mode = &v.ReturnConsumedCapacity
	case *dynamo.QueryInput:
		mode = &v.ReturnConsumedCapacity
	case *dynamo.ScanInput:
		mode = &v.ReturnConsumedCapacity
	case *dynamo.BatchGetItemInput:
		mode = &v.ReturnConsumedCapacity
	case *dynamo.BatchWriteItemInput:
		mode = &v.ReturnConsumedCapacity
	case *dynamo.TransactWriteItemsInput:
		mode = &v.ReturnConsumedCapacity
	case *dynamo.TransactGetItemsInput:
		mode = &v.ReturnConsumedCapacity
	case *dynamo.ExecuteStatementInput:
		mode = &v.ReturnConsumedCapacity
	case *dynamo.BatchExecuteStatementInput:
		mode = &v.ReturnConsumedCapacity
	case *dynamo.ExecuteTransactionInput:
		mode = &v.ReturnConsumedCapacity
	default:
		return true
	}
	if *mode != "" && *mode != dynamo.ReturnConsumedCapacityNone {
		return true
	}
	*mode = dynamo.ReturnConsumedCapacityTotal
	return false
}

// unitsOf adds up the capacity an answer reports, and, when the client
// did not ask for it (asked false), takes it out of the answer.
func unitsOf(out any, asked bool) (units float64, known bool) {
	one := func(cc **dynamo.ConsumedCapacity) {
		if *cc != nil && (*cc).CapacityUnits != nil {
			units, known = units+*(*cc).CapacityUnits, true
		}
		if !asked {
			*cc = nil
		}
	}
	many := func(ccs *[]dynamo.ConsumedCapacity) {
		for _, cc := range *ccs {
			if cc.CapacityUnits != nil {
				units, known = units+*cc.CapacityUnits, true
			}
		}
		if !asked {
			*ccs = nil
		}
	}
	switch v := out.(type) {
	case *dynamo.GetItemOutput:
		one(&v.ConsumedCapacity)
	case *dynamo.PutItemOutput:
		one(&v.ConsumedCapacity)
	case *dynamo.UpdateItemOutput:
		one(&v.ConsumedCapacity)
	case *dynamo.DeleteItemOutput:
		one(&v.ConsumedCapacity)
	case *dynamo.QueryOutput:
		one(&v.ConsumedCapacity)
	case *dynamo.ScanOutput:
		one(&v.ConsumedCapacity)
	case *dynamo.ExecuteStatementOutput:
		one(&v.ConsumedCapacity)
	case *dynamo.BatchGetItemOutput:
		many(&v.ConsumedCapacity)
	case *dynamo.BatchWriteItemOutput:
		many(&v.ConsumedCapacity)
	case *dynamo.TransactWriteItemsOutput:
		many(&v.ConsumedCapacity)
	case *dynamo.TransactGetItemsOutput:
		many(&v.ConsumedCapacity)
	case *dynamo.BatchExecuteStatementOutput:
		many(&v.ConsumedCapacity)
	case *dynamo.ExecuteTransactionOutput:
		many(&v.ConsumedCapacity)
	}
	return units, known
}

// tableOfArn is the table name of a table's ARN
// (arn:aws:dynamodb:<region>:<account>:table/<name>), "" for anything
// else.
func tableOfArn(arn string) string {
	_, rest, ok := strings.Cut(arn, ":table/")
	if !ok || !strings.HasPrefix(arn, "arn:") {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}
