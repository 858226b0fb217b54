package sigv4_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/smithy-go"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/internal/sdkhttp"
	"github.com/dynago/dynago/server"
	"github.com/dynago/dynago/server/sigv4"
)

const (
	goodKey    = "AKIDGOOD"
	goodSecret = "good/secret+key"
	tempKey    = "ASIATEMPORARY"
	tempSecret = "temporary-secret"
	tempToken  = "IQoJb3JpZ2luX2VjEXAMPLE//token=="
	credsFile  = goodKey + " " + goodSecret + " 123456789012\n" +
		tempKey + " " + tempSecret + " token=" + tempToken + "\n"
)

// startAuthServer runs the real dynago server, on an in-memory engine,
// behind the verifier, on a loopback port.
func startAuthServer(t *testing.T) (*httptest.Server, *atomic.Pointer[time.Time]) {
	t.Helper()
	db, err := engine.Open(engine.Options{InMemory: true, Region: "us-east-1", AccountID: sigv4.DefaultAccountID})
	if err != nil {
		t.Fatal(err)
	}
	creds, err := sigv4.ParseCredentials(strings.NewReader(credsFile))
	if err != nil {
		t.Fatal(err)
	}
	v := sigv4.NewVerifier(creds)
	// The clock is swapped while the server runs, so it is read
	// atomically: nil is the real time.
	clock := new(atomic.Pointer[time.Time])
	v.Now = func() time.Time {
		if t := clock.Load(); t != nil {
			return *t
		}
		return time.Now()
	}
	// The server checks signatures itself (server.Config.Auth): what
	// dynago serve --auth runs.
	hs := httptest.NewServer(server.New(db, server.Config{Auth: v}))
	t.Cleanup(func() {
		hs.Close()
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return hs, clock
}

func client(url, key, secret, token string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(url),
		Credentials:  credentials.NewStaticCredentialsProvider(key, secret, token),
		Retryer:      aws.NopRetryer{},
		HTTPClient:   sdkhttp.Client{},
	})
}

// wantAPIError checks that the SDK surfaced DynamoDB's exception with
// the exact message and HTTP 400.
func wantAPIError(t *testing.T, err error, code, msg string) {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("error %v is no API error", err)
	}
	if ae.ErrorCode() != code || ae.ErrorMessage() != msg {
		t.Fatalf("got %s: %q\nwant %s: %q", ae.ErrorCode(), ae.ErrorMessage(), code, msg)
	}
	var re *awshttp.ResponseError
	if !errors.As(err, &re) || re.HTTPStatusCode() != http.StatusBadRequest {
		t.Fatalf("error %v: want HTTP 400", err)
	}
}

const invalidSignature = "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details."

