package protocol

import (
	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// This file holds one decoder per operation and the readers for the
// structures the requests share. Member names are matched exactly (DynamoDB
// is case sensitive); unknown members are skipped; JSON null means absent.

// Control-plane structures.

func keySchemaElem(d *decoder, e *dynamo.KeySchemaElement) *dynamo.Error {
	_, err := d.object("KeySchemaElement", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "AttributeName":
			return d.str(&e.AttributeName)
		case "KeyType":
			return d.str(&e.KeyType)
		}
		return d.skipValue()
	})
	return err
}

func (d *decoder) keySchema(dst *[]dynamo.KeySchemaElement) *dynamo.Error {
	return decodeList(d, dst, atField, keySchemaElem)
}

func attributeDefinitionElem(d *decoder, e *dynamo.AttributeDefinition) *dynamo.Error {
	_, err := d.object("AttributeDefinition", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "AttributeName":
			return d.str(&e.AttributeName)
		case "AttributeType":
			set, err := d.strPresent(&e.AttributeType)
			e.TypeEmpty = set && e.AttributeType == ""
			return err
		}
		return d.skipValue()
	})
	return err
}

func (d *decoder) attributeDefinitions(dst *[]dynamo.AttributeDefinition) *dynamo.Error {
	return decodeList(d, dst, atField, attributeDefinitionElem)
}

// projection reads a Projection; present reports a non-null one.
func (d *decoder) projection(p *dynamo.Projection, present *bool) *dynamo.Error {
	ok, err := d.object("Projection", atField, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "ProjectionType":
			return d.str(&p.ProjectionType)
		case "NonKeyAttributes":
			return d.strList(&p.NonKeyAttributes)
		}
		return d.skipValue()
	})
	*present = ok
	return err
}

func (d *decoder) provisionedThroughput(dst **dynamo.ProvisionedThroughput) *dynamo.Error {
	pt := new(dynamo.ProvisionedThroughput)
	var read, write bool // present and not null
	ok, err := d.object("ProvisionedThroughput", atField, func(key []byte) *dynamo.Error {
		var err *dynamo.Error
		switch string(key) {
		case "ReadCapacityUnits":
			read, err = d.integer(&pt.ReadCapacityUnits, "Long", minInt64, maxInt64)
			return err
		case "WriteCapacityUnits":
			write, err = d.integer(&pt.WriteCapacityUnits, "Long", minInt64, maxInt64)
			return err
		}
		return d.skipValue()
	})
	if ok {
		pt.ReadNull, pt.WriteNull = !read, !write
		*dst = pt
	}
	return err
}

func (d *decoder) onDemandThroughput(dst **dynamo.OnDemandThroughput) *dynamo.Error {
	odt := new(dynamo.OnDemandThroughput)
	ok, err := d.object("OnDemandThroughput", atField, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "MaxReadRequestUnits":
			return d.longPtr(&odt.MaxReadRequestUnits)
		case "MaxWriteRequestUnits":
			return d.longPtr(&odt.MaxWriteRequestUnits)
		}
		return d.skipValue()
	})
	if ok {
		*dst = odt
	}
	return err
}

func (d *decoder) warmThroughput(dst **dynamo.WarmThroughput) *dynamo.Error {
	w := new(dynamo.WarmThroughput)
	ok, err := d.object("WarmThroughput", atField, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "ReadUnitsPerSecond":
			return d.longPtr(&w.ReadUnitsPerSecond)
		case "WriteUnitsPerSecond":
			return d.longPtr(&w.WriteUnitsPerSecond)
		}
		return d.skipValue()
	})
	if ok {
		*dst = w
	}
	return err
}

func (d *decoder) streamSpecification(dst **dynamo.StreamSpecification) *dynamo.Error {
	ss := &dynamo.StreamSpecification{NoStreamEnabled: true}
	ok, err := d.object("StreamSpecification", atField, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "StreamEnabled":
			set, err := d.boolean(&ss.StreamEnabled)
			ss.NoStreamEnabled = !set
			return err
		case "StreamViewType":
			set, err := d.strPresent(&ss.StreamViewType)
			ss.ViewTypeEmpty = set && ss.StreamViewType == ""
			return err
		}
		return d.skipValue()
	})
	if ok {
		*dst = ss
	}
	return err
}

