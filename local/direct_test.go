package local_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/server"
)

// The SDK's interfaces for paginators and waiters that dynago's
// operations have; a *local.Direct must fit each.
var (
	_ dynamodb.QueryAPIClient         = (*local.Direct)(nil)
	_ dynamodb.ScanAPIClient          = (*local.Direct)(nil)
	_ dynamodb.ListTablesAPIClient    = (*local.Direct)(nil)
	_ dynamodb.DescribeTableAPIClient = (*local.Direct)(nil)
	_ local.API                       = (*local.Direct)(nil)
	_ local.API                       = (*dynamodb.Client)(nil)
)

// TestDirectMethodSet finds the operations dynago serves by asking it
// every operation of *dynamodb.Client (an operation it does not serve is
// answered UnknownOperationException), and checks that local.API and
// *local.Direct have each served one with the SDK's exact signature, and
// that API has nothing else.
func TestDirectMethodSet(t *testing.T) {
	db, err := local.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The probe skips the SDK's own validation, so that an empty input
	// reaches the server, and sends [] for its body: an operation the
	// server serves has it decoded (and refused as not a structure)
	// before its engine runs, so that an operation whose engine is still
	// being written, and answers UnknownOperationException itself, is
	// told apart from one the server does not route.
	client := db.Client(func(o *dynamodb.Options) {
		o.Retryer = aws.NopRetryer{}
		o.HTTPClient = arrayBody{o.HTTPClient}
		o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
			s.Initialize.Remove("OperationInputValidation") // absent where nothing is required
			return nil
		})
	})
	ctxType := reflect.TypeFor[context.Context]()
	optType := reflect.TypeFor[[]func(*dynamodb.Options)]()
	errType := reflect.TypeFor[error]()
	apiType := reflect.TypeFor[local.API]()
	directType := reflect.TypeFor[*local.Direct]()
	ct := reflect.TypeOf(client)
	served := map[string]bool{}
	for i := range ct.NumMethod() {
		m := ct.Method(i)
		ft := m.Type // with the receiver
		if ft.NumIn() != 4 || ft.In(1) != ctxType || ft.In(3) != optType || !ft.IsVariadic() ||
			ft.NumOut() != 2 || ft.Out(1) != errType || ft.In(2).Kind() != reflect.Pointer {
			continue // Options, ...
		}
		in := reflect.New(ft.In(2).Elem())
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		res := reflect.ValueOf(client).Method(i).Call([]reflect.Value{reflect.ValueOf(ctx), in})
		cancel()
		var ae smithy.APIError
		if err, _ := res[1].Interface().(error); errors.As(err, &ae) && ae.ErrorCode() == "UnknownOperationException" {
			if _, ok := apiType.MethodByName(m.Name); ok {
				t.Errorf("local.API has %s, which dynago does not serve", m.Name)
			}
			continue
		}
		served[m.Name] = true
		want := reflect.ValueOf(client).Method(i).Type() // without the receiver
		if am, ok := apiType.MethodByName(m.Name); !ok || am.Type != want {
			t.Errorf("local.API lacks %s %v", m.Name, want)
		}
		dm, ok := directType.MethodByName(m.Name)
		if !ok {
			t.Errorf("*local.Direct lacks %s", m.Name)
			continue
		}
		if got := reflect.ValueOf(db.Direct()).MethodByName(m.Name).Type(); got != want {
			t.Errorf("(*local.Direct).%s is %v, want %v", dm.Name, got, want)
		}
	}
	if len(served) < 25 {
		t.Errorf("found %d served operations, want at least the 25 dynago had when this test was written: %v", len(served), served)
	}
	if n := apiType.NumMethod(); n != len(served) {
		t.Errorf("local.API has %d methods, dynago serves %d operations", n, len(served))
	}
}

// arrayBody is an HTTP client that sends every request with the body
// [] through next.
type arrayBody struct{ next dynamodb.HTTPClient }

func (c arrayBody) Do(r *http.Request) (*http.Response, error) {
	r.Body, r.ContentLength = io.NopCloser(strings.NewReader("[]")), 2
	r.GetBody = nil
	return c.next.Do(r)
}

