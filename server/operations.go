package server

import (
	"net/http"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/internal/protocol"
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
		"DescribeLimits": func(s *Server, r *http.Request, body, dst []byte) ([]byte, error) {
			out, err := s.db.DescribeLimits()
			if err != nil {
				return dst, err
			}
			return protocol.EncodeDescribeLimits(dst, out), nil
		},
		"DescribeEndpoints": func(s *Server, r *http.Request, body, dst []byte) ([]byte, error) {
			out, err := s.db.DescribeEndpoints(r.Host)
			if err != nil {
				return dst, err
			}
			return protocol.EncodeDescribeEndpoints(dst, out), nil
		},
		"PutItem":            handle(protocol.DecodePutItem, (*engine.DB).PutItem, protocol.EncodePutItem),
		"GetItem":            handle(protocol.DecodeGetItem, (*engine.DB).GetItem, protocol.EncodeGetItem),
		"UpdateItem":         handle(protocol.DecodeUpdateItem, (*engine.DB).UpdateItem, protocol.EncodeUpdateItem),
		"DeleteItem":         handle(protocol.DecodeDeleteItem, (*engine.DB).DeleteItem, protocol.EncodeDeleteItem),
		"BatchGetItem":       handle(protocol.DecodeBatchGetItem, (*engine.DB).BatchGetItem, protocol.EncodeBatchGetItem),
		"BatchWriteItem":     handle(protocol.DecodeBatchWriteItem, (*engine.DB).BatchWriteItem, protocol.EncodeBatchWriteItem),
		"Query":              handle(protocol.DecodeQuery, (*engine.DB).Query, protocol.EncodeQuery),
		"Scan":               handle(protocol.DecodeScan, (*engine.DB).Scan, protocol.EncodeScan),
		"TransactWriteItems": handle(protocol.DecodeTransactWriteItems, (*engine.DB).TransactWriteItems, protocol.EncodeTransactWriteItems),
		"TransactGetItems":   handle(protocol.DecodeTransactGetItems, (*engine.DB).TransactGetItems, protocol.EncodeTransactGetItems),
		"UpdateTimeToLive":   handle(protocol.DecodeUpdateTimeToLive, (*engine.DB).UpdateTimeToLive, protocol.EncodeUpdateTimeToLive),
		"DescribeTimeToLive": handle(protocol.DecodeDescribeTimeToLive, (*engine.DB).DescribeTimeToLive, protocol.EncodeDescribeTimeToLive),
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

// handle builds the handler of an operation from its decoder, engine
// method and encoder.
func handle[In, Out any](
	decode func([]byte) (*In, error),
	run func(*engine.DB, *In) (*Out, error),
	encode func([]byte, *Out) []byte,
) opFunc {
	return func(s *Server, r *http.Request, body, dst []byte) ([]byte, error) {
		in, err := decode(body)
		if err != nil {
			return dst, err
		}
		out, err := run(s.db, in)
		if err != nil {
			return dst, err
		}
		return encode(dst, out), nil
	}
}

// handleEmpty is handle for operations whose successful response has an
// empty body (TagResource, UntagResource): encode appends nothing.
func handleEmpty[In any](decode func([]byte) (*In, error), run func(*engine.DB, *In) error, encode func([]byte) []byte) opFunc {
	return func(s *Server, r *http.Request, body, dst []byte) ([]byte, error) {
		in, err := decode(body)
		if err != nil {
			return dst, err
		}
		if err := run(s.db, in); err != nil {
			return dst, err
		}
		return encode(dst), nil
	}
}
