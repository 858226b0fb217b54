package e2e

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/dynago/dynago/internal/sdkhttp"
	"github.com/dynago/dynago/server/sigv4"
	"github.com/dynago/dynago/testserver"
)

// signedClients returns a DynamoDB and a Streams client for url that
// sign with key (secret "secret-"+key).
func signedClients(url, key string) (*dynamodb.Client, *dynamodbstreams.Client) {
	cr := credentials.NewStaticCredentialsProvider(key, "secret-"+key, "")
	return dynamodb.New(dynamodb.Options{Region: testserver.Region, BaseEndpoint: aws.String(url), Credentials: cr,
			Retryer: aws.NopRetryer{}, HTTPClient: sdkhttp.Client{}}),
		dynamodbstreams.New(dynamodbstreams.Options{Region: testserver.Region, BaseEndpoint: aws.String(url), Credentials: cr,
			Retryer: aws.NopRetryer{}, HTTPClient: sdkhttp.Client{}})
}

// TestResourcePolicyEnforced: with --auth, a request that a table's (or
// a stream's) resource-based policy explicitly denies its signer is
// answered AccessDeniedException, in the form AWS's IAM guide gives an
// explicit deny ("User: <principal> is not authorized to perform:
// <action> on resource: <resource> with an explicit deny in a
// resource-based policy": Troubleshoot access denied error messages);
// whatever no Deny names is allowed, dynago having no identity-based
// policies (docs/AUTH.md). A signer is arn:aws:iam::<account>:user/<key
// id>, and an account principal names every key of the account. A
// transaction is authorized as its items' actions (the DynamoDB
// developer guide's API permissions reference: TransactWriteItems needs
// PutItem, UpdateItem, DeleteItem or ConditionCheckItem on each table);
// a Query of an index on the index's ARN (API_PutResourcePolicy: index
// permissions are set in the table's policy, on the index's ARN).
func TestResourcePolicyEnforced(t *testing.T) {
	needsWire(t)
	const other = "111122223333"
	creds, err := sigv4.NewCredentials(
		sigv4.Credential{AccessKeyID: "AKIDADMIN", SecretAccessKey: "secret-AKIDADMIN"},
		sigv4.Credential{AccessKeyID: "AKIDREADER", SecretAccessKey: "secret-AKIDREADER"},
		sigv4.Credential{AccessKeyID: "AKIDOTHER", SecretAccessKey: "secret-AKIDOTHER", AccountID: other},
	)
	if err != nil {
		t.Fatal(err)
	}
	s := testserver.Start(t, testserver.WithAuth(creds))
	admin, adminStreams := signedClients(s.URL, "AKIDADMIN")
	reader, readerStreams := signedClients(s.URL, "AKIDREADER")
	outsider, _ := signedClients(s.URL, "AKIDOTHER")

	out, err := admin.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName: aws.String("Guarded"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("v"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byV"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("v"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly},
	})
	if err != nil {
		t.Fatal(err)
	}
	streamArn := aws.ToString(out.TableDescription.LatestStreamArn)
	arn := tableARN("Guarded")
	idx := arn + "/index/byV"
	readerArn := "arn:aws:iam::" + testserver.AccountID + ":user/AKIDREADER"
	policy := `{"Version":"2012-10-17","Statement":[
		{"Sid":"ReaderReadsOnly","Effect":"Deny","Principal":{"AWS":"` + readerArn + `"},"Action":["dynamodb:PutItem","dynamodb:Delete*","dynamodb:PartiQLInsert"],"Resource":"` + arn + `"},
		{"Sid":"NoIndexQueries","Effect":"Deny","Principal":{"AWS":["` + readerArn + `"]},"Action":["dynamodb:Query","dynamodb:PartiQLSelect"],"Resource":"` + arn + `/index/*"},
		{"Sid":"NoOtherAccount","Effect":"Deny","Principal":{"AWS":"` + other + `"},"Action":"dynamodb:*","Resource":["` + arn + `","` + arn + `/index/*"]},
		{"Sid":"Conditional","Effect":"Deny","Principal":"*","Action":"dynamodb:GetItem","Resource":"` + arn + `","Condition":{"Bool":{"aws:SecureTransport":"false"}}},
		{"Sid":"Everyone","Effect":"Allow","Principal":"*","Action":"dynamodb:*","Resource":"*"}]}`
	if _, err := admin.PutResourcePolicy(bg(), &dynamodb.PutResourcePolicyInput{ResourceArn: aws.String(arn), Policy: aws.String(policy)}); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.PutResourcePolicy(bg(), &dynamodb.PutResourcePolicyInput{ResourceArn: aws.String(streamArn),
		Policy: aws.String(policyDoc("Deny", readerArn, "dynamodb:DescribeStream", streamArn))}); err != nil {
		t.Fatal(err)
	}
	key := map[string]types.AttributeValue{"pk": S("k")}
	itm := map[string]types.AttributeValue{"pk": S("k"), "v": S("x")}
	deny := func(who, action, resource string) string {
		return "User: " + who + " is not authorized to perform: dynamodb:" + action + " on resource: " + resource + " with an explicit deny in a resource-based policy"
	}

	for _, tc := range []struct {
		name string
		run  func() error
		msg  string // "" when allowed
	}{
		{"admin puts", func() error {
			_, err := admin.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("Guarded"), Item: itm})
			return err
		}, ""},
		{"reader gets", func() error {
			_, err := reader.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("Guarded"), Key: key})
			return err
		}, ""},
		{"reader puts", func() error {
			_, err := reader.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("Guarded"), Item: itm})
			return err
		}, deny(readerArn, "PutItem", arn)},
		// The table's ARN as TableName names the same table.
		{"reader deletes by ARN", func() error {
			_, err := reader.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String(arn), Key: key})
			return err
		}, deny(readerArn, "DeleteItem", arn)},
		{"reader deletes the table", func() error {
			_, err := reader.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("Guarded")})
			return err
		}, deny(readerArn, "DeleteTable", arn)},
		{"reader queries the table", func() error {
			_, err := reader.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("Guarded"), KeyConditionExpression: aws.String("pk = :k"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":k": S("k")}})
			return err
		}, ""},
		{"reader queries the index", func() error {
			_, err := reader.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("Guarded"), IndexName: aws.String("byV"),
				KeyConditionExpression: aws.String("v = :v"), ExpressionAttributeValues: map[string]types.AttributeValue{":v": S("x")}})
			return err
		}, deny(readerArn, "Query", idx)},
		{"reader transacts a put", func() error {
			_, err := reader.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String("Guarded"), Item: itm}}}})
			return err
		}, deny(readerArn, "PutItem", arn)},
		// BatchWriteItem is an action of its own, which no Deny names.
		{"reader batch-writes", func() error {
			_, err := reader.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				"Guarded": {{PutRequest: &types.PutRequest{Item: itm}}}}})
			return err
		}, ""},
		{"other account gets", func() error {
			_, err := outsider.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("Guarded"), Key: key})
			return err
		}, deny("arn:aws:iam::"+other+":user/AKIDOTHER", "GetItem", arn)},
		{"other account scans the index", func() error {
			_, err := outsider.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("Guarded"), IndexName: aws.String("byV")})
			return err
		}, deny("arn:aws:iam::"+other+":user/AKIDOTHER", "Scan", idx)},
		{"reader reads the policy", func() error {
			_, err := reader.GetResourcePolicy(bg(), &dynamodb.GetResourcePolicyInput{ResourceArn: aws.String(arn)})
			return err
		}, ""},
		{"reader describes the stream", func() error {
			_, err := readerStreams.DescribeStream(bg(), &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(streamArn)})
			return err
		}, deny(readerArn, "DescribeStream", streamArn)},
		{"admin describes the stream", func() error {
			_, err := adminStreams.DescribeStream(bg(), &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(streamArn)})
			return err
		}, ""},
		// PartiQL statements are authorized as PartiQLInsert,
		// PartiQLSelect, PartiQLUpdate and PartiQLDelete (the developer
		// guide's "IAM policies with PartiQL for DynamoDB"), on the table
		// or the index a SELECT reads.
		{"reader inserts with PartiQL", func() error {
			_, err := reader.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(`INSERT INTO "Guarded" VALUE {'pk': 'p', 'v': 'x'}`)})
			return err
		}, deny(readerArn, "PartiQLInsert", arn)},
		{"reader inserts in a PartiQL transaction", func() error {
			_, err := reader.ExecuteTransaction(bg(), &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
				{Statement: aws.String(`INSERT INTO "Guarded" VALUE {'pk': 'p', 'v': 'x'}`)}}})
			return err
		}, deny(readerArn, "PartiQLInsert", arn)},
		{"reader selects with PartiQL", func() error {
			_, err := reader.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "Guarded" WHERE pk = 'k'`)})
			return err
		}, ""},
		{"reader selects from the index with PartiQL", func() error {
			_, err := reader.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "Guarded"."byV" WHERE v = 'x'`)})
			return err
		}, deny(readerArn, "PartiQLSelect", idx)},
		// In a batch, a denied statement is its slot's error, code
		// AccessDenied (API_BatchStatementError's codes), and the others
		// run.
		{"reader inserts in a PartiQL batch", func() error {
			o, err := reader.BatchExecuteStatement(bg(), &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
				{Statement: aws.String(`INSERT INTO "Guarded" VALUE {'pk': 'p', 'v': 'x'}`)}}})
			if err != nil {
				return err
			}
			if e := o.Responses[0].Error; e == nil || e.Code != types.BatchStatementErrorCodeEnumAccessDenied ||
				aws.ToString(e.Message) != deny(readerArn, "PartiQLInsert", arn) {
				t.Errorf("batch slot: %+v, want AccessDenied: %s", e, deny(readerArn, "PartiQLInsert", arn))
			}
			return nil
		}, ""},
		// A statement with a Condition is not enforced (docs/AUTH.md).
		{"conditional deny", func() error {
			_, err := admin.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("Guarded"), Key: key})
			return err
		}, ""},
		// Once the policy is deleted, nothing is denied.
		{"admin deletes the policy", func() error {
			_, err := admin.DeleteResourcePolicy(bg(), &dynamodb.DeleteResourcePolicyInput{ResourceArn: aws.String(arn)})
			return err
		}, ""},
		{"reader puts after", func() error {
			_, err := reader.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("Guarded"), Item: itm})
			return err
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if tc.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantErr(t, err, "AccessDeniedException", tc.msg)
		})
	}
}

// TestResourcePolicyNotEnforcedWithoutAuth: without --auth a policy is
// stored and checked, never applied (docs/API.md, docs/AUTH.md).
func TestResourcePolicyNotEnforcedWithoutAuth(t *testing.T) {
	needsWire(t)
	_, c := start(t)
	createHash(t, c, "Open", types.ScalarAttributeTypeS)
	arn := tableARN("Open")
	if _, err := c.PutResourcePolicy(bg(), &dynamodb.PutResourcePolicyInput{ResourceArn: aws.String(arn),
		Policy: aws.String(strings.Replace(policyDoc("Deny", "*", "dynamodb:*", arn), `{"AWS":"*"}`, `"*"`, 1))}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("Open"), Item: map[string]types.AttributeValue{"pk": S("k")}}); err != nil {
		t.Fatalf("PutItem under a policy denying everyone, without --auth: %v", err)
	}
}