// directFixture opens a database with a table "T" (pk S, sk N) and
// returns the direct client and the SDK's client on the in-process
// transport, both on it.
func directFixture(t *testing.T) (*local.Direct, *dynamodb.Client) {
	t.Helper()
	db, err := local.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	sdk := db.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	d := db.Direct()
	_, err = d.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName: aws.String("Tab"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		BillingMode: types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	return d, sdk
}

func dkey(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberN{Value: sk}}
}

// sameError checks that the direct client's error and the SDK's for the
// same request agree in everything a caller can see: the chain of types,
// the code, the message and the text, but for the request id.
func sameError(t *testing.T, what string, direct, sdk error) {
	t.Helper()
	if direct == nil || sdk == nil {
		t.Fatalf("%s: direct error %v, SDK error %v; want both", what, direct, sdk)
	}
	var chainD, chainS []string
	for e := direct; e != nil; e = errors.Unwrap(e) {
		chainD = append(chainD, reflect.TypeOf(e).String())
	}
	for e := sdk; e != nil; e = errors.Unwrap(e) {
		chainS = append(chainS, reflect.TypeOf(e).String())
	}
	if !reflect.DeepEqual(chainD, chainS) {
		t.Errorf("%s: error types %v, SDK's %v", what, chainD, chainS)
	}
	stripID := func(s string) string {
		if i := strings.Index(s, "RequestID: "); i >= 0 {
			return s[:i] + s[i+len("RequestID: ")+52:]
		}
		return s
	}
	if stripID(direct.Error()) != stripID(sdk.Error()) {
		t.Errorf("%s: error %q, SDK's %q", what, direct.Error(), sdk.Error())
	}
	var ad, as smithy.APIError
	if errors.As(direct, &ad) != errors.As(sdk, &as) {
		t.Fatalf("%s: APIError in one error only: %v / %v", what, direct, sdk)
	}
	if ad != nil && (ad.ErrorCode() != as.ErrorCode() || ad.ErrorMessage() != as.ErrorMessage() || ad.ErrorFault() != as.ErrorFault()) {
		t.Errorf("%s: %s %q, SDK's %s %q", what, ad.ErrorCode(), ad.ErrorMessage(), as.ErrorCode(), as.ErrorMessage())
	}
}

