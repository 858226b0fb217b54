package server

import (
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/partiql"
	"github.com/dynago/dynago/server/internal/protocol"
)

// operations maps each X-Amz-Target operation name to its handler.
func operations() map[string]opFunc {
	return map[string]opFunc{
		"CreateTable":        handle(protocol.DecodeCreateTable, (*engine.DB).CreateTable, protocol.EncodeCreateTable),
		"DescribeTable":      handle(protocol.DecodeDescribeTable, (*engine.DB).DescribeTable, protocol.EncodeDescribeTable),
		"DeleteTable":        handle(protocol.DecodeDeleteTable, (*engine.DB).DeleteTable, protocol.EncodeDeleteTable),
		"ListTables":         handle(protocol.DecodeListTables, (*engine.DB).ListTables, protocol.EncodeListTables),
		"UpdateTable":        handle(protocol.DecodeUpdateTable, (*engine.DB).UpdateTable, protocol.EncodeUpdateTable),
		"ListTagsOfResource": handle(protocol.DecodeListTagsOfResource, (*engine.DB).ListTagsOfResource, protocol.EncodeListTagsOfResource),
		"TagResource":        handleEmpty(protocol.DecodeTagResource, (*engine.DB).TagResource, protocol.EncodeTagResource),
		"UntagResource":      handleEmpty(protocol.DecodeUntagResource, (*engine.DB).UntagResource, protocol.EncodeUntagResource),
		"DescribeLimits": func(s *Server, c *inflight, body, dst []byte) ([]byte, error) {
			if err := s.injectPlain(c); err != nil {
				return dst, err
			}
			out, err := c.db.DescribeLimits()
			if err != nil {
				return dst, err
			}
			return protocol.EncodeDescribeLimits(dst, out), nil
		},
		"DescribeEndpoints": func(s *Server, c *inflight, body, dst []byte) ([]byte, error) {
			if err := s.injectPlain(c); err != nil {
				return dst, err
			}
			out, err := c.db.DescribeEndpoints(c.r.Host)
			if err != nil {
				return dst, err
			}
			return protocol.EncodeDescribeEndpoints(dst, out), nil
		},
		"PutItem":            handle(protocol.DecodePutItem, (*engine.DB).PutItem, protocol.EncodePutItem),
		"GetItem":            handleBuffered(protocol.DecodeGetItem, getItemEncoded, protocol.EncodeGetItem),
		"UpdateItem":         handle(protocol.DecodeUpdateItem, (*engine.DB).UpdateItem, protocol.EncodeUpdateItem),
		"DeleteItem":         handle(protocol.DecodeDeleteItem, (*engine.DB).DeleteItem, protocol.EncodeDeleteItem),
		"BatchGetItem":       handle(protocol.DecodeBatchGetItem, (*engine.DB).BatchGetItem, protocol.EncodeBatchGetItem),
		"BatchWriteItem":     handle(protocol.DecodeBatchWriteItem, (*engine.DB).BatchWriteItem, protocol.EncodeBatchWriteItem),
		"Query":              handleBuffered(protocol.DecodeQuery, queryEncoded, protocol.EncodeQuery),
		"Scan":               handleBuffered(protocol.DecodeScan, scanEncoded, protocol.EncodeScan),
		"TransactWriteItems": handle(protocol.DecodeTransactWriteItems, (*engine.DB).TransactWriteItems, protocol.EncodeTransactWriteItems),
		"TransactGetItems":   handle(protocol.DecodeTransactGetItems, (*engine.DB).TransactGetItems, protocol.EncodeTransactGetItems),
		// Vector search (engine/search_vectors.go). On AWS the SDKs send it
		// to a host of its own; given an endpoint, they send it there.
		"SearchVectors":      handle(protocol.DecodeSearchVectors, (*engine.DB).SearchVectors, protocol.EncodeSearchVectors),
		"UpdateTimeToLive":   handle(protocol.DecodeUpdateTimeToLive, (*engine.DB).UpdateTimeToLive, protocol.EncodeUpdateTimeToLive),
		"DescribeTimeToLive": handle(protocol.DecodeDescribeTimeToLive, (*engine.DB).DescribeTimeToLive, protocol.EncodeDescribeTimeToLive),
		// On-demand backups and point-in-time recovery.
		"CreateBackup":              handle(protocol.DecodeCreateBackup, (*engine.DB).CreateBackup, protocol.EncodeCreateBackup),
		"DescribeBackup":            handle(protocol.DecodeDescribeBackup, (*engine.DB).DescribeBackup, protocol.EncodeDescribeBackup),
		"ListBackups":               handle(protocol.DecodeListBackups, (*engine.DB).ListBackups, protocol.EncodeListBackups),
		"DeleteBackup":              handle(protocol.DecodeDeleteBackup, (*engine.DB).DeleteBackup, protocol.EncodeDeleteBackup),
		"RestoreTableFromBackup":    handle(protocol.DecodeRestoreTableFromBackup, (*engine.DB).RestoreTableFromBackup, protocol.EncodeRestoreTableFromBackup),
		"UpdateContinuousBackups":   handle(protocol.DecodeUpdateContinuousBackups, (*engine.DB).UpdateContinuousBackups, protocol.EncodeUpdateContinuousBackups),
		"DescribeContinuousBackups": handle(protocol.DecodeDescribeContinuousBackups, (*engine.DB).DescribeContinuousBackups, protocol.EncodeDescribeContinuousBackups),
		"RestoreTableToPointInTime": handle(protocol.DecodeRestoreTableToPointInTime, (*engine.DB).RestoreTableToPointInTime, protocol.EncodeRestoreTableToPointInTime),
		// Exports to and imports from S3.
		"ExportTableToPointInTime": handle(protocol.DecodeExportTableToPointInTime, (*engine.DB).ExportTableToPointInTime, protocol.EncodeExportTableToPointInTime),
		"DescribeExport":           handle(protocol.DecodeDescribeExport, (*engine.DB).DescribeExport, protocol.EncodeDescribeExport),
		"ListExports":              handle(protocol.DecodeListExports, (*engine.DB).ListExports, protocol.EncodeListExports),
		"ImportTable":              handle(protocol.DecodeImportTable, (*engine.DB).ImportTable, protocol.EncodeImportTable),
		"DescribeImport":           handle(protocol.DecodeDescribeImport, (*engine.DB).DescribeImport, protocol.EncodeDescribeImport),
		"ListImports":              handle(protocol.DecodeListImports, (*engine.DB).ListImports, protocol.EncodeListImports),
		// Contributor Insights: the state is stored (engine/insights.go).
		"DescribeContributorInsights": handle(protocol.DecodeDescribeContributorInsights, (*engine.DB).DescribeContributorInsights, protocol.EncodeDescribeContributorInsights),
		"UpdateContributorInsights":   handle(protocol.DecodeUpdateContributorInsights, (*engine.DB).UpdateContributorInsights, protocol.EncodeUpdateContributorInsights),
		"ListContributorInsights":     handle(protocol.DecodeListContributorInsights, (*engine.DB).ListContributorInsights, protocol.EncodeListContributorInsights),
		// Resource-based policies, stored with the table (engine/policy.go).
		"PutResourcePolicy":    handle(protocol.DecodePutResourcePolicy, (*engine.DB).PutResourcePolicy, protocol.EncodePutResourcePolicy),
		"GetResourcePolicy":    handle(protocol.DecodeGetResourcePolicy, (*engine.DB).GetResourcePolicy, protocol.EncodeGetResourcePolicy),
		"DeleteResourcePolicy": handle(protocol.DecodeDeleteResourcePolicy, (*engine.DB).DeleteResourcePolicy, protocol.EncodeDeleteResourcePolicy),
		// Global tables: dynago has none (engine/global_tables.go).
		"DescribeGlobalTable":             handle(protocol.DecodeDescribeGlobalTable, (*engine.DB).DescribeGlobalTable, protocol.EncodeDescribeGlobalTable),
		"DescribeGlobalTableSettings":     handle(protocol.DecodeDescribeGlobalTableSettings, (*engine.DB).DescribeGlobalTableSettings, protocol.EncodeDescribeGlobalTableSettings),
		"ListGlobalTables":                handle(protocol.DecodeListGlobalTables, (*engine.DB).ListGlobalTables, protocol.EncodeListGlobalTables),
		"DescribeTableReplicaAutoScaling": handle(protocol.DecodeDescribeTableReplicaAutoScaling, (*engine.DB).DescribeTableReplicaAutoScaling, protocol.EncodeDescribeTableReplicaAutoScaling),
		"UpdateTableReplicaAutoScaling":   handle(protocol.DecodeUpdateTableReplicaAutoScaling, (*engine.DB).UpdateTableReplicaAutoScaling, protocol.EncodeUpdateTableReplicaAutoScaling),
		// Kinesis streaming destinations: stored, never delivered to (engine/kinesis.go).
		"EnableKinesisStreamingDestination":   handle(protocol.DecodeEnableKinesisStreamingDestination, (*engine.DB).EnableKinesisStreamingDestination, protocol.EncodeEnableKinesisStreamingDestination),
		"DescribeKinesisStreamingDestination": handle(protocol.DecodeDescribeKinesisStreamingDestination, (*engine.DB).DescribeKinesisStreamingDestination, protocol.EncodeDescribeKinesisStreamingDestination),
		"DisableKinesisStreamingDestination":  handle(protocol.DecodeDisableKinesisStreamingDestination, (*engine.DB).DisableKinesisStreamingDestination, protocol.EncodeDisableKinesisStreamingDestination),
		"UpdateKinesisStreamingDestination":   handle(protocol.DecodeUpdateKinesisStreamingDestination, (*engine.DB).UpdateKinesisStreamingDestination, protocol.EncodeUpdateKinesisStreamingDestination),
		// PartiQL (package partiql, which runs statements on the engine).
		"ExecuteStatement":      handle(protocol.DecodeExecuteStatement, partiql.ExecuteStatement, protocol.EncodeExecuteStatement),
		"BatchExecuteStatement": handle(protocol.DecodeBatchExecuteStatement, partiql.BatchExecuteStatement, protocol.EncodeBatchExecuteStatement),
		"ExecuteTransaction":    handle(protocol.DecodeExecuteTransaction, partiql.ExecuteTransaction, protocol.EncodeExecuteTransaction),
	}
}