func (d *decoder) sseSpecification(dst **dynamo.SSESpecification) *dynamo.Error {
	sse := new(dynamo.SSESpecification)
	ok, err := d.object("SSESpecification", atField, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "Enabled":
			return d.boolPtr(&sse.Enabled)
		case "SSEType":
			return d.str(&sse.SSEType)
		case "KMSMasterKeyId":
			set, err := d.strPresent(&sse.KMSMasterKeyId)
			sse.KeyIDEmpty = set && sse.KMSMasterKeyId == ""
			return err
		}
		return d.skipValue()
	})
	if ok {
		*dst = sse
	}
	return err
}

// tagElem decodes a Tag. A Tag without its Key or Value is refused with
// the text DynamoDB gives it (engine.MsgTagKeyNull, engine.MsgTagValueNull),
// since the engine cannot tell an absent member from an empty one.
func tagElem(d *decoder, t *dynamo.Tag) *dynamo.Error {
	var hasKey, hasValue bool
	present, err := d.object("Tag", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "Key":
			hasKey = true
			return d.str(&t.Key)
		case "Value":
			hasValue = true
			return d.str(&t.Value)
		}
		return d.skipValue()
	})
	// A null Tag has no Key either (no recording; chose the answer to {}).
	if err == nil {
		switch {
		case !present || !hasKey:
			d.deferValidation(dynamo.MsgTagKeyNull)
		case !hasValue:
			d.deferValidation(dynamo.MsgTagValueNull)
		}
	}
	return err
}

func (d *decoder) tags(dst *[]dynamo.Tag) *dynamo.Error {
	return decodeList(d, dst, atField, tagElem)
}

func localSecondaryIndexElem(d *decoder, x *dynamo.LocalSecondaryIndex) *dynamo.Error {
	projected, named := false, false
	defer func() { x.NoProjection, x.NoIndexName = !projected, !named }()
	_, err := d.object("LocalSecondaryIndex", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "IndexName":
			var err *dynamo.Error
			named, err = d.strPresent(&x.IndexName)
			return err
		case "KeySchema":
			return d.keySchema(&x.KeySchema)
		case "Projection":
			return d.projection(&x.Projection, &projected)
		}
		return d.skipValue()
	})
	return err
}

// globalSecondaryIndex reads a GSI definition; typ is its model name, which
// differs between CreateTable's list and UpdateTable's Create action.
func (d *decoder) globalSecondaryIndex(x *dynamo.GlobalSecondaryIndex, typ string, at position) (bool, *dynamo.Error) {
	projected, named := false, false
	defer func() { x.NoProjection, x.NoIndexName = !projected, !named }()
	return d.object(typ, at, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "IndexName":
			var err *dynamo.Error
			named, err = d.strPresent(&x.IndexName)
			return err
		case "KeySchema":
			return d.keySchema(&x.KeySchema)
		case "Projection":
			return d.projection(&x.Projection, &projected)
		case "ProvisionedThroughput":
			return d.provisionedThroughput(&x.ProvisionedThroughput)
		case "OnDemandThroughput":
			return d.onDemandThroughput(&x.OnDemandThroughput)
		case "WarmThroughput":
			return d.warmThroughput(&x.WarmThroughput)
		}
		return d.skipValue()
	})
}

func globalSecondaryIndexElem(d *decoder, x *dynamo.GlobalSecondaryIndex) *dynamo.Error {
	_, err := d.globalSecondaryIndex(x, "GlobalSecondaryIndex", atElement)
	return err
}

// replicaUpdateElem decodes one ReplicationGroupUpdate of UpdateTable's
// ReplicaUpdates: of each action, its RegionName.
func replicaUpdateElem(d *decoder, u *dynamo.ReplicationGroupUpdate) *dynamo.Error {
	_, err := d.object("ReplicationGroupUpdate", atElement, func(key []byte) *dynamo.Error {
		var dst **dynamo.ReplicaAction
		var shape string
		switch string(key) {
		case "Create":
			dst, shape = &u.Create, "CreateReplicationGroupMemberAction"
		case "Update":
			dst, shape = &u.Update, "UpdateReplicationGroupMemberAction"
		case "Delete":
			dst, shape = &u.Delete, "DeleteReplicationGroupMemberAction"
		default:
			return d.skipValue()
		}
		x := &dynamo.ReplicaAction{NoRegionName: true}
		ok, err := d.object(shape, atField, func(key []byte) *dynamo.Error {
			if string(key) == "RegionName" {
				named, err := d.strPresent(&x.RegionName)
				x.NoRegionName = !named
				return err
			}
			return d.skipValue()
		})
		if ok {
			*dst = x
		}
		return err
	})
	return err
}

