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
        --region us-east-1 --table-name MyTable

AWS_ENDPOINT_URL (or --endpoint-url) points it at dynago; leave both unset
to run it against DynamoDB itself.
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--region", default=os.environ.get("AWS_DEFAULT_REGION", "us-east-1"))
    parser.add_argument("--table-name", required=True)
    parser.add_argument("--endpoint-url", default=os.environ.get("AWS_ENDPOINT_URL"))
    args = parser.parse_args()
    dynamodb = boto3.resource("dynamodb", region_name=args.region, endpoint_url=args.endpoint_url)
    for value in distinct_partition_keys(dynamodb.Table(args.table_name)):
        print(value)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