// streamOperations maps each operation of the DynamoDB Streams API
// (X-Amz-Target DynamoDBStreams_20120810.<op>) to its handler.
func streamOperations() map[string]opFunc {
	return map[string]opFunc{
		"ListStreams":      handle(protocol.DecodeListStreams, (*engine.DB).ListStreams, protocol.EncodeListStreams),
		"DescribeStream":   handle(protocol.DecodeDescribeStream, (*engine.DB).DescribeStream, protocol.EncodeDescribeStream),
		"GetShardIterator": handle(protocol.DecodeGetShardIterator, (*engine.DB).GetShardIterator, protocol.EncodeGetShardIterator),
		"GetRecords":       handle(protocol.DecodeGetRecords, (*engine.DB).GetRecords, protocol.EncodeGetRecords),
	}
}

// scanEncoded is Scan asking for the items it returns whole in their
// stored encoding, copied into buf as far as it goes, which EncodeScan
// writes without decoding them.
func scanEncoded(db *engine.DB, in *dynamo.ScanInput, buf []byte) (*dynamo.ScanOutput, error) {
	in.EncodedItems, in.EncodedBuffer = true, buf
	return db.Scan(in)
}

// getItemEncoded is GetItem asking for its item as scanEncoded does.
func getItemEncoded(db *engine.DB, in *dynamo.GetItemInput, buf []byte) (*dynamo.GetItemOutput, error) {
	in.EncodedItem, in.EncodedBuffer = true, buf
	return db.GetItem(in)
}

