"""Teach an older botocore (before 1.43.64) DynamoDB's vector search.

botocore reads service models from the folders in AWS_DATA_PATH before its
own. This writes, into the folder given, the installed DynamoDB model plus
the SearchVectors operation and the vector members of CreateTable,
UpdateTable and DescribeTable, so that boto3 and the AWS CLI v1 can send
them:

    python3 vector_model.py DIR
    AWS_DATA_PATH=DIR python3 your_program.py

The endpoint rules are left as installed: given an endpoint URL (such as
dynago's), every operation goes to it. Without one, an old botocore would
send SearchVectors to the ordinary DynamoDB host, not to AWS's search host.

The shapes follow the DynamoDB API reference's description of the
operation and its types. A botocore that has SearchVectors already is left
alone (nothing is written).
"""

import json
import os
import sys

import botocore.loaders


def ref(shape, **extra):
    return dict(shape=shape, **extra)


def structure(members, required=()):
    s = {"type": "structure", "members": members}
    if required:
        s["required"] = list(required)
    return s


def list_of(member, **bounds):
    return dict(type="list", member=ref(member), **bounds)


def vector_shapes():
    """The shapes vector search adds, named as in the API reference."""
    index_definition = {
        "IndexName": ref("IndexName"),
        "VectorAttribute": ref("VectorAttributeDefinition"),
        "SearchSchema": ref("SearchSchema"),
        "Projection": ref("Projection"),
        "Dimensions": ref("PositiveLongObject"),
        "DistanceFunction": ref("DistanceFunction"),
    }
    required = ["IndexName", "VectorAttribute", "Projection", "Dimensions", "DistanceFunction"]
    return {
        # SearchVectors' request and answer.
        "SearchVectorsInput": structure(
            {
                "TableName": ref("TableArn"),
                "IndexName": ref("IndexName"),
                "SearchVector": ref("SearchVectorList"),
                "TopK": ref("TopKInteger"),
                "SearchConditionExpression": ref("SearchConditionExpression"),
                "ExpressionAttributeNames": ref("ExpressionAttributeNameMap"),
                "ExpressionAttributeValues": ref("ExpressionAttributeValueMap"),
                "ProjectionExpression": ref("ProjectionExpression"),
                "ReturnConsumedCapacity": ref("ReturnConsumedCapacity"),
            },
            required=["TableName", "IndexName", "SearchVector", "TopK"],
        ),
        "SearchVectorList": list_of("AttributeValue", min=1, max=4096),
        "TopKInteger": {"type": "integer", "box": True, "min": 1},
        "SearchConditionExpression": {"type": "string"},
        "SearchVectorsOutput": structure(
            {
                "SearchResults": ref("SearchResultList"),
                "ConsumedCapacity": ref("VectorCapacity"),
            }
        ),
        "SearchResultList": list_of("SearchResultItem"),
        "SearchResultItem": structure({"Item": ref("AttributeMap"), "Score": ref("VectorScore")}),
        "VectorScore": {"type": "double"},
        # Vector capacity is counted in bytes, not capacity units.
        "VectorCapacity": structure(
            {
                "VectorSearchRequestBytes": ref("VectorBytes"),
                "VectorWriteRequestBytes": ref("VectorBytes"),
            }
        ),
        "VectorBytes": {"type": "double"},
        "VectorIndexesCapacityMap": {"type": "map", "key": ref("IndexName"), "value": ref("VectorCapacity")},
        # An index's definition, on CreateTable and UpdateTable.
        "VectorIndex": structure(dict(index_definition), required=required),
        "VectorIndexList": list_of("VectorIndex"),
        "CreateVectorIndexAction": structure(dict(index_definition), required=required),
        "DeleteVectorIndexAction": structure({"IndexName": ref("IndexName")}, required=["IndexName"]),
        "VectorIndexUpdate": structure(
            {"Create": ref("CreateVectorIndexAction"), "Delete": ref("DeleteVectorIndexAction")}
        ),
        "VectorIndexUpdateList": list_of("VectorIndexUpdate"),
        "VectorAttributeDefinition": structure(
            {"AttributeName": ref("KeySchemaAttributeName")}, required=["AttributeName"]
        ),
        "SearchSchema": list_of("SearchSchemaElement", min=1),
        "SearchSchemaElement": structure(
            {
                "AttributeName": ref("KeySchemaAttributeName"),
                "SearchSchemaElementType": ref("SearchSchemaElementType"),
            },
            required=["AttributeName", "SearchSchemaElementType"],
        ),
        "SearchSchemaElementType": {"type": "string", "enum": ["HASH", "INLINE_FILTER"]},
        "DistanceFunction": {"type": "string", "enum": ["COSINE", "DOT_PRODUCT", "EUCLIDEAN"]},
        # An index as DescribeTable describes it.
        "VectorIndexDescription": structure(
            {
                "IndexName": ref("IndexName"),
                "SearchSchema": ref("SearchSchema"),
                "Projection": ref("Projection"),
                "VectorAttribute": ref("VectorAttributeDefinition"),
                "Dimensions": ref("LongObject"),
                "DistanceFunction": ref("DistanceFunction"),
                "IndexStatus": ref("IndexStatus"),
                "Backfilling": ref("Backfilling"),
                "IndexSizeBytes": ref("LongObject"),
                "ItemCount": ref("LongObject"),
                "IndexArn": ref("String"),
            }
        ),
        "VectorIndexDescriptionList": list_of("VectorIndexDescription"),
    }


# Members the vector shapes add to shapes the installed model has.
ADDED_MEMBERS = {
    "CreateTableInput": {"VectorIndexes": "VectorIndexList"},
    "UpdateTableInput": {"VectorIndexUpdates": "VectorIndexUpdateList"},
    "TableDescription": {"VectorIndexes": "VectorIndexDescriptionList"},
    "ConsumedCapacity": {"VectorIndexes": "VectorIndexesCapacityMap"},
}


def extend(model):
    """Adds vector search to a DynamoDB service model, in place."""
    shapes = model["shapes"]
    for name, shape in vector_shapes().items():
        if name in shapes:
            raise SystemExit("the installed model already has a shape " + name)
        shapes[name] = shape
    for owner, members in ADDED_MEMBERS.items():
        for member, shape in members.items():
            shapes[owner]["members"][member] = ref(shape)
    errors = ["ResourceNotFoundException", "RequestLimitExceeded", "InternalServerError", "ThrottlingException"]
    model["operations"]["SearchVectors"] = {
        "name": "SearchVectors",
        "http": {"method": "POST", "requestUri": "/"},
        "input": ref("SearchVectorsInput"),
        "output": ref("SearchVectorsOutput"),
        "errors": [ref(e) for e in errors if e in shapes],
    }
    # Every shape referred to must exist.
    for name, shape in shapes.items():
        refs = [m["shape"] for m in shape.get("members", {}).values()]
        refs += [shape[k]["shape"] for k in ("member", "key", "value") if k in shape]
        for r in refs:
            if r not in shapes:
                raise SystemExit("shape %s refers to %s, which the model lacks" % (name, r))


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: vector_model.py DIR")
    loader = botocore.loaders.Loader()
    model = loader.load_service_model("dynamodb", "service-2")
    if "SearchVectors" in model["operations"]:
        print("botocore has SearchVectors already; nothing written")
        return
    extend(model)
    version = model["metadata"]["apiVersion"]
    folder = os.path.join(sys.argv[1], "dynamodb", version)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "service-2.json"), "w") as f:
        json.dump(model, f)
    print("wrote " + os.path.join(folder, "service-2.json"))


if __name__ == "__main__":
    main()