// TestDirectErrors sends requests both clients refuse, in every way the
// direct path handles a refusal, and compares the errors.
func TestDirectErrors(t *testing.T) {
	d, sdk := directFixture(t)
	ctx := context.Background()
	if _, err := d.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "a"}, "sk": &types.AttributeValueMemberN{Value: "1"}, "v": &types.AttributeValueMemberS{Value: "old"}}}); err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(c local.API) error{
		"table not found": func(c local.API) error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("nope"), Key: dkey("a", "1")})
			return err
		},
		"member constraint": func(c local.API) error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("n"), Key: dkey("a", "1")})
			return err
		},
		"PartiQL syntax": func(c local.API) error {
			_, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String("SELEC * FROM Tab")})
			return err
		},
		"PartiQL transaction canceled": func(c local.API) error {
			_, err := c.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
				{Statement: aws.String(`INSERT INTO "Tab" VALUE {'pk': 'a', 'sk': 1}`)},
			}})
			return err
		},
		"batch write of a nil list": func(c local.API) error {
			_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"Tab": nil}})
			return err
		},
		"batch get of a nil key": func(c local.API) error {
			_, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				"Tab": {Keys: []map[string]types.AttributeValue{nil}}}})
			return err
		},
		"PutItem whose JSON is over the request size limit": func(c local.API) error {
			it := dkey("big", "1")
			it["s"] = &types.AttributeValueMemberS{Value: strings.Repeat("\x01", 3<<20)} // 18 MB as JSON
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: it})
			return err
		},
		"BatchWriteItem whose JSON is over the request size limit": func(c local.API) error {
			var reqs []types.WriteRequest
			for i := range 25 {
				it := dkey("big", fmt.Sprint(i))
				it["s"] = &types.AttributeValueMemberS{Value: strings.Repeat("\x01", 120<<10)}
				reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
			}
			_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"Tab": reqs}})
			return err
		},
		"table exists": func(c local.API) error {
			_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Tab"),
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
				BillingMode:          types.BillingModePayPerRequest})
			return err
		},
		"tag without a value": func(c local.API) error {
			_, err := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String("arn:aws:dynamodb:us-east-1:" + local.AccountID + ":table/Tab"),
				Tags: []types.Tag{{Key: aws.String("k")}}})
			return err
		},
		"bad key schema": func(c local.API) error {
			_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Other"),
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: ""}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "SIDEWAYS"}},
				BillingMode:          types.BillingModePayPerRequest})
			return err
		},
		"missing required member (the SDK's own validation)": func(c local.API) error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Tab")})
			return err
		},
		"nil attribute value (the SDK's serialization)": func(c local.API) error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Tab"), Key: map[string]types.AttributeValue{"pk": nil}})
			return err
		},
		"empty set": func(c local.API) error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: "b"}, "sk": &types.AttributeValueMemberN{Value: "1"}, "s": &types.AttributeValueMemberSS{Value: []string{}}}})
			return err
		},
		"malformed number": func(c local.API) error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: dkey("b", "1x")})
			return err
		},
		"empty expression": func(c local.API) error {
			_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("Tab"), KeyConditionExpression: aws.String("")})
			return err
		},
		"conditional check failed with the item": func(c local.API) error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: dkey("a", "1"),
				ConditionExpression:                 aws.String("attribute_not_exists(pk)"),
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
			return err
		},
		"transaction canceled": func(c local.API) error {
			_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String("Tab"), Item: dkey("c", "1")}},
				{ConditionCheck: &types.ConditionCheck{TableName: aws.String("Tab"), Key: dkey("a", "1"),
					ConditionExpression:                 aws.String("v = :x"),
					ExpressionAttributeValues:           map[string]types.AttributeValue{":x": &types.AttributeValueMemberS{Value: "new"}},
					ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
			}})
			return err
		},
		"nesting past the decoder's guard": func(c local.API) error {
			var v types.AttributeValue = &types.AttributeValueMemberS{Value: "x"}
			for range 120 {
				v = &types.AttributeValueMemberL{Value: []types.AttributeValue{v}}
			}
			it := dkey("d", "1")
			it["deep"] = v
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: it})
			return err
		},
		// An HTTP 500 InternalFailure without a message (the
		// ack-api-quirks lab, DDB-TABLE-437).
		"empty WarmThroughput alone": func(c local.API) error {
			_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("Tab"), WarmThroughput: &types.WarmThroughput{}})
			return err
		},
		"nesting past DynamoDB's limit": func(c local.API) error {
			var v types.AttributeValue = &types.AttributeValueMemberS{Value: "x"}
			for range 40 {
				v = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"m": v}}
			}
			it := dkey("d", "1")
			it["deep"] = v
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: it})
			return err
		},
	}
	for name, call := range cases {
		t.Run(name, func(t *testing.T) {
			sameError(t, name, call(d), call(sdk))
		})
	}

	// The typed errors carry what the SDK decodes.
	var ccf *types.ConditionalCheckFailedException
	if err := cases["conditional check failed with the item"](d); !errors.As(err, &ccf) || ccf.Item["v"].(*types.AttributeValueMemberS).Value != "old" {
		t.Errorf("ConditionalCheckFailedException without the old item: %v", err)
	}
	var tce *types.TransactionCanceledException
	if err := cases["transaction canceled"](d); !errors.As(err, &tce) || len(tce.CancellationReasons) != 2 ||
		aws.ToString(tce.CancellationReasons[0].Code) != "None" || aws.ToString(tce.CancellationReasons[1].Code) != "ConditionalCheckFailed" ||
		tce.CancellationReasons[1].Item == nil || tce.CancellationReasons[0].Message != nil {
		t.Errorf("TransactionCanceledException: %v %+v", err, tce)
	}
	var rnf *types.ResourceNotFoundException
	if err := cases["table not found"](d); !errors.As(err, &rnf) {
		t.Errorf("not a ResourceNotFoundException: %v", err)
	}
}