// queryEncoded is Query asking for its items as scanEncoded does.
func queryEncoded(db *engine.DB, in *dynamo.QueryInput, buf []byte) (*dynamo.QueryOutput, error) {
	in.EncodedItems, in.EncodedBuffer = true, buf
	return db.Query(in)
}

// handle builds the handler of an operation from its decoder, engine
// method and encoder.
func handle[In, Out any](
	decode func([]byte) (*In, error),
	run func(*engine.DB, *In) (*Out, error),
	encode func([]byte, *Out) []byte,
) opFunc {
	return handleWith(decode, func(db *engine.DB, in *In, _ []byte) (*Out, error) { return run(db, in) }, encode, false)
}

// handleBuffered is handle for an operation whose engine call is given a
// buffer of the item pool (getItemBuf) to copy the items it returns into
// (the inputs' EncodedBuffer): the buffer goes back to the pool once the
// output, which may alias it, is encoded.
func handleBuffered[In, Out any](
	decode func([]byte) (*In, error),
	run func(*engine.DB, *In, []byte) (*Out, error),
	encode func([]byte, *Out) []byte,
) opFunc {
	return handleWith(decode, run, encode, true)
}

// handleWith is handle, or with buffered handleBuffered.
func handleWith[In, Out any](
	decode func([]byte) (*In, error),
	run func(*engine.DB, *In, []byte) (*Out, error),
	encode func([]byte, *Out) []byte,
	buffered bool,
) opFunc {
	return func(s *Server, c *inflight, body, dst []byte) ([]byte, error) {
		in, err := decode(body)
		s.releaseBody(c)
		if err != nil {
			return dst, err
		}
		if c.signed {
			if err := authorize(c.db, &c.caller, in); err != nil {
				return dst, err
			}
		}
		var restore func(any)
		if inj := s.faults.Load(); inj != nil {
			if restore, err = s.injectFault(c, inj, in); err != nil {
				return dst, err
			}
		}
		if err := s.take(c, responseReserve(in)); err != nil {
			return dst, err
		}
		asked := true
		if c.note != nil {
			c.note.table, c.note.index = tableOf(in)
			if s.debug {
				asked = askCapacity(in)
			}
		}
		var buf []byte
		var page *protocol.PageWriter
		if buffered && len(dst) == 0 && largePage(in) {
			// A page that may be a megabyte: the items it returns
			// whole are written to its answer, in a page buffer, as
			// the engine reads them, neither copied nor collected.
			putBuf(dst)
			page = protocol.NewPageWriter(getPageBuf())
			setPageSink(in, page.Item)
		} else if buffered {
			buf = getItemBuf()
			defer putItemBuf(buf)
		}
		out, err := run(c.db, in, buf)
		if err != nil {
			if page != nil {
				dst = page.Abandon()
			}
			return dst, err
		}
		if restore != nil {
			restore(out)
		}
		if c.note != nil && s.debug {
			c.note.units, c.note.unitsKnown = unitsOf(out, asked)
		}
		if page != nil {
			p, ok := writtenPage(out)
			if !ok {
				// Read otherwise (a projection, Select COUNT): encoded
				// as any answer, into a small buffer.
				putPageBuf(page.Abandon())
				return encode(getBuf(), out), nil
			}
			buf, answer := page.Finish(p.Count, p.ScannedCount, p.LastEvaluatedKey, p.ConsumedCapacity)
			if len(answer) <= pooledBufferBytes {
				// A small answer (a short table, a filter that kept
				// little) goes to a small buffer, so that it holds no
				// more of the budget than it did before.
				small := append(getBuf(), answer...)
				putPageBuf(buf)
				return small, nil
			}
			c.pageBuf = buf
			return answer, nil
		}
		return encode(dst, out), nil
	}
}