func gsiUpdateElem(d *decoder, u *dynamo.GlobalSecondaryIndexUpdate) *dynamo.Error {
	_, err := d.object("GlobalSecondaryIndexUpdate", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "Create":
			x := new(dynamo.GlobalSecondaryIndex)
			ok, err := d.globalSecondaryIndex(x, "CreateGlobalSecondaryIndexAction", atField)
			if ok {
				u.Create = x
			}
			return err
		case "Update":
			x := &dynamo.UpdateGlobalSecondaryIndexAction{NoIndexName: true}
			ok, err := d.object("UpdateGlobalSecondaryIndexAction", atField, func(key []byte) *dynamo.Error {
				switch string(key) {
				case "IndexName":
					named, err := d.strPresent(&x.IndexName)
					x.NoIndexName = !named
					return err
				case "ProvisionedThroughput":
					return d.provisionedThroughput(&x.ProvisionedThroughput)
				case "OnDemandThroughput":
					return d.onDemandThroughput(&x.OnDemandThroughput)
				case "WarmThroughput":
					return d.warmThroughput(&x.WarmThroughput)
				}
				return d.skipValue()
			})
			if ok {
				u.Update = x
			}
			return err
		case "Delete":
			x := &dynamo.DeleteGlobalSecondaryIndexAction{NoIndexName: true}
			ok, err := d.object("DeleteGlobalSecondaryIndexAction", atField, func(key []byte) *dynamo.Error {
				if string(key) == "IndexName" {
					named, err := d.strPresent(&x.IndexName)
					x.NoIndexName = !named
					return err
				}
				return d.skipValue()
			})
			if ok {
				u.Delete = x
			}
			return err
		}
		return d.skipValue()
	})
	return err
}

// vectorIndex reads a vector index definition; typ is its model name,
// VectorIndex in CreateTable's list, CreateVectorIndexAction in
// UpdateTable's Create.
func (d *decoder) vectorIndex(x *dynamo.VectorIndex, typ string, at position) (bool, *dynamo.Error) {
	projected, named, dims := false, false, false
	defer func() { x.NoProjection, x.NoIndexName, x.NoDimensions = !projected, !named, !dims }()
	return d.object(typ, at, func(key []byte) *dynamo.Error {
		var err *dynamo.Error
		switch string(key) {
		case "IndexName":
			named, err = d.strPresent(&x.IndexName)
			return err
		case "VectorAttribute":
			a := &dynamo.VectorAttributeDefinition{NoAttributeName: true}
			ok, err := d.object("VectorAttributeDefinition", atField, func(key []byte) *dynamo.Error {
				if string(key) == "AttributeName" {
					named, err := d.strPresent(&a.AttributeName)
					a.NoAttributeName = !named
					return err
				}
				return d.skipValue()
			})
			if ok {
				x.VectorAttribute = a
			}
			return err
		case "SearchSchema":
			return decodeList(d, &x.SearchSchema, atField, searchSchemaElem)
		case "Projection":
			return d.projection(&x.Projection, &projected)
		case "Dimensions":
			dims, err = d.integer(&x.Dimensions, "Long", minInt64, maxInt64)
			return err
		case "DistanceFunction":
			return d.str(&x.DistanceFunction)
		}
		return d.skipValue()
	})
}

func searchSchemaElem(d *decoder, e *dynamo.SearchSchemaElement) *dynamo.Error {
	named, typed := false, false
	defer func() { e.NoAttributeName, e.NoElementType = !named, !typed }()
	_, err := d.object("SearchSchemaElement", atElement, func(key []byte) *dynamo.Error {
		var err *dynamo.Error
		switch string(key) {
		case "AttributeName":
			named, err = d.strPresent(&e.AttributeName)
			return err
		case "SearchSchemaElementType":
			typed, err = d.strPresent(&e.SearchSchemaElementType)
			return err
		}
		return d.skipValue()
	})
	return err
}

