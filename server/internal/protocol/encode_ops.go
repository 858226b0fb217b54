package protocol

import (
	"strconv"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// This file holds one encoder per operation and the writers for the
// structures responses share. Members are written in alphabetical order, as
// DynamoDB writes them. Optional members are omitted when absent (nil
// pointer, empty string, nil map or slice, zero time); counters and sizes
// that DynamoDB always sends are always written.

func strMember(dst []byte, name, s string) []byte {
	if s == "" {
		return dst
	}
	return appendString(member(dst, name), s)
}

func intMember(dst []byte, name string, n int64) []byte {
	return strconv.AppendInt(member(dst, name), n, 10)
}

func int64PtrMember(dst []byte, name string, n *int64) []byte {
	if n == nil {
		return dst
	}
	return intMember(dst, name, *n)
}

func doublePtrMember(dst []byte, name string, f *float64) []byte {
	if f == nil {
		return dst
	}
	return appendDouble(member(dst, name), *f)
}

func boolPtrMember(dst []byte, name string, b *bool) []byte {
	if b == nil {
		return dst
	}
	return appendBool(member(dst, name), *b)
}

func timeMember(dst []byte, name string, t time.Time) []byte {
	if t.IsZero() {
		return dst
	}
	return appendTime(member(dst, name), t)
}

func stringsMember(dst []byte, name string, list []string) []byte {
	if list == nil {
		return dst
	}
	return appendStrings(member(dst, name), list)
}

func itemMember(dst []byte, name string, item attr.Item) []byte {
	if item == nil {
		return dst
	}
	return appendItem(member(dst, name), item)
}

func strMapMember(dst []byte, name string, m map[string]string) []byte {
	if m == nil {
		return dst
	}
	var buf [16]string
	dst = append(member(dst, name), '{')
	for _, k := range sortedKeys(m, buf[:]) {
		dst = appendString(mapKey(dst, k), m[k])
	}
	return append(dst, '}')
}

// Table descriptions.

func appendKeySchema(dst []byte, ks []dynamo.KeySchemaElement) []byte {
	dst = append(dst, '[')
	for _, e := range ks {
		dst = append(comma(dst), '{')
		dst = strMember(dst, "AttributeName", e.AttributeName)
		dst = strMember(dst, "KeyType", e.KeyType)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

func keySchemaMember(dst []byte, ks []dynamo.KeySchemaElement) []byte {
	if ks == nil {
		return dst
	}
	return appendKeySchema(member(dst, "KeySchema"), ks)
}

func appendProjection(dst []byte, p *dynamo.Projection) []byte {
	dst = append(dst, '{')
	dst = stringsMember(dst, "NonKeyAttributes", p.NonKeyAttributes)
	dst = strMember(dst, "ProjectionType", p.ProjectionType)
	return append(dst, '}')
}

func onDemandMember(dst []byte, odt *dynamo.OnDemandThroughput) []byte {
	if odt == nil {
		return dst
	}
	dst = append(member(dst, "OnDemandThroughput"), '{')
	dst = int64PtrMember(dst, "MaxReadRequestUnits", odt.MaxReadRequestUnits)
	dst = int64PtrMember(dst, "MaxWriteRequestUnits", odt.MaxWriteRequestUnits)
	return append(dst, '}')
}

func throughputMember(dst []byte, pt *dynamo.ProvisionedThroughputDescription) []byte {
	if pt == nil {
		return dst
	}
	dst = append(member(dst, "ProvisionedThroughput"), '{')
	dst = timeMember(dst, "LastDecreaseDateTime", pt.LastDecreaseDateTime)
	dst = timeMember(dst, "LastIncreaseDateTime", pt.LastIncreaseDateTime)
	dst = intMember(dst, "NumberOfDecreasesToday", pt.NumberOfDecreasesToday)
	dst = intMember(dst, "ReadCapacityUnits", pt.ReadCapacityUnits)
	dst = intMember(dst, "WriteCapacityUnits", pt.WriteCapacityUnits)
	return append(dst, '}')
}

func appendTableDescription(dst []byte, t *dynamo.TableDescription) []byte {
	dst = append(dst, '{')
	if t.AttributeDefinitions != nil {
		dst = append(member(dst, "AttributeDefinitions"), '[')
		for _, a := range t.AttributeDefinitions {
			dst = append(comma(dst), '{')
			dst = strMember(dst, "AttributeName", a.AttributeName)
			dst = strMember(dst, "AttributeType", a.AttributeType)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if b := t.BillingModeSummary; b != nil {
		dst = append(member(dst, "BillingModeSummary"), '{')
		dst = strMember(dst, "BillingMode", b.BillingMode)
		dst = timeMember(dst, "LastUpdateToPayPerRequestDateTime", b.LastUpdateToPayPerRequestDateTime)
		dst = append(dst, '}')
	}
	dst = timeMember(dst, "CreationDateTime", t.CreationDateTime)
	dst = boolPtrMember(dst, "DeletionProtectionEnabled", t.DeletionProtectionEnabled)
	if t.GlobalSecondaryIndexes != nil {
		dst = append(member(dst, "GlobalSecondaryIndexes"), '[')
		for i := range t.GlobalSecondaryIndexes {
			g := &t.GlobalSecondaryIndexes[i]
			dst = append(comma(dst), '{')
			dst = boolPtrMember(dst, "Backfilling", g.Backfilling)
			dst = strMember(dst, "IndexArn", g.IndexArn)
			dst = strMember(dst, "IndexName", g.IndexName)
			dst = intMember(dst, "IndexSizeBytes", g.IndexSizeBytes)
			dst = strMember(dst, "IndexStatus", g.IndexStatus)
			dst = intMember(dst, "ItemCount", g.ItemCount)
			dst = keySchemaMember(dst, g.KeySchema)
			dst = onDemandMember(dst, g.OnDemandThroughput)
			dst = appendProjection(member(dst, "Projection"), &g.Projection)
			dst = throughputMember(dst, g.ProvisionedThroughput)
			dst = warmMember(dst, g.WarmThroughput)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = strMember(dst, "GlobalTableVersion", t.GlobalTableVersion)
	dst = intMember(dst, "ItemCount", t.ItemCount)
	dst = keySchemaMember(dst, t.KeySchema)
	dst = strMember(dst, "LatestStreamArn", t.LatestStreamArn)
	dst = strMember(dst, "LatestStreamLabel", t.LatestStreamLabel)
	if t.LocalSecondaryIndexes != nil {
		dst = append(member(dst, "LocalSecondaryIndexes"), '[')
		for i := range t.LocalSecondaryIndexes {
			l := &t.LocalSecondaryIndexes[i]
			dst = append(comma(dst), '{')
			dst = strMember(dst, "IndexArn", l.IndexArn)
			dst = strMember(dst, "IndexName", l.IndexName)
			dst = intMember(dst, "IndexSizeBytes", l.IndexSizeBytes)
			dst = intMember(dst, "ItemCount", l.ItemCount)
			dst = keySchemaMember(dst, l.KeySchema)
			dst = appendProjection(member(dst, "Projection"), &l.Projection)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = onDemandMember(dst, t.OnDemandThroughput)
	dst = throughputMember(dst, t.ProvisionedThroughput)
	if t.Replicas != nil {
		dst = append(member(dst, "Replicas"), '[')
		for _, r := range t.Replicas {
			dst = append(comma(dst), '{')
			dst = strMember(dst, "RegionName", r.RegionName)
			dst = strMember(dst, "ReplicaStatus", r.ReplicaStatus)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if r := t.RestoreSummary; r != nil {
		dst = append(member(dst, "RestoreSummary"), '{')
		dst = timeMember(dst, "RestoreDateTime", r.RestoreDateTime)
		dst = appendBool(member(dst, "RestoreInProgress"), r.RestoreInProgress)
		dst = strMember(dst, "SourceBackupArn", r.SourceBackupArn)
		dst = strMember(dst, "SourceTableArn", r.SourceTableArn)
		dst = append(dst, '}')
	}
	dst = sseDescriptionMember(dst, t.SSEDescription)
	if s := t.StreamSpecification; s != nil {
		dst = append(member(dst, "StreamSpecification"), '{')
		dst = appendBool(member(dst, "StreamEnabled"), s.StreamEnabled)
		dst = strMember(dst, "StreamViewType", s.StreamViewType)
		dst = append(dst, '}')
	}
	dst = strMember(dst, "TableArn", t.TableArn)
	if c := t.TableClassSummary; c != nil {
		dst = append(member(dst, "TableClassSummary"), '{')
		dst = timeMember(dst, "LastUpdateDateTime", c.LastUpdateDateTime)
		dst = strMember(dst, "TableClass", c.TableClass)
		dst = append(dst, '}')
	}
	dst = strMember(dst, "TableId", t.TableId)
	dst = strMember(dst, "TableName", t.TableName)
	dst = intMember(dst, "TableSizeBytes", t.TableSizeBytes)
	dst = strMember(dst, "TableStatus", t.TableStatus)
	if t.VectorIndexes != nil {
		dst = append(member(dst, "VectorIndexes"), '[')
		for i := range t.VectorIndexes {
			v := &t.VectorIndexes[i]
			dst = append(comma(dst), '{')
			dst = boolPtrMember(dst, "Backfilling", v.Backfilling)
			dst = intMember(dst, "Dimensions", v.Dimensions)
			dst = strMember(dst, "DistanceFunction", v.DistanceFunction)
			dst = strMember(dst, "IndexArn", v.IndexArn)
			dst = strMember(dst, "IndexName", v.IndexName)
			dst = intMember(dst, "IndexSizeBytes", v.IndexSizeBytes)
			dst = strMember(dst, "IndexStatus", v.IndexStatus)
			dst = intMember(dst, "ItemCount", v.ItemCount)
			dst = appendProjection(member(dst, "Projection"), &v.Projection)
			dst = searchSchemaMember(dst, v.SearchSchema)
			if a := v.VectorAttribute; a != nil {
				dst = append(member(dst, "VectorAttribute"), '{')
				dst = strMember(dst, "AttributeName", a.AttributeName)
				dst = append(dst, '}')
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = warmMember(dst, t.WarmThroughput)
	return append(dst, '}')
}

// vectorIndexesMember writes a list of vector index definitions
// (VectorIndex, VectorIndexInfo's members), as a backup's features and an
// import's table parameters hold them.
func vectorIndexesMember(dst []byte, vs []dynamo.VectorIndex) []byte {
	if vs == nil {
		return dst
	}
	dst = append(member(dst, "VectorIndexes"), '[')
	for i := range vs {
		v := &vs[i]
		dst = append(comma(dst), '{')
		dst = intMember(dst, "Dimensions", v.Dimensions)
		dst = strMember(dst, "DistanceFunction", v.DistanceFunction)
		dst = strMember(dst, "IndexName", v.IndexName)
		dst = appendProjection(member(dst, "Projection"), &v.Projection)
		dst = searchSchemaMember(dst, v.SearchSchema)
		if a := v.VectorAttribute; a != nil {
			dst = append(member(dst, "VectorAttribute"), '{')
			dst = strMember(dst, "AttributeName", a.AttributeName)
			dst = append(dst, '}')
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

func searchSchemaMember(dst []byte, ss []dynamo.SearchSchemaElement) []byte {
	if ss == nil {
		return dst
	}
	dst = append(member(dst, "SearchSchema"), '[')
	for _, e := range ss {
		dst = append(comma(dst), '{')
		dst = strMember(dst, "AttributeName", e.AttributeName)
		dst = strMember(dst, "SearchSchemaElementType", e.SearchSchemaElementType)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

func sseDescriptionMember(dst []byte, s *dynamo.SSEDescription) []byte {
	if s == nil {
		return dst
	}
	dst = append(member(dst, "SSEDescription"), '{')
	dst = strMember(dst, "KMSMasterKeyArn", s.KMSMasterKeyArn)
	dst = strMember(dst, "SSEType", s.SSEType)
	dst = strMember(dst, "Status", s.Status)
	return append(dst, '}')
}

func warmMember(dst []byte, w *dynamo.WarmThroughputDescription) []byte {
	if w == nil {
		return dst
	}
	dst = append(member(dst, "WarmThroughput"), '{')
	dst = intMember(dst, "ReadUnitsPerSecond", w.ReadUnitsPerSecond)
	dst = strMember(dst, "Status", w.Status)
	dst = intMember(dst, "WriteUnitsPerSecond", w.WriteUnitsPerSecond)
	return append(dst, '}')
}

func tableMember(dst []byte, name string, t *dynamo.TableDescription) []byte {
	if t == nil {
		return dst
	}
	return appendTableDescription(member(dst, name), t)
}

// EncodeCreateTable appends CreateTable's response body to dst.
func EncodeCreateTable(dst []byte, out *dynamo.CreateTableOutput) []byte {
	dst = append(dst, '{')
	if out != nil {
		dst = tableMember(dst, "TableDescription", out.TableDescription)
	}
	return append(dst, '}')
}

// EncodeDescribeTable appends DescribeTable's response body to dst.
func EncodeDescribeTable(dst []byte, out *dynamo.DescribeTableOutput) []byte {
	dst = append(dst, '{')
	if out != nil {
		dst = tableMember(dst, "Table", out.Table)
	}
	return append(dst, '}')
}

// EncodeDeleteTable appends DeleteTable's response body to dst.
func EncodeDeleteTable(dst []byte, out *dynamo.DeleteTableOutput) []byte {
	dst = append(dst, '{')
	if out != nil {
		dst = tableMember(dst, "TableDescription", out.TableDescription)
	}
	return append(dst, '}')
}

// EncodeUpdateTable appends UpdateTable's response body to dst.
func EncodeUpdateTable(dst []byte, out *dynamo.UpdateTableOutput) []byte {
	dst = append(dst, '{')
	if out != nil {
		dst = tableMember(dst, "TableDescription", out.TableDescription)
	}
	return append(dst, '}')
}

// EncodeListTables appends ListTables' response body to dst. TableNames is
// always sent, as [] when empty.
func EncodeListTables(dst []byte, out *dynamo.ListTablesOutput) []byte {
	dst = append(dst, '{')
	var names []string
	if out != nil {
		dst = strMember(dst, "LastEvaluatedTableName", out.LastEvaluatedTableName)
		names = out.TableNames
	}
	dst = appendStrings(member(dst, "TableNames"), names)
	return append(dst, '}')
}

// EncodeTagResource appends TagResource's response body to dst: nothing.
// DynamoDB answers a successful TagResource with an empty HTTP body.
func EncodeTagResource(dst []byte) []byte { return dst }

// EncodeUntagResource appends UntagResource's response body to dst:
// nothing, as for TagResource.
func EncodeUntagResource(dst []byte) []byte { return dst }

// EncodeListTagsOfResource appends ListTagsOfResource's response body to
// dst. Tags is always sent, as [] when empty.
func EncodeListTagsOfResource(dst []byte, out *dynamo.ListTagsOfResourceOutput) []byte {
	dst = append(dst, '{')
	var tags []dynamo.Tag
	if out != nil {
		dst = strMember(dst, "NextToken", out.NextToken)
		tags = out.Tags
	}
	dst = append(member(dst, "Tags"), '[')
	for _, t := range tags {
		dst = append(comma(dst), '{')
		dst = appendString(member(dst, "Key"), t.Key)
		dst = appendString(member(dst, "Value"), t.Value)
		dst = append(dst, '}')
	}
	return append(dst, ']', '}')
}

// EncodeDescribeLimits appends DescribeLimits' response body to dst.
func EncodeDescribeLimits(dst []byte, out *dynamo.DescribeLimitsOutput) []byte {
	if out == nil {
		out = &dynamo.DescribeLimitsOutput{}
	}
	dst = append(dst, '{')
	dst = intMember(dst, "AccountMaxReadCapacityUnits", out.AccountMaxReadCapacityUnits)
	dst = intMember(dst, "AccountMaxWriteCapacityUnits", out.AccountMaxWriteCapacityUnits)
	dst = intMember(dst, "TableMaxReadCapacityUnits", out.TableMaxReadCapacityUnits)
	dst = intMember(dst, "TableMaxWriteCapacityUnits", out.TableMaxWriteCapacityUnits)
	return append(dst, '}')
}

// EncodeDescribeEndpoints appends DescribeEndpoints' response body to dst.
// Endpoints is always sent.
func EncodeDescribeEndpoints(dst []byte, out *dynamo.DescribeEndpointsOutput) []byte {
	dst = append(dst, '{')
	dst = append(member(dst, "Endpoints"), '[')
	if out != nil {
		for _, e := range out.Endpoints {
			dst = append(comma(dst), '{')
			dst = appendString(member(dst, "Address"), e.Address)
			dst = intMember(dst, "CachePeriodInMinutes", e.CachePeriodInMinutes)
			dst = append(dst, '}')
		}
	}
	return append(dst, ']', '}')
}

// Item-operation responses.

func appendCapacity(dst []byte, c *dynamo.Capacity) []byte {
	dst = append(dst, '{')
	dst = doublePtrMember(dst, "CapacityUnits", c.CapacityUnits)
	dst = doublePtrMember(dst, "ReadCapacityUnits", c.ReadCapacityUnits)
	dst = doublePtrMember(dst, "WriteCapacityUnits", c.WriteCapacityUnits)
	return append(dst, '}')
}

func capacityMapMember(dst []byte, name string, m map[string]dynamo.Capacity) []byte {
	if m == nil {
		return dst
	}
	var buf [8]string
	dst = append(member(dst, name), '{')
	for _, k := range sortedKeys(m, buf[:]) {
		c := m[k]
		dst = appendCapacity(mapKey(dst, k), &c)
	}
	return append(dst, '}')
}

func appendConsumedCapacity(dst []byte, c *dynamo.ConsumedCapacity) []byte {
	dst = append(dst, '{')
	dst = doublePtrMember(dst, "CapacityUnits", c.CapacityUnits)
	dst = capacityMapMember(dst, "GlobalSecondaryIndexes", c.GlobalSecondaryIndexes)
	dst = capacityMapMember(dst, "LocalSecondaryIndexes", c.LocalSecondaryIndexes)
	dst = doublePtrMember(dst, "ReadCapacityUnits", c.ReadCapacityUnits)
	if c.Table != nil {
		dst = appendCapacity(member(dst, "Table"), c.Table)
	}
	dst = strMember(dst, "TableName", c.TableName)
	if c.VectorIndexes != nil {
		var buf [8]string
		dst = append(member(dst, "VectorIndexes"), '{')
		for _, k := range sortedKeys(c.VectorIndexes, buf[:]) {
			v := c.VectorIndexes[k]
			dst = appendVectorCapacity(mapKey(dst, k), &v)
		}
		dst = append(dst, '}')
	}
	dst = doublePtrMember(dst, "WriteCapacityUnits", c.WriteCapacityUnits)
	return append(dst, '}')
}

func consumedMember(dst []byte, c *dynamo.ConsumedCapacity) []byte {
	if c == nil {
		return dst
	}
	return appendConsumedCapacity(member(dst, "ConsumedCapacity"), c)
}

func consumedListMember(dst []byte, list []dynamo.ConsumedCapacity) []byte {
	if list == nil {
		return dst
	}
	dst = append(member(dst, "ConsumedCapacity"), '[')
	for i := range list {
		dst = appendConsumedCapacity(comma(dst), &list[i])
	}
	return append(dst, ']')
}

func appendItemCollectionMetrics(dst []byte, m *dynamo.ItemCollectionMetrics) []byte {
	dst = append(dst, '{')
	dst = itemMember(dst, "ItemCollectionKey", m.ItemCollectionKey)
	if m.SizeEstimateRangeGB != nil {
		dst = append(member(dst, "SizeEstimateRangeGB"), '[')
		for _, f := range m.SizeEstimateRangeGB {
			dst = appendDouble(comma(dst), f)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

func metricsMember(dst []byte, m *dynamo.ItemCollectionMetrics) []byte {
	if m == nil {
		return dst
	}
	return appendItemCollectionMetrics(member(dst, "ItemCollectionMetrics"), m)
}

// appendWriteOutput writes the members PutItem, DeleteItem and UpdateItem
// share.
func appendWriteOutput(dst []byte, attrs attr.Item, c *dynamo.ConsumedCapacity, m *dynamo.ItemCollectionMetrics) []byte {
	dst = append(dst, '{')
	dst = itemMember(dst, "Attributes", attrs)
	dst = consumedMember(dst, c)
	dst = metricsMember(dst, m)
	return append(dst, '}')
}

// EncodePutItem appends PutItem's response body to dst.
func EncodePutItem(dst []byte, out *dynamo.PutItemOutput) []byte {
	if out == nil {
		return append(dst, '{', '}')
	}
	return appendWriteOutput(dst, out.Attributes, out.ConsumedCapacity, out.ItemCollectionMetrics)
}

// EncodeDeleteItem appends DeleteItem's response body to dst.
func EncodeDeleteItem(dst []byte, out *dynamo.DeleteItemOutput) []byte {
	if out == nil {
		return append(dst, '{', '}')
	}
	return appendWriteOutput(dst, out.Attributes, out.ConsumedCapacity, out.ItemCollectionMetrics)
}

// EncodeUpdateItem appends UpdateItem's response body to dst.
func EncodeUpdateItem(dst []byte, out *dynamo.UpdateItemOutput) []byte {
	if out == nil {
		return append(dst, '{', '}')
	}
	return appendWriteOutput(dst, out.Attributes, out.ConsumedCapacity, out.ItemCollectionMetrics)
}

// EncodeGetItem appends GetItem's response body to dst: {} when no item
// has the key, plus ConsumedCapacity when set. An item given in attr's
// encoding (EncodedItem) is written from it.
func EncodeGetItem(dst []byte, out *dynamo.GetItemOutput) []byte {
	dst = append(dst, '{')
	if out != nil {
		dst = consumedMember(dst, out.ConsumedCapacity)
		if out.EncodedItem != nil {
			r := attr.RawItem(out.EncodedItem)
			dst = appendRawItem(member(dst, "Item"), &r)
		} else {
			dst = itemMember(dst, "Item", out.Item)
		}
	}
	return append(dst, '}')
}

func appendKeysAndAttributes(dst []byte, k *dynamo.KeysAndAttributes) []byte {
	dst = append(dst, '{')
	dst = stringsMember(dst, "AttributesToGet", k.AttributesToGet)
	if k.ConsistentRead {
		dst = append(member(dst, "ConsistentRead"), "true"...)
	}
	dst = strMapMember(dst, "ExpressionAttributeNames", k.ExpressionAttributeNames)
	dst = append(member(dst, "Keys"), '[')
	for _, key := range k.Keys {
		dst = appendItem(comma(dst), key)
	}
	dst = append(dst, ']')
	dst = strMember(dst, "ProjectionExpression", k.ProjectionExpression)
	return append(dst, '}')
}

// EncodeBatchGetItem appends BatchGetItem's response body to dst.
// Responses and UnprocessedKeys are always sent, as {} when empty.
func EncodeBatchGetItem(dst []byte, out *dynamo.BatchGetItemOutput) []byte {
	if out == nil {
		out = &dynamo.BatchGetItemOutput{}
	}
	dst = append(dst, '{')
	dst = consumedListMember(dst, out.ConsumedCapacity)
	var buf [8]string
	dst = append(member(dst, "Responses"), '{')
	for _, table := range sortedKeys(out.Responses, buf[:]) {
		dst = append(mapKey(dst, table), '[')
		for _, it := range out.Responses[table] {
			dst = appendItem(comma(dst), it)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, '}')
	dst = append(member(dst, "UnprocessedKeys"), '{')
	for _, table := range sortedKeys(out.UnprocessedKeys, buf[:]) {
		k := out.UnprocessedKeys[table]
		dst = appendKeysAndAttributes(mapKey(dst, table), &k)
	}
	return append(dst, '}', '}')
}

func appendWriteRequest(dst []byte, w *dynamo.WriteRequest) []byte {
	dst = append(dst, '{')
	if w.DeleteRequest != nil {
		dst = append(member(dst, "DeleteRequest"), '{')
		dst = appendItem(member(dst, "Key"), w.DeleteRequest.Key)
		dst = append(dst, '}')
	}
	if w.PutRequest != nil {
		dst = append(member(dst, "PutRequest"), '{')
		dst = appendItem(member(dst, "Item"), w.PutRequest.Item)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// EncodeBatchWriteItem appends BatchWriteItem's response body to dst.
// UnprocessedItems is always sent, as {} when empty.
func EncodeBatchWriteItem(dst []byte, out *dynamo.BatchWriteItemOutput) []byte {
	if out == nil {
		out = &dynamo.BatchWriteItemOutput{}
	}
	dst = append(dst, '{')
	dst = consumedListMember(dst, out.ConsumedCapacity)
	var buf [8]string
	if out.ItemCollectionMetrics != nil {
		dst = append(member(dst, "ItemCollectionMetrics"), '{')
		for _, table := range sortedKeys(out.ItemCollectionMetrics, buf[:]) {
			dst = append(mapKey(dst, table), '[')
			list := out.ItemCollectionMetrics[table]
			for i := range list {
				dst = appendItemCollectionMetrics(comma(dst), &list[i])
			}
			dst = append(dst, ']')
		}
		dst = append(dst, '}')
	}
	dst = append(member(dst, "UnprocessedItems"), '{')
	for _, table := range sortedKeys(out.UnprocessedItems, buf[:]) {
		dst = append(mapKey(dst, table), '[')
		list := out.UnprocessedItems[table]
		for i := range list {
			dst = appendWriteRequest(comma(dst), &list[i])
		}
		dst = append(dst, ']')
	}
	return append(dst, '}', '}')
}
