package protocol

import (
	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: decoders
// and encoders.

// statementMember reads a Statement member, recording a null one as
// absent.
func (d *decoder) statementMember(dst *string, absent *bool) *dynamo.Error {
	present, err := d.strPresent(dst)
	*absent = !present
	return err
}

// parameters reads a statement's Parameters, under qlParams (see attrMap).
func (d *decoder) parameters(dst *[]attr.Value) *dynamo.Error {
	d.qlParams = true
	err := decodeList(d, dst, atField, attrElem)
	d.qlParams = false
	return err
}

// DecodeExecuteStatement decodes an ExecuteStatement request body.
func DecodeExecuteStatement(body []byte) (*dynamo.ExecuteStatementInput, error) {
	in := &dynamo.ExecuteStatementInput{NoStatement: true}
	d := &decoder{data: body}
	err := d.root("ExecuteStatementInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "Statement":
			return d.statementMember(&in.Statement, &in.NoStatement)
		case "Parameters":
			return d.parameters(&in.Parameters)
		case "ConsistentRead":
			_, err := d.boolean(&in.ConsistentRead)
			return err
		case "NextToken":
			return d.optStr(&in.NextToken, &in.NextTokenSet)
		case "Limit":
			return d.int32Ptr(&in.Limit)
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		case "ReturnValuesOnConditionCheckFailure":
			return d.str(&in.ReturnValuesOnConditionCheckFailure)
		}
		return d.skipValue()
	})
	if err = d.handOver(err, &in.ValueError); err != nil {
		return nil, err
	}
	return in, nil
}

// EncodeExecuteStatement appends ExecuteStatement's response body to dst.
// Items is always sent, [] when empty.
func EncodeExecuteStatement(dst []byte, out *dynamo.ExecuteStatementOutput) []byte {
	if out == nil {
		out = &dynamo.ExecuteStatementOutput{}
	}
	dst = append(dst, '{')
	dst = consumedMember(dst, out.ConsumedCapacity)
	dst = append(member(dst, "Items"), '[')
	for _, it := range out.Items {
		dst = appendItem(comma(dst), it)
	}
	dst = append(dst, ']')
	dst = itemMember(dst, "LastEvaluatedKey", out.LastEvaluatedKey)
	dst = strMember(dst, "NextToken", out.NextToken)
	return append(dst, '}')
}

func batchStatementElem(d *decoder, s *dynamo.BatchStatementRequest) *dynamo.Error {
	s.NoStatement = true
	_, err := d.object("BatchStatementRequest", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "Statement":
			return d.statementMember(&s.Statement, &s.NoStatement)
		case "Parameters":
			return d.parameters(&s.Parameters)
		case "ConsistentRead":
			_, err := d.boolean(&s.ConsistentRead)
			return err
		case "ReturnValuesOnConditionCheckFailure":
			return d.str(&s.ReturnValuesOnConditionCheckFailure)
		}
		return d.skipValue()
	})
	return err
}

// DecodeBatchExecuteStatement decodes a BatchExecuteStatement request body.
func DecodeBatchExecuteStatement(body []byte) (*dynamo.BatchExecuteStatementInput, error) {
	in := new(dynamo.BatchExecuteStatementInput)
	d := &decoder{data: body}
	err := d.root("BatchExecuteStatementInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "Statements":
			return decodeList(d, &in.Statements, atField, batchStatementElem)
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		}
		return d.skipValue()
	})
	if err = d.handOver(err, &in.ValueError); err != nil {
		return nil, err
	}
	return in, nil
}

// EncodeBatchExecuteStatement appends BatchExecuteStatement's response
// body to dst: one object per statement, with its Error or its TableName
// and Item.
func EncodeBatchExecuteStatement(dst []byte, out *dynamo.BatchExecuteStatementOutput) []byte {
	if out == nil {
		out = &dynamo.BatchExecuteStatementOutput{}
	}
	dst = append(dst, '{')
	dst = consumedListMember(dst, out.ConsumedCapacity)
	dst = append(member(dst, "Responses"), '[')
	for i := range out.Responses {
		r := &out.Responses[i]
		dst = append(comma(dst), '{')
		if r.Error != nil {
			dst = append(member(dst, "Error"), '{')
			dst = strMember(dst, "Code", r.Error.Code)
			dst = itemMember(dst, "Item", r.Error.Item)
			dst = strMember(dst, "Message", r.Error.Message)
			dst = append(dst, '}')
		}
		dst = itemMember(dst, "Item", r.Item)
		dst = strMember(dst, "TableName", r.TableName)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	return append(dst, '}')
}

func parameterizedStatementElem(d *decoder, s *dynamo.ParameterizedStatement) *dynamo.Error {
	s.NoStatement = true
	_, err := d.object("ParameterizedStatement", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "Statement":
			return d.statementMember(&s.Statement, &s.NoStatement)
		case "Parameters":
			return d.parameters(&s.Parameters)
		case "ReturnValuesOnConditionCheckFailure":
			return d.str(&s.ReturnValuesOnConditionCheckFailure)
		}
		return d.skipValue()
	})
	return err
}

// DecodeExecuteTransaction decodes an ExecuteTransaction request body.
func DecodeExecuteTransaction(body []byte) (*dynamo.ExecuteTransactionInput, error) {
	in := new(dynamo.ExecuteTransactionInput)
	d := &decoder{data: body}
	err := d.root("ExecuteTransactionInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TransactStatements":
			return decodeList(d, &in.TransactStatements, atField, parameterizedStatementElem)
		case "ClientRequestToken":
			return d.optStr(&in.ClientRequestToken, &in.ClientRequestTokenSet)
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		}
		return d.skipValue()
	})
	if err = d.handOver(err, &in.ValueError); err != nil {
		return nil, err
	}
	return in, nil
}

// EncodeExecuteTransaction appends ExecuteTransaction's response body to
// dst: Responses is always sent, [] for a transaction of writes.
func EncodeExecuteTransaction(dst []byte, out *dynamo.ExecuteTransactionOutput) []byte {
	if out == nil {
		out = &dynamo.ExecuteTransactionOutput{}
	}
	dst = append(dst, '{')
	dst = consumedListMember(dst, out.ConsumedCapacity)
	dst = append(member(dst, "Responses"), '[')
	for _, r := range out.Responses {
		dst = append(comma(dst), '{')
		dst = itemMember(dst, "Item", r.Item)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	return append(dst, '}')
}