// largePageItems is the Limit past which a Query or Scan page is read
// into page buffers (pagePool): 64 items of 16 KB fill a megabyte.
const largePageItems = 64

// largePage reports whether in is a Query or Scan whose page may come
// near DynamoDB's 1 MB: one without a Limit, or with a large one.
func largePage(in any) bool {
	var limit *int32
	switch v := in.(type) {
	case *dynamo.ScanInput:
		limit = v.Limit
	case *dynamo.QueryInput:
		limit = v.Limit
	default:
		return false
	}
	return limit == nil || *limit > largePageItems
}

// setPageSink makes a Query or Scan input give the items it returns
// whole to sink as they are read (EncodedSink).
func setPageSink(in any, sink func([]byte) error) {
	switch v := in.(type) {
	case *dynamo.ScanInput:
		v.EncodedSink = sink
	case *dynamo.QueryInput:
		v.EncodedSink = sink
	}
}

// writtenPage returns a Query or Scan output as a ScanOutput, and whether
// its items went to the input's EncodedSink: none in Items (nil for
// Select COUNT), and the empty EncodedItems the engine leaves then.
func writtenPage(out any) (*dynamo.ScanOutput, bool) {
	var p *dynamo.ScanOutput
	switch v := out.(type) {
	case *dynamo.ScanOutput:
		p = v
	case *dynamo.QueryOutput:
		p = &dynamo.ScanOutput{Items: v.Items, Count: v.Count, ScannedCount: v.ScannedCount,
			LastEvaluatedKey: v.LastEvaluatedKey, ConsumedCapacity: v.ConsumedCapacity, EncodedItems: v.EncodedItems}
	default:
		return nil, false
	}
	return p, p.Items == nil && p.EncodedItems != nil && len(p.EncodedItems) == 0
}

