#!/usr/bin/env python3
"""List every distinct partition key of a table with a composite key.

A plain Scan reads every item. This skip-scan reads one item per partition:
it asks for a page of one item, then resumes from a start key made of that
item's partition key and the largest sort key value its type allows. No
item sorts after that key within the partition, so the next page begins at
the next partition. Each step costs about half a read unit (one small
item, eventually consistent), whatever the size of the partitions.

The start key names an item that does not exist; DynamoDB (and dynago)
accept that, since ExclusiveStartKey is a position, not an item.

Usage:
    AWS_ENDPOINT_URL=http://127.0.0.1:8000 python3 distinct_pks.py \
        --region us-east-1 --table-name Collections --create-sample

AWS_ENDPOINT_URL (or --endpoint-url) points it at dynago; leave both unset
to run it against DynamoDB itself. --create-sample first creates the table,
if it does not exist, with keys pk and sk (strings) and a few items in each
of ten partitions, so the listing has something to find; without it the
table must exist and have a sort key.
"""
import argparse
import decimal
import os
import sys
import time

import boto3
from boto3.dynamodb.types import Binary
from botocore.exceptions import ClientError

# The largest value of each key type: 256 code points of U+10FFFF (the
# 1024-byte sort key limit in UTF-8), the largest DynamoDB number, and
# 1024 bytes of 0xFF.
LARGEST_SORT_KEY = {
    "S": chr(0x10FFFF) * 256,
    "N": decimal.Decimal("9.9999999999999999999999999999999999999E+125"),
    "B": Binary(b"\xff" * 1024),
}

RETRYABLE = {"InternalServerError", "ThrottlingException", "ProvisionedThroughputExceededException"}


def distinct_partition_keys(table):
    """Yield each partition key value of table once, in scan order."""
    schema = {k["KeyType"]: k["AttributeName"] for k in table.key_schema}
    types = {d["AttributeName"]: d["AttributeType"] for d in table.attribute_definitions}
    pk, sk = schema["HASH"], schema.get("RANGE")
    if sk is None:
        raise SystemExit("table has no sort key: every item is its own partition; use a Scan")
    largest = LARGEST_SORT_KEY[types[sk]]

    start = None
    while True:
        params = {"Limit": 1, "ProjectionExpression": "#pk", "ExpressionAttributeNames": {"#pk": pk}}
        if start is not None:
            params["ExclusiveStartKey"] = start
        try:
            page = table.scan(**params)
        except ClientError as err:
            if err.response["Error"]["Code"] in RETRYABLE:
                time.sleep(1)
                continue
            raise
        for item in page["Items"]:
            yield item[pk]
        last = page.get("LastEvaluatedKey")
        if last is None:
            return
        start = {pk: last[pk], sk: largest}


def create_sample(dynamodb, name, partitions=10):
    """Create table name, if missing, holding 1 to 5 items in each of
    partitions partitions (pk "tenant-00", ...), and wait until it is
    ACTIVE."""
    client = dynamodb.meta.client
    try:
        client.create_table(
            TableName=name,
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}],
            BillingMode="PAY_PER_REQUEST",
        )
    except ClientError as err:
        if err.response["Error"]["Code"] != "ResourceInUseException":
            raise
        return  # it exists: list what it holds
    client.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 1})
    with dynamodb.Table(name).batch_writer() as batch:
        for p in range(partitions):
            for i in range(1 + p % 5):
                batch.put_item(Item={"pk": "tenant-%02d" % p, "sk": "item-%03d" % i})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--region", default=os.environ.get("AWS_DEFAULT_REGION", "us-east-1"))
    parser.add_argument("--table-name", required=True)
    parser.add_argument("--endpoint-url", default=os.environ.get("AWS_ENDPOINT_URL"))
    parser.add_argument("--create-sample", action="store_true",
                        help="create the table with sample items first, unless it exists")
    args = parser.parse_args()
    dynamodb = boto3.resource("dynamodb", region_name=args.region, endpoint_url=args.endpoint_url)
    if args.create_sample:
        create_sample(dynamodb, args.table_name)
    for value in distinct_partition_keys(dynamodb.Table(args.table_name)):
        print(value)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
