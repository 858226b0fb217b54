"""Drives a dynago server's vector search with boto3.

The same scenario as e2e/testdata/js/script.mjs: a table with a vector
index, items, DescribeTable and SearchVectors. It prints one JSON object
of what it saw, which e2e/clients_vector_test.go checks. A botocore
older than 1.43.64 needs AWS_DATA_PATH set to vector_model.py's output.

    python3 vector_search.py ENDPOINT
"""

import json
import sys
import time

import boto3
import botocore.config

endpoint = sys.argv[1]
client = boto3.client(
    "dynamodb",
    endpoint_url=endpoint,
    region_name="us-east-1",
    aws_access_key_id="x",
    aws_secret_access_key="x",
    config=botocore.config.Config(retries={"max_attempts": 1}),
)
if "SearchVectors" not in client.meta.service_model.operation_names:
    raise SystemExit("this botocore has no SearchVectors: set AWS_DATA_PATH to vector_model.py's output")

table = "vclient"
out = {"calls": {}}
out["create"] = client.create_table(
    TableName=table,
    BillingMode="PAY_PER_REQUEST",
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
    VectorIndexes=[
        {
            "IndexName": "vix",
            "VectorAttribute": {"AttributeName": "emb"},
            "Dimensions": 3,
            "DistanceFunction": "EUCLIDEAN",
            "Projection": {"ProjectionType": "ALL"},
        }
    ],
)["TableDescription"]

# Wait for the table and its index to be ACTIVE; the server in the test
# has no transition delay, so this loop ends at once in practice.
for i in range(601):
    desc = client.describe_table(TableName=table)["Table"]
    if desc["TableStatus"] == "ACTIVE" and all(x["IndexStatus"] == "ACTIVE" for x in desc.get("VectorIndexes", [])):
        break
    if i == 600:
        raise SystemExit("table not ACTIVE: %r" % desc)
    time.sleep(0.1)
out["describe"] = desc

items = [("a", ["1", "0", "0"]), ("b", ["0", "1", "0"]), ("c", ["0.9", "0.1", "0"]), ("d", ["-1", "0", "0"])]
for pk, v in items:
    client.put_item(
        TableName=table,
        Item={"pk": {"S": pk}, "emb": {"L": [{"N": n} for n in v]}, "tag": {"S": "item " + pk}},
    )


def search(**kw):
    """One SearchVectors call: its results and capacity, or its error's code and message."""
    try:
        r = client.search_vectors(**kw)
        return {"result": r.get("SearchResults"), "consumed": r.get("ConsumedCapacity")}
    except client.exceptions.ClientError as e:
        return {
            "name": e.response["Error"]["Code"],
            "message": e.response["Error"]["Message"],
            "status": e.response["ResponseMetadata"]["HTTPStatusCode"],
        }


query = [{"N": "1"}, {"N": "0"}, {"N": "0"}]
calls = out["calls"]
calls["missingIndex"] = search(TableName=table, IndexName="nosuch", SearchVector=query, TopK=2)
calls["missingTable"] = search(TableName="nosuch", IndexName="vix", SearchVector=query, TopK=2)
calls["wrongDimension"] = search(TableName=table, IndexName="vix", SearchVector=[{"N": "1"}, {"N": "0"}], TopK=2)
calls["topK"] = search(TableName=table, IndexName="vix", SearchVector=query, TopK=101)
calls["search"] = search(TableName=table, IndexName="vix", SearchVector=query, TopK=3)
calls["projected"] = search(
    TableName=table,
    IndexName="vix",
    SearchVector=query,
    TopK=1,
    ProjectionExpression="pk, emb",
    ReturnConsumedCapacity="TOTAL",
)

print(json.dumps(out, default=str))
