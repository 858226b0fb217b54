package protocol

import (
	"bytes"
	"strconv"

	"github.com/dynago/dynago/dynamo"
)

// DecodeSearchVectors parses a SearchVectors request body.
func DecodeSearchVectors(body []byte) (*dynamo.SearchVectorsInput, error) {
	in := &dynamo.SearchVectorsInput{NoTableName: true, NoIndexName: true}
	d := &decoder{data: body}
	err := d.root("SearchVectorsInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "IndexName":
			present, err := d.strPresent(&in.IndexName)
			in.NoIndexName = !present
			return err
		case "SearchVector":
			// A bare list of AttributeValues, not an L value (the
			// service model's SearchVectorList).
			return decodeList(d, &in.SearchVector, atField, attrElem)
		case "TopK":
			return d.topK(&in.TopK)
		case "SearchConditionExpression":
			return d.expression(&in.SearchConditionExpression, &in.EmptyExpressions, dynamo.ExprSearchCondition)
		case "ExpressionAttributeNames":
			return d.strMap(&in.ExpressionAttributeNames)
		case "ExpressionAttributeValues":
			return d.exprValues(&in.ExpressionAttributeValues)
		case "ProjectionExpression":
			return d.expression(&in.ProjectionExpression, &in.EmptyExpressions, dynamo.ExprProjection)
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		}
		return d.skipValue()
	})
	err = d.handOver(err, &in.ValueError)
	if err != nil {
		return nil, err
	}
	return in, nil
}

// topK reads SearchVectors' TopK, an integer. DynamoDB refuses a number
// with a fraction there with a SerializationException in the words of
// the JSON reader its search front uses, not the Java ones the other
// operations use: "invalid type: floating point `3.5`, expected i32 at
// line 1 column N" (nubo-db/dynoxide, tests/http_server.rs and
// src/actions/search_vectors.rs, branch feat/vector-indexes, captured
// from DynamoDB in eu-west-2 and us-east-1, 2026-08-13). Only the text
// up to the column's number is recorded; the line and column given are
// where the number ends, as that reader counts them (columns of bytes
// from 1), and a number with an exponent (3e0) is taken to be refused
// the same way, its value printed with a decimal point ("3.0").
func (d *decoder) topK(dst **int32) *dynamo.Error {
	start := d.pos
	if c := d.peek(); c == '-' || (c >= '0' && c <= '9') {
		_, text, err := d.token()
		if err != nil {
			return err
		}
		if bytes.ContainsAny(text, ".eE") {
			return serialization("invalid type: floating point `" + rustFloat(text) + "`, expected i32" + lineColumn(d.data, d.pos))
		}
		d.pos = start
	}
	return d.int32Ptr(dst)
}

// rustFloat prints a JSON number as the search front's reader prints a
// floating-point value: the shortest digits that read back as the
// double, in plain notation, with ".0" when they have no point.
func rustFloat(text []byte) string {
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		// A JSON number past a double's range.
		return string(text)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !bytes.ContainsRune([]byte(s), '.') {
		s += ".0"
	}
	return s
}

// lineColumn is " at line L column C" for the byte offset end of data.
func lineColumn(data []byte, end int) string {
	line, col := 1, end
	if i := bytes.LastIndexByte(data[:end], '\n'); i >= 0 {
		line += bytes.Count(data[:end], []byte{'\n'})
		col = end - i - 1
	}
	return " at line " + strconv.Itoa(line) + " column " + strconv.Itoa(col)
}

// EncodeSearchVectors appends SearchVectors' response body to dst.
// SearchResults is always present, empty when nothing was found (a
// search of an empty index answered {"SearchResults":[]}: dynoxide,
// tests/search_vectors.rs, from its captures); ConsumedCapacity is a
// VectorCapacity ({"VectorSearchRequestBytes":41714.0}, AWS's developer
// guide, VectorSearchMonitoring).
func EncodeSearchVectors(dst []byte, out *dynamo.SearchVectorsOutput) []byte {
	if out == nil {
		out = &dynamo.SearchVectorsOutput{}
	}
	dst = append(dst, '{')
	if c := out.ConsumedCapacity; c != nil {
		dst = appendVectorCapacity(member(dst, "ConsumedCapacity"), c)
	}
	dst = append(member(dst, "SearchResults"), '[')
	for i := range out.SearchResults {
		r := &out.SearchResults[i]
		dst = append(comma(dst), '{')
		dst = itemMember(dst, "Item", r.Item)
		dst = appendDouble(member(dst, "Score"), r.Score)
		dst = append(dst, '}')
	}
	return append(dst, ']', '}')
}

// appendVectorCapacity appends a VectorCapacity structure.
func appendVectorCapacity(dst []byte, c *dynamo.VectorCapacity) []byte {
	dst = append(dst, '{')
	dst = doublePtrMember(dst, "VectorSearchRequestBytes", c.VectorSearchRequestBytes)
	dst = doublePtrMember(dst, "VectorWriteRequestBytes", c.VectorWriteRequestBytes)
	return append(dst, '}')
}