// TestDirectResults compares the direct client's answers with the SDK's
// for the same reads.
func TestDirectResults(t *testing.T) {
	d, sdk := directFixture(t)
	ctx := context.Background()
	for i := range 30 {
		it := dkey("q", string(rune('0'+i/10))+string(rune('0'+i%10)))
		it["l"] = &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberNS{Value: []string{"1", "2.50"}},
			&types.AttributeValueMemberBS{Value: [][]byte{{}, {1, 2}}},
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}},
			&types.AttributeValueMemberNULL{Value: true},
			&types.AttributeValueMemberBOOL{Value: false},
			&types.AttributeValueMemberB{Value: []byte{}},
			&types.AttributeValueMemberL{Value: []types.AttributeValue{}},
		}}
		if _, err := d.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := d.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("Full"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeB},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("g"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"x"}}}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"),
			KeySchema:             []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection:            &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
			ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(4)}}},
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(6)},
		StreamSpecification:   &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
		SSESpecification:      &types.SSESpecification{Enabled: aws.Bool(true)},
		Tags:                  []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}},
		TableClass:            types.TableClassStandardInfrequentAccess,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("Full"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("ttl"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	reads := map[string]func(c local.API) (any, error){
		"DescribeTable": func(c local.API) (any, error) {
			return c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Full")})
		},
		"ListTables": func(c local.API) (any, error) {
			return c.ListTables(ctx, &dynamodb.ListTablesInput{Limit: aws.Int32(1)})
		},
		"DescribeTimeToLive": func(c local.API) (any, error) {
			return c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("Full")})
		},
		"ListTagsOfResource": func(c local.API) (any, error) {
			out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Full")})
			if err != nil {
				return nil, err
			}
			return c.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: out.Table.TableArn})
		},
		"DescribeEndpoints": func(c local.API) (any, error) {
			return c.DescribeEndpoints(ctx, &dynamodb.DescribeEndpointsInput{})
		},
		"DescribeLimits": func(c local.API) (any, error) {
			return c.DescribeLimits(ctx, &dynamodb.DescribeLimitsInput{})
		},
		"GetItem": func(c local.API) (any, error) {
			out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Tab"), Key: dkey("q", "7"), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
			return out, err
		},
		"GetItem of no item": func(c local.API) (any, error) {
			return c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Tab"), Key: dkey("q", "700")})
		},
		"Query": func(c local.API) (any, error) {
			return c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("Tab"), Limit: aws.Int32(7), ScanIndexForward: aws.Bool(false),
				KeyConditionExpression: aws.String("pk = :p"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
				ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "q"}}})
		},
		"Query COUNT": func(c local.API) (any, error) {
			return c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("Tab"), Select: types.SelectCount,
				KeyConditionExpression:    aws.String("pk = :p"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "q"}}})
		},
		"Scan": func(c local.API) (any, error) {
			return c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("Tab"), Limit: aws.Int32(5), ProjectionExpression: aws.String("l[1], sk")})
		},
		"BatchGetItem": func(c local.API) (any, error) {
			return c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				"Tab": {Keys: []map[string]types.AttributeValue{dkey("q", "1"), dkey("q", "2"), dkey("x", "1")}, ConsistentRead: aws.Bool(true)}}})
		},
		"ExecuteStatement": func(c local.API) (any, error) {
			return c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "Tab" WHERE pk = ?`),
				Parameters: []types.AttributeValue{&types.AttributeValueMemberS{Value: "q"}}, Limit: aws.Int32(4)})
		},
		"BatchExecuteStatement": func(c local.API) (any, error) {
			return c.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
				{Statement: aws.String(`SELECT * FROM "Tab" WHERE pk = 'q' AND sk = 5`)},
				{Statement: aws.String(`SELECT * FROM "Tab" WHERE pk = 'q' AND sk = 500`)},
				{Statement: aws.String(`SELECT * FROM "Nope" WHERE pk = 'q' AND sk = 5`)},
			}})
		},
		"TransactGetItems": func(c local.API) (any, error) {
			return c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
				{Get: &types.Get{TableName: aws.String("Tab"), Key: dkey("q", "3")}},
				{Get: &types.Get{TableName: aws.String("Tab"), Key: dkey("x", "3")}},
			}})
		},
	}
	for name, read := range reads {
		t.Run(name, func(t *testing.T) {
			got, err := read(d)
			if err != nil {
				t.Fatal(err)
			}
			want, err := read(sdk)
			if err != nil {
				t.Fatal(err)
			}
			clearMetadata(got)
			clearMetadata(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("direct:\n%#v\nSDK:\n%#v", got, want)
			}
		})
	}
}

// clearMetadata zeroes an output's ResultMetadata, which holds the
// request's HTTP details on the SDK's path only.
func clearMetadata(out any) {
	v := reflect.ValueOf(out).Elem()
	if f := v.FieldByName("ResultMetadata"); f.IsValid() {
		f.Set(reflect.Zero(f.Type()))
	}
}

// TestDirectPaginatorAndWaiter runs the SDK's Query paginator and table
// waiter on a direct client.
func TestDirectPaginatorAndWaiter(t *testing.T) {
	d, _ := directFixture(t)
	ctx := context.Background()
	if err := dynamodb.NewTableExistsWaiter(d).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Tab")}, time.Minute); err != nil {
		t.Fatal(err)
	}
	for i := range 25 {
		if _, err := d.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: dkey("p", string(rune('a'+i)))}); err == nil {
			t.Fatal("a number 'a' was accepted")
		}
		if _, err := d.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: dkey("p", strings.Repeat("1", i+1))}); err != nil {
			t.Fatal(err)
		}
	}
	p := dynamodb.NewQueryPaginator(d, &dynamodb.QueryInput{TableName: aws.String("Tab"), Limit: aws.Int32(10),
		KeyConditionExpression:    aws.String("pk = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "p"}}})
	pages, items := 0, 0
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		items += len(out.Items)
	}
	if pages != 3 || items != 25 {
		t.Errorf("%d pages, %d items; want 3 and 25", pages, items)
	}
}

// TestDirectCanceled checks that a call with a done context fails with
// the context's error, as the SDK's does, and changes nothing.
func TestDirectCanceled(t *testing.T) {
	d, _ := directFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := d.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: dkey("z", "1")})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	out, err := d.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("Tab"), Key: dkey("z", "1")})
	if err != nil || out.Item != nil {
		t.Fatalf("the canceled put wrote: %v %v", out, err)
	}
}

// TestDirectStreams compares the direct Streams client's answers and
// errors with the SDK's.
func TestDirectStreams(t *testing.T) {
	db, err := local.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	d := db.Direct()
	sdk := db.StreamsClient(func(o *dynamodbstreams.Options) { o.Retryer = aws.NopRetryer{} })
	ds := db.DirectStreams()
	out, err := d.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("Str"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	if err != nil {
		t.Fatal(err)
	}
	arn := out.TableDescription.LatestStreamArn
	for i, v := range []string{"a", "b"} {
		if _, err := d.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Str"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "k"}, "v": &types.AttributeValueMemberS{Value: v},
			"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: fmt.Sprint(i)}}}}}); err != nil {
			t.Fatal(err)
		}
	}
	desc, err := ds.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	shard := desc.StreamDescription.Shards[0].ShardId
	it, err := ds.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	reads := map[string]func(c local.StreamsAPI) (any, error){
		"ListStreams": func(c local.StreamsAPI) (any, error) {
			return c.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{})
		},
		"DescribeStream": func(c local.StreamsAPI) (any, error) {
			return c.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
		},
		"GetRecords": func(c local.StreamsAPI) (any, error) {
			out, err := c.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
			if err == nil {
				if len(out.Records) != 2 || out.NextShardIterator == nil {
					t.Errorf("%d records, next iterator %v; want 2 and one", len(out.Records), out.NextShardIterator)
				}
				// An iterator carries the time it was made, to the
				// millisecond: two calls differ in it.
				out.NextShardIterator = nil
			}
			return out, err
		},
	}
	for name, read := range reads {
		got, err := read(ds)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := read(sdk)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		clearMetadata(got)
		clearMetadata(want)
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Errorf("%s: direct:\n%s\nSDK:\n%s", name, g, w)
		}
	}
	errs := map[string]func(c local.StreamsAPI) error{
		"bad iterator": func(c local.StreamsAPI) error {
			_, err := c.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String("nonsense")})
			return err
		},
		"unknown stream": func(c local.StreamsAPI) error {
			_, err := c.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(*arn + "x")})
			return err
		},
		"missing required member": func(c local.StreamsAPI) error {
			_, err := c.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn})
			return err
		},
		"iterator at an unknown sequence number": func(c local.StreamsAPI) error {
			_, err := c.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: shard,
				ShardIteratorType: streamtypes.ShardIteratorTypeAtSequenceNumber, SequenceNumber: aws.String("1")})
			return err
		},
	}
	for name, call := range errs {
		sameError(t, name, call(ds), call(sdk))
	}
}

// TestDirectStreamsMethodSet checks that *local.DirectStreams has every
// operation of *dynamodbstreams.Client (dynago serves all four) with its
// exact signature.
func TestDirectStreamsMethodSet(t *testing.T) {
	ct := reflect.TypeFor[*dynamodbstreams.Client]()
	dt := reflect.TypeFor[*local.DirectStreams]()
	n := 0
	for i := range ct.NumMethod() {
		m := ct.Method(i)
		if m.Type.NumIn() != 4 || m.Type.In(1) != reflect.TypeFor[context.Context]() {
			continue
		}
		n++
		dm, ok := dt.MethodByName(m.Name)
		if !ok || dm.Type.NumIn() != m.Type.NumIn() {
			t.Errorf("*local.DirectStreams lacks %s", m.Name)
			continue
		}
		for j := 1; j < m.Type.NumIn(); j++ {
			if dm.Type.In(j) != m.Type.In(j) {
				t.Errorf("%s: parameter %d is %v, want %v", m.Name, j, dm.Type.In(j), m.Type.In(j))
			}
		}
		for j := range m.Type.NumOut() {
			if dm.Type.Out(j) != m.Type.Out(j) {
				t.Errorf("%s: result %d is %v, want %v", m.Name, j, dm.Type.Out(j), m.Type.Out(j))
			}
		}
	}
	if n != 4 {
		t.Errorf("*dynamodbstreams.Client has %d operations, want 4", n)
	}
}

// TestDirectLeavesInputsAlone checks that the engine's canonical forms
// (numbers, sets) never reach back into the caller's input, and that
// changing an output leaves the database's state alone.
func TestDirectLeavesInputsAlone(t *testing.T) {
	d, _ := directFixture(t)
	ctx := context.Background()
	ns := []string{"1.50", "01"}
	item := dkey("a", "007")
	item["ns"] = &types.AttributeValueMemberNS{Value: ns}
	if _, err := d.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: item}); err != nil {
		t.Fatal(err)
	}
	if ns[0] != "1.50" || ns[1] != "01" || item["sk"].(*types.AttributeValueMemberN).Value != "007" {
		t.Errorf("the input changed: %v, %v", ns, item["sk"])
	}
	out, err := d.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Tab"), Key: dkey("a", "7")})
	if err != nil || out.Item == nil {
		t.Fatalf("GetItem: %v %v", out, err)
	}
	if got := out.Item["sk"].(*types.AttributeValueMemberN).Value; got != "7" {
		t.Errorf("sk %q, want the canonical 7", got)
	}
	got := out.Item["ns"].(*types.AttributeValueMemberNS).Value
	got[0] = "999"
	again, err := d.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Tab"), Key: dkey("a", "7")})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range again.Item["ns"].(*types.AttributeValueMemberNS).Value {
		if n == "999" {
			t.Errorf("changing an output changed the stored item: %v", again.Item["ns"])
		}
	}
}

// TestDirectInvalidUTF8 checks that a string that is not UTF-8 reaches
// the database as the SDK's JSON sends it, each bad byte as U+FFFD.
func TestDirectInvalidUTF8(t *testing.T) {
	d, sdk := directFixture(t)
	ctx := context.Background()
	item := dkey("u", "1")
	item["s"] = &types.AttributeValueMemberS{Value: "a\xffb"}
	item["m"] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k\xfe": &types.AttributeValueMemberSS{Value: []string{"x\xfd"}}}}
	if _, err := d.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: item}); err != nil {
		t.Fatal(err)
	}
	out, err := d.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Tab"), Key: dkey("u", "1")})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Item["s"].(*types.AttributeValueMemberS).Value; got != "a\uFFFDb" {
		t.Errorf("s is %q, want %q", got, "a\uFFFDb")
	}
	if m := out.Item["m"].(*types.AttributeValueMemberM).Value; m["k\uFFFD"] == nil {
		t.Errorf("m is %v, want the key k\\uFFFD", m)
	}
	for name, call := range map[string]func(c local.API) error{
		"table name": func(c local.API) error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Ta\xffb"), Key: dkey("u", "1")})
			return err
		},
		"expression": func(c local.API) error {
			_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("Tab"), KeyConditionExpression: aws.String("pk = :p\xff")})
			return err
		},
		"batch table name": func(c local.API) error {
			_, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				"T\xffab": {Keys: []map[string]types.AttributeValue{dkey("u", "1")}}}})
			return err
		},
	} {
		sameError(t, name, call(d), call(sdk))
	}
}

// TestDirectIdempotentRetry sends the same TransactWriteItems input twice
// through each client: the SDK's sets a made-up ClientRequestToken in the
// input, so the second call repeats the first instead of failing its
// condition, and the direct client must do the same.
func TestDirectIdempotentRetry(t *testing.T) {
	d, sdk := directFixture(t)
	ctx := context.Background()
	for name, c := range map[string]local.API{"direct": d, "sdk": sdk} {
		in := &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Put: &types.Put{
			TableName: aws.String("Tab"), Item: dkey("idem-"+name, "1"), ConditionExpression: aws.String("attribute_not_exists(pk)")}}}}
		for i := range 2 {
			if _, err := c.TransactWriteItems(ctx, in); err != nil {
				t.Errorf("%s: call %d: %v", name, i+1, err)
			}
		}
		if in.ClientRequestToken == nil {
			t.Errorf("%s: no ClientRequestToken set in the input", name)
		}
	}
}

// TestDirectServerBodyLimit opens a database whose server takes bodies of
// 4 KB at most: the direct client refuses a larger request as the SDK's
// client is refused, and takes a smaller one.
func TestDirectServerBodyLimit(t *testing.T) {
	db, err := local.Open(local.WithServerConfig(func(c *server.Config) { c.MaxBodyBytes = 4 << 10 }))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	d, sdk := db.Direct(), db.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	if _, err := d.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Tab"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest}); err != nil {
		t.Fatal(err)
	}
	put := func(c local.API, n int) error {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "k"}, "s": &types.AttributeValueMemberS{Value: strings.Repeat("x", n)}}})
		return err
	}
	sameError(t, "5 KB item", put(d, 5<<10), put(sdk, 5<<10))
	if err := put(d, 3<<10); err != nil {
		t.Errorf("a 3 KB item: %v", err)
	}
}

// TestDirectAfterClose checks that the direct clients of a closed
// database fail as the SDK's do, with ErrClosed.
func TestDirectAfterClose(t *testing.T) {
	db, err := local.Open()
	if err != nil {
		t.Fatal(err)
	}
	d, ds := db.Direct(), db.DirectStreams()
	sdk := db.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	db.Close()
	ctx := context.Background()
	errD := func() error {
		_, err := d.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Tab"), Key: dkey("a", "1")})
		return err
	}()
	errS := func() error {
		_, err := sdk.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Tab"), Key: dkey("a", "1")})
		return err
	}()
	if !errors.Is(errD, local.ErrClosed) || !errors.Is(errS, local.ErrClosed) {
		t.Errorf("GetItem after Close: direct %v, SDK %v; want ErrClosed", errD, errS)
	}
	if _, err := d.DescribeLimits(ctx, &dynamodb.DescribeLimitsInput{}); !errors.Is(err, local.ErrClosed) {
		t.Errorf("DescribeLimits after Close: %v, want ErrClosed", err)
	}
	if _, err := ds.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{}); !errors.Is(err, local.ErrClosed) {
		t.Errorf("ListStreams after Close: %v, want ErrClosed", err)
	}
}