func vectorIndexElem(d *decoder, x *dynamo.VectorIndex) *dynamo.Error {
	_, err := d.vectorIndex(x, "VectorIndex", atElement)
	return err
}

func vectorUpdateElem(d *decoder, u *dynamo.VectorIndexUpdate) *dynamo.Error {
	_, err := d.object("VectorIndexUpdate", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "Create":
			x := new(dynamo.VectorIndex)
			ok, err := d.vectorIndex(x, "CreateVectorIndexAction", atField)
			if ok {
				u.Create = x
			}
			return err
		case "Delete":
			x := &dynamo.DeleteVectorIndexAction{NoIndexName: true}
			ok, err := d.object("DeleteVectorIndexAction", atField, func(key []byte) *dynamo.Error {
				if string(key) == "IndexName" {
					named, err := d.strPresent(&x.IndexName)
					x.NoIndexName = !named
					return err
				}
				return d.skipValue()
			})
			if ok {
				u.Delete = x
			}
			return err
		}
		return d.skipValue()
	})
	return err
}

// Control-plane operations.

// DecodeCreateTable decodes a CreateTable request body.
func DecodeCreateTable(body []byte) (*dynamo.CreateTableInput, error) {
	in := &dynamo.CreateTableInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("CreateTableInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "AttributeDefinitions":
			return d.attributeDefinitions(&in.AttributeDefinitions)
		case "KeySchema":
			return d.keySchema(&in.KeySchema)
		case "LocalSecondaryIndexes":
			return decodeList(d, &in.LocalSecondaryIndexes, atField, localSecondaryIndexElem)
		case "GlobalSecondaryIndexes":
			return decodeList(d, &in.GlobalSecondaryIndexes, atField, globalSecondaryIndexElem)
		case "VectorIndexes":
			return decodeList(d, &in.VectorIndexes, atField, vectorIndexElem)
		case "BillingMode":
			set, err := d.strPresent(&in.BillingMode)
			in.BillingModeEmpty = set && in.BillingMode == ""
			return err
		case "ProvisionedThroughput":
			return d.provisionedThroughput(&in.ProvisionedThroughput)
		case "OnDemandThroughput":
			return d.onDemandThroughput(&in.OnDemandThroughput)
		case "WarmThroughput":
			return d.warmThroughput(&in.WarmThroughput)
		case "StreamSpecification":
			return d.streamSpecification(&in.StreamSpecification)
		case "SSESpecification":
			return d.sseSpecification(&in.SSESpecification)
		case "Tags":
			return d.tags(&in.Tags)
		case "TableClass":
			return d.str(&in.TableClass)
		case "DeletionProtectionEnabled":
			return d.boolPtr(&in.DeletionProtectionEnabled)
		case "ResourcePolicy":
			return d.str(&in.ResourcePolicy)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// decodeTableName decodes the requests whose only member is TableName;
// present reports a TableName that was neither absent nor null.
func decodeTableName(body []byte, typ string) (name string, present bool, err error) {
	d := &decoder{data: body}
	err = d.root(typ, func(key []byte) *dynamo.Error {
		if string(key) == "TableName" {
			var err *dynamo.Error
			present, err = d.strPresent(&name)
			return err
		}
		return d.skipValue()
	})
	return name, present, tableNameRequired(err, present)
}

// DecodeDescribeTable decodes a DescribeTable request body.
func DecodeDescribeTable(body []byte) (*dynamo.DescribeTableInput, error) {
	name, present, err := decodeTableName(body, "DescribeTableInput")
	if err != nil {
		return nil, err
	}
	return &dynamo.DescribeTableInput{TableName: name, NoTableName: !present}, nil
}

// DecodeDeleteTable decodes a DeleteTable request body.
func DecodeDeleteTable(body []byte) (*dynamo.DeleteTableInput, error) {
	name, present, err := decodeTableName(body, "DeleteTableInput")
	if err != nil {
		return nil, err
	}
	return &dynamo.DeleteTableInput{TableName: name, NoTableName: !present}, nil
}

// DecodeListTables decodes a ListTables request body.
func DecodeListTables(body []byte) (*dynamo.ListTablesInput, error) {
	in := new(dynamo.ListTablesInput)
	d := &decoder{data: body}
	err := d.root("ListTablesInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "ExclusiveStartTableName":
			return d.optStr(&in.ExclusiveStartTableName, &in.ExclusiveStartTableNameSet)
		case "Limit":
			return d.int32Ptr(&in.Limit)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeUpdateTable decodes an UpdateTable request body.
func DecodeUpdateTable(body []byte) (*dynamo.UpdateTableInput, error) {
	in := &dynamo.UpdateTableInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("UpdateTableInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "AttributeDefinitions":
			return d.attributeDefinitions(&in.AttributeDefinitions)
		case "BillingMode":
			set, err := d.strPresent(&in.BillingMode)
			in.BillingModeEmpty = set && in.BillingMode == ""
			return err
		case "ProvisionedThroughput":
			return d.provisionedThroughput(&in.ProvisionedThroughput)
		case "OnDemandThroughput":
			return d.onDemandThroughput(&in.OnDemandThroughput)
		case "WarmThroughput":
			return d.warmThroughput(&in.WarmThroughput)
		case "GlobalSecondaryIndexUpdates":
			return decodeList(d, &in.GlobalSecondaryIndexUpdates, atField, gsiUpdateElem)
		case "VectorIndexUpdates":
			return decodeList(d, &in.VectorIndexUpdates, atField, vectorUpdateElem)
		case "StreamSpecification":
			return d.streamSpecification(&in.StreamSpecification)
		case "SSESpecification":
			return d.sseSpecification(&in.SSESpecification)
		case "TableClass":
			return d.str(&in.TableClass)
		case "DeletionProtectionEnabled":
			return d.boolPtr(&in.DeletionProtectionEnabled)
		case "ReplicaUpdates":
			return decodeList(d, &in.ReplicaUpdates, atField, replicaUpdateElem)
		}
		return d.skipValue()
	})
	err = tableNameRequired(err, !in.NoTableName)
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeTagResource decodes a TagResource request body.
func DecodeTagResource(body []byte) (*dynamo.TagResourceInput, error) {
	in := new(dynamo.TagResourceInput)
	d := &decoder{data: body}
	err := d.root("TagResourceInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "ResourceArn":
			return d.str(&in.ResourceArn)
		case "Tags":
			return d.tags(&in.Tags)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeUntagResource decodes an UntagResource request body.
func DecodeUntagResource(body []byte) (*dynamo.UntagResourceInput, error) {
	in := new(dynamo.UntagResourceInput)
	d := &decoder{data: body}
	err := d.root("UntagResourceInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "ResourceArn":
			return d.str(&in.ResourceArn)
		case "TagKeys":
			return d.strList(&in.TagKeys)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeListTagsOfResource decodes a ListTagsOfResource request body.
func DecodeListTagsOfResource(body []byte) (*dynamo.ListTagsOfResourceInput, error) {
	in := new(dynamo.ListTagsOfResourceInput)
	d := &decoder{data: body}
	err := d.root("ListTagsOfResourceInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "ResourceArn":
			return d.str(&in.ResourceArn)
		case "NextToken":
			return d.str(&in.NextToken)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// decodeEmpty checks a request that has no members: any JSON object is
// accepted and its members ignored.
func decodeEmpty(body []byte, typ string) error {
	d := &decoder{data: body}
	return d.root(typ, func([]byte) *dynamo.Error { return d.skipValue() })
}

// DecodeDescribeLimits checks a DescribeLimits request body, which has no
// members (the SDKs send {}). The engine has no input type for it.
func DecodeDescribeLimits(body []byte) error {
	return decodeEmpty(body, "DescribeLimitsInput")
}

// DecodeDescribeEndpoints checks a DescribeEndpoints request body, which
// has no members (the SDKs send {}). The engine has no input type for it.
func DecodeDescribeEndpoints(body []byte) error {
	return decodeEmpty(body, "DescribeEndpointsRequest")
}

// Item-operation structures.

func expectedElem(d *decoder, e *dynamo.ExpectedAttributeValue) *dynamo.Error {
	_, err := d.object("ExpectedAttributeValue", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "Value":
			return d.attrField(&e.Value)
		case "Exists":
			return d.boolPtr(&e.Exists)
		case "ComparisonOperator":
			return d.str(&e.ComparisonOperator)
		case "AttributeValueList":
			return decodeList(d, &e.AttributeValueList, atField, attrElem)
		}
		return d.skipValue()
	})
	return err
}

func (d *decoder) expected(dst *map[string]dynamo.ExpectedAttributeValue) *dynamo.Error {
	return decodeMap(d, dst, modelPrefix+"ExpectedAttributeValue", atField, expectedElem)
}

func attributeUpdateElem(d *decoder, u *dynamo.AttributeValueUpdate) *dynamo.Error {
	_, err := d.object("AttributeValueUpdate", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "Action":
			return d.str(&u.Action)
		case "Value":
			return d.attrField(&u.Value)
		}
		return d.skipValue()
	})
	return err
}

// Item operations.

// DecodePutItem decodes a PutItem request body.
func DecodePutItem(body []byte) (*dynamo.PutItemInput, error) {
	in := &dynamo.PutItemInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("PutItemInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "Item":
			return d.item(&in.Item, atField)
		case "ConditionExpression":
			return d.expression(&in.ConditionExpression, &in.EmptyExpressions, dynamo.ExprCondition)
		case "ExpressionAttributeNames":
			return d.strMap(&in.ExpressionAttributeNames)
		case "ExpressionAttributeValues":
			return d.exprValues(&in.ExpressionAttributeValues)
		case "Expected":
			return d.expected(&in.Expected)
		case "ConditionalOperator":
			return d.str(&in.ConditionalOperator)
		case "ReturnValues":
			return d.str(&in.ReturnValues)
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		case "ReturnItemCollectionMetrics":
			return d.str(&in.ReturnItemCollectionMetrics)
		case "ReturnValuesOnConditionCheckFailure":
			return d.str(&in.ReturnValuesOnConditionCheckFailure)
		}
		return d.skipValue()
	})
	err = d.handOver(err, &in.ValueError)
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeGetItem decodes a GetItem request body.
func DecodeGetItem(body []byte) (*dynamo.GetItemInput, error) {
	in := &dynamo.GetItemInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("GetItemInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "Key":
			return d.item(&in.Key, atField)
		case "ConsistentRead":
			_, err := d.boolean(&in.ConsistentRead)
			return err
		case "AttributesToGet":
			return d.strList(&in.AttributesToGet)
		case "ProjectionExpression":
			return d.expression(&in.ProjectionExpression, &in.EmptyExpressions, dynamo.ExprProjection)
		case "ExpressionAttributeNames":
			return d.strMap(&in.ExpressionAttributeNames)
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

// DecodeDeleteItem decodes a DeleteItem request body.
func DecodeDeleteItem(body []byte) (*dynamo.DeleteItemInput, error) {
	in := &dynamo.DeleteItemInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("DeleteItemInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "Key":
			return d.item(&in.Key, atField)
		case "ConditionExpression":
			return d.expression(&in.ConditionExpression, &in.EmptyExpressions, dynamo.ExprCondition)
		case "ExpressionAttributeNames":
			return d.strMap(&in.ExpressionAttributeNames)
		case "ExpressionAttributeValues":
			return d.exprValues(&in.ExpressionAttributeValues)
		case "Expected":
			return d.expected(&in.Expected)
		case "ConditionalOperator":
			return d.str(&in.ConditionalOperator)
		case "ReturnValues":
			return d.str(&in.ReturnValues)
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		case "ReturnItemCollectionMetrics":
			return d.str(&in.ReturnItemCollectionMetrics)
		case "ReturnValuesOnConditionCheckFailure":
			return d.str(&in.ReturnValuesOnConditionCheckFailure)
		}
		return d.skipValue()
	})
	err = d.handOver(err, &in.ValueError)
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeUpdateItem decodes an UpdateItem request body.
func DecodeUpdateItem(body []byte) (*dynamo.UpdateItemInput, error) {
	in := &dynamo.UpdateItemInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("UpdateItemInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "Key":
			return d.item(&in.Key, atField)
		case "UpdateExpression":
			return d.expression(&in.UpdateExpression, &in.EmptyExpressions, dynamo.ExprUpdate)
		case "ConditionExpression":
			return d.expression(&in.ConditionExpression, &in.EmptyExpressions, dynamo.ExprCondition)
		case "ExpressionAttributeNames":
			return d.strMap(&in.ExpressionAttributeNames)
		case "ExpressionAttributeValues":
			return d.exprValues(&in.ExpressionAttributeValues)
		case "AttributeUpdates":
			return decodeMap(d, &in.AttributeUpdates, modelPrefix+"AttributeValueUpdate", atField, attributeUpdateElem)
		case "Expected":
			return d.expected(&in.Expected)
		case "ConditionalOperator":
			return d.str(&in.ConditionalOperator)
		case "ReturnValues":
			return d.str(&in.ReturnValues)
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		case "ReturnItemCollectionMetrics":
			return d.str(&in.ReturnItemCollectionMetrics)
		case "ReturnValuesOnConditionCheckFailure":
			return d.str(&in.ReturnValuesOnConditionCheckFailure)
		}
		return d.skipValue()
	})
	err = d.handOver(err, &in.ValueError)
	if err != nil {
		return nil, err
	}
	return in, nil
}

func keysAndAttributesElem(d *decoder, k *dynamo.KeysAndAttributes) *dynamo.Error {
	_, err := d.object("KeysAndAttributes", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "Keys":
			return d.placed(&k.ValueError, func() *dynamo.Error {
				return decodeList(d, &k.Keys, atField, itemElem)
			})
		case "AttributesToGet":
			return d.strList(&k.AttributesToGet)
		case "ConsistentRead":
			_, err := d.boolean(&k.ConsistentRead)
			return err
		case "ProjectionExpression":
			return d.expression(&k.ProjectionExpression, &k.EmptyExpressions, dynamo.ExprProjection)
		case "ExpressionAttributeNames":
			return d.strMap(&k.ExpressionAttributeNames)
		}
		return d.skipValue()
	})
	return err
}

// DecodeBatchGetItem decodes a BatchGetItem request body.
func DecodeBatchGetItem(body []byte) (*dynamo.BatchGetItemInput, error) {
	in := new(dynamo.BatchGetItemInput)
	d := &decoder{data: body}
	err := d.root("BatchGetItemInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "RequestItems":
			return decodeMap(d, &in.RequestItems, modelPrefix+"KeysAndAttributes", atField, keysAndAttributesElem)
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

func writeRequestElem(d *decoder, w *dynamo.WriteRequest) *dynamo.Error {
	_, err := d.object("WriteRequest", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "PutRequest":
			var it attr.Item
			ok, err := d.object("PutRequest", atField, func(key []byte) *dynamo.Error {
				if string(key) == "Item" {
					return d.placed(&w.ValueError, func() *dynamo.Error { return d.item(&it, atField) })
				}
				return d.skipValue()
			})
			if ok {
				w.PutRequest = &dynamo.PutRequest{Item: it}
			}
			return err
		case "DeleteRequest":
			var it attr.Item
			ok, err := d.object("DeleteRequest", atField, func(key []byte) *dynamo.Error {
				if string(key) == "Key" {
					return d.placed(&w.ValueError, func() *dynamo.Error { return d.item(&it, atField) })
				}
				return d.skipValue()
			})
			if ok {
				w.DeleteRequest = &dynamo.DeleteRequest{Key: it}
			}
			return err
		}
		return d.skipValue()
	})
	return err
}

func writeRequestsElem(d *decoder, list *[]dynamo.WriteRequest) *dynamo.Error {
	return decodeList(d, list, atElement, writeRequestElem)
}

// DecodeBatchWriteItem decodes a BatchWriteItem request body.
func DecodeBatchWriteItem(body []byte) (*dynamo.BatchWriteItemInput, error) {
	in := new(dynamo.BatchWriteItemInput)
	d := &decoder{data: body}
	err := d.root("BatchWriteItemInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "RequestItems":
			return decodeMap(d, &in.RequestItems, "java.util.List<"+modelPrefix+"WriteRequest>", atField, writeRequestsElem)
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		case "ReturnItemCollectionMetrics":
			return d.str(&in.ReturnItemCollectionMetrics)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}