// handleEmpty is handle for operations whose successful response has an
// empty body (TagResource, UntagResource): encode appends nothing.
func handleEmpty[In any](decode func([]byte) (*In, error), run func(*engine.DB, *In) error, encode func([]byte) []byte) opFunc {
	return func(s *Server, c *inflight, body, dst []byte) ([]byte, error) {
		in, err := decode(body)
		s.releaseBody(c)
		if err != nil {
			return dst, err
		}
		if c.signed {
			if err := authorize(c.db, &c.caller, in); err != nil {
				return dst, err
			}
		}
		if err := s.take(c, responseReserve(in)); err != nil {
			return dst, err
		}
		if err := run(c.db, in); err != nil {
			return dst, err
		}
		return encode(dst), nil
	}
}

// Response sizes reserved from the budget before an operation runs, so
// that a crowd of requests with large answers waits or is throttled
// before the engine builds them, not after. The reserve is the most the
// answer may hold by DynamoDB's limits, as far as the request tells;
// JSON can make an answer larger than the data it reports, and what the
// encoded answer takes beyond its reserve is accounted for once it is
// known.
const (
	maxItemBytes       = 400 << 10 // DynamoDB's item size limit
	pageReserve        = 1 << 20   // Query, Scan, GetRecords and ListBackups pages stop at 1 MB
	maxResponseReserve = 16 << 20  // BatchGetItem answers stop at 16 MB
	transactGetReserve = 4 << 20   // TransactGetItems answers stop at 4 MB
	smallReserve       = 64 << 10  // any other answer, before it is known
)

// responseReserve returns the bytes to reserve for the answer to in.
func responseReserve(in any) int64 {
	items := func(n int, limit int64) int64 { return min(int64(n)*maxItemBytes, limit) }
	switch v := in.(type) {
	case *dynamo.GetItemInput:
		return maxItemBytes
	case *dynamo.BatchGetItemInput:
		n := 0
		for _, ka := range v.RequestItems {
			n += len(ka.Keys)
		}
		return max(items(n, maxResponseReserve), smallReserve)
	case *dynamo.TransactGetItemsInput:
		return max(items(len(v.TransactItems), transactGetReserve), smallReserve)
	case *dynamo.QueryInput:
		if v.Limit != nil && *v.Limit > 0 {
			return max(items(int(*v.Limit), pageReserve), smallReserve)
		}
		return pageReserve
	case *dynamo.ScanInput:
		if v.Limit != nil && *v.Limit > 0 {
			return max(items(int(*v.Limit), pageReserve), smallReserve)
		}
		return pageReserve
	case *dynamo.GetRecordsInput:
		return pageReserve
	case *dynamo.ListBackupsInput:
		// "at most 1 MB worth of items in a page" (API_ListBackups).
		return pageReserve
	case *dynamo.ExecuteStatementInput:
		return pageReserve
	case *dynamo.BatchExecuteStatementInput:
		return max(items(len(v.Statements), maxResponseReserve), smallReserve)
	case *dynamo.ExecuteTransactionInput:
		return max(items(len(v.TransactStatements), transactGetReserve), smallReserve)
	}
	return smallReserve
}
