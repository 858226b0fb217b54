// Drives a dynago server with the AWS SDK for JavaScript v3: a table with
// a vector index, items, DescribeTable and SearchVectors. It prints one
// JSON object of what it saw, which e2e/clients_vector_test.go checks.
//
// Usage: node script.mjs <endpoint>
import {
  DynamoDBClient,
  CreateTableCommand,
  DescribeTableCommand,
  PutItemCommand,
  SearchVectorsCommand,
} from "@aws-sdk/client-dynamodb";

const endpoint = process.argv[2];
// On AWS the SDK sends SearchVectors to a search host of its own
// (search-dynamodb.<region>...); given an endpoint, every operation goes
// there.
const client = new DynamoDBClient({
  endpoint,
  region: "us-east-1",
  credentials: { accessKeyId: "x", secretAccessKey: "x" },
  maxAttempts: 1,
});

const table = "vclient";
const out = { calls: {} };

out.create = (await client.send(new CreateTableCommand({
  TableName: table,
  BillingMode: "PAY_PER_REQUEST",
  AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
  KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
  VectorIndexes: [{
    IndexName: "vix",
    VectorAttribute: { AttributeName: "emb" },
    Dimensions: 3,
    DistanceFunction: "EUCLIDEAN",
    Projection: { ProjectionType: "ALL" },
  }],
}))).TableDescription;

// Wait for the table and its index to be ACTIVE; the server in the test
// has no transition delay, so this loop ends at once in practice.
let desc;
for (let i = 0; ; i++) {
  desc = (await client.send(new DescribeTableCommand({ TableName: table }))).Table;
  if (desc.TableStatus === "ACTIVE" && (desc.VectorIndexes ?? []).every((x) => x.IndexStatus === "ACTIVE")) break;
  if (i === 600) throw new Error("table not ACTIVE: " + JSON.stringify(desc));
  await new Promise((r) => setTimeout(r, 100));
}
out.describe = desc;

const items = [
  ["a", ["1", "0", "0"]],
  ["b", ["0", "1", "0"]],
  ["c", ["0.9", "0.1", "0"]],
  ["d", ["-1", "0", "0"]],
];
for (const [pk, v] of items) {
  await client.send(new PutItemCommand({
    TableName: table,
    Item: { pk: { S: pk }, emb: { L: v.map((n) => ({ N: n })) }, tag: { S: "item " + pk } },
  }));
}

// A search's results and capacity, or its error: the SDK's exception,
// named and worded as DynamoDB's.
async function search(input) {
  try {
    const r = await client.send(new SearchVectorsCommand(input));
    return { result: r.SearchResults ?? null, consumed: r.ConsumedCapacity ?? null };
  } catch (e) {
    return { name: e.name, message: e.message, status: e.$metadata?.httpStatusCode };
  }
}
const query = [{ N: "1" }, { N: "0" }, { N: "0" }];
out.calls.missingIndex = await search({ TableName: table, IndexName: "nosuch", SearchVector: query, TopK: 2 });
out.calls.missingTable = await search({ TableName: "nosuch", IndexName: "vix", SearchVector: query, TopK: 2 });
out.calls.wrongDimension = await search({ TableName: table, IndexName: "vix", SearchVector: [{ N: "1" }, { N: "0" }], TopK: 2 });
out.calls.topK = await search({ TableName: table, IndexName: "vix", SearchVector: query, TopK: 101 });
out.calls.search = await search({ TableName: table, IndexName: "vix", SearchVector: query, TopK: 3 });
out.calls.projected = await search({
  TableName: table, IndexName: "vix", SearchVector: query, TopK: 1,
  ProjectionExpression: "pk, emb", ReturnConsumedCapacity: "TOTAL",
});

console.log(JSON.stringify(out));