func TestSDKAgainstServer(t *testing.T) {
	hs, clock := startAuthServer(t)
	ctx := context.Background()

	t.Run("right credentials", func(t *testing.T) {
		c := client(hs.URL, goodKey, goodSecret, "")
		_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:            aws.String("items"),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
			BillingMode:          types.BillingModePayPerRequest,
		})
		if err != nil {
			t.Fatal(err)
		}
		item := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "k"},
			"v": &types.AttributeValueMemberS{Value: strings.Repeat("x  y ", 200)}}
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("items"), Item: item}); err != nil {
			t.Fatal(err)
		}
		out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("items"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "k"}}})
		if err != nil || out.Item == nil {
			t.Fatalf("GetItem: %v, %v", out, err)
		}
	})
	t.Run("streams client", func(t *testing.T) {
		c := dynamodbstreams.New(dynamodbstreams.Options{
			Region: "us-east-1", BaseEndpoint: aws.String(hs.URL), Retryer: aws.NopRetryer{}, HTTPClient: sdkhttp.Client{},
			Credentials: credentials.NewStaticCredentialsProvider(goodKey, goodSecret, ""),
		})
		if _, err := c.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{}); err != nil {
			t.Fatal(err)
		}
		c = dynamodbstreams.New(dynamodbstreams.Options{
			Region: "us-east-1", BaseEndpoint: aws.String(hs.URL), Retryer: aws.NopRetryer{}, HTTPClient: sdkhttp.Client{},
			Credentials: credentials.NewStaticCredentialsProvider(goodKey, "wrong", ""),
		})
		_, err := c.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{})
		wantAPIError(t, err, "InvalidSignatureException", invalidSignature)
	})
	t.Run("wrong secret", func(t *testing.T) {
		_, err := client(hs.URL, goodKey, "wrong", "").ListTables(ctx, &dynamodb.ListTablesInput{})
		wantAPIError(t, err, "InvalidSignatureException", invalidSignature)
	})
	t.Run("unknown key", func(t *testing.T) {
		_, err := client(hs.URL, "AKIDUNKNOWN", goodSecret, "").ListTables(ctx, &dynamodb.ListTablesInput{})
		wantAPIError(t, err, "UnrecognizedClientException", "The security token included in the request is invalid.")
	})
	t.Run("session token", func(t *testing.T) {
		if _, err := client(hs.URL, tempKey, tempSecret, tempToken).ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
			t.Fatal(err)
		}
		_, err := client(hs.URL, tempKey, tempSecret, "expired-token").ListTables(ctx, &dynamodb.ListTablesInput{})
		wantAPIError(t, err, "UnrecognizedClientException", "The security token included in the request is invalid")
	})
	t.Run("server clock an hour ahead", func(t *testing.T) {
		now := time.Now().UTC().Add(time.Hour).Truncate(time.Second)
		clock.Store(&now)
		defer clock.Store(nil)
		_, err := client(hs.URL, goodKey, goodSecret, "").ListTables(ctx, &dynamodb.ListTablesInput{})
		var ae smithy.APIError
		if !errors.As(err, &ae) || ae.ErrorCode() != "InvalidSignatureException" {
			t.Fatalf("got %v, want InvalidSignatureException", err)
		}
		f := "20060102T150405Z"
		want := regexp.MustCompile(`^Signature expired: \d{8}T\d{6}Z is now earlier than ` +
			now.Add(-15*time.Minute).Format(f) + ` \(` + now.Format(f) + ` - 15 min\.\)$`)
		if !want.MatchString(ae.ErrorMessage()) {
			t.Fatalf("message %q, want %s", ae.ErrorMessage(), want)
		}
	})
	t.Run("no signature", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader("{}"))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		// [dynalite-conn] in verify_test.go: DynamoDB's exact body.
		const want = `{"__type":"com.amazon.coral.service#MissingAuthenticationTokenException","message":"Request is missing Authentication Token"}`
		if res.StatusCode != 400 || string(body) != want {
			t.Fatalf("HTTP %d %s\nwant 400 %s", res.StatusCode, body, want)
		}
		// The checksum DynamoDB sends with this body ([dynalite-conn]).
		if got := res.Header.Get("X-Amz-Crc32"); got != "2088342776" {
			t.Fatalf("x-amz-crc32 %s, want DynamoDB's 2088342776", got)
		}
	})
	t.Run("gzip body signed as sent", func(t *testing.T) {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write([]byte("{}"))
		zw.Close()
		req, _ := http.NewRequest(http.MethodPost, hs.URL, bytes.NewReader(gz.Bytes()))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("Content-Encoding", "gzip")
		sum := sha256.Sum256(gz.Bytes())
		err := v4.NewSigner().SignHTTP(ctx, aws.Credentials{AccessKeyID: goodKey, SecretAccessKey: goodSecret},
			req, hex.EncodeToString(sum[:]), "dynamodb", "us-east-1", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(body), `"TableNames"`) {
			t.Fatalf("HTTP %d %s", res.StatusCode, body)
		}
	})
	t.Run("health check needs no signature", func(t *testing.T) {
		res, err := http.Get(hs.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.HasPrefix(string(body), "healthy: ") {
			t.Fatalf("HTTP %d %q", res.StatusCode, body)
		}
	})
}

// TestDefaultAccountIsTheEngines: a key listed without an account belongs
// to the account the engine puts in ARNs by default.
func TestDefaultAccountIsTheEngines(t *testing.T) {
	if sigv4.DefaultAccountID != engine.DefaultAccountID {
		t.Fatalf("sigv4.DefaultAccountID %s, engine.DefaultAccountID %s", sigv4.DefaultAccountID, engine.DefaultAccountID)
	}
}
