package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// endpointVerbs are the verbs that talk to a DynamoDB endpoint.
var endpointVerbs = []string{"bench", "distinct-keys", "plan", "replicate", "retrofit"}

// TestEndpointVerbsTakeEndpointURL checks that every verb that talks to an
// endpoint takes --endpoint-url, as the AWS CLI spells it, and says it
// honours AWS_ENDPOINT_URL.
func TestEndpointVerbsTakeEndpointURL(t *testing.T) {
	for _, v := range endpointVerbs {
		var out, errb bytes.Buffer
		if code := Main([]string{v, "--help"}, nil, &out, &errb); code != 0 {
			t.Fatalf("%s --help: exit %d %s", v, code, errb.String())
		}
		for _, want := range []string{"-endpoint-url", "AWS_ENDPOINT_URL"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s --help does not mention %s", v, want)
			}
		}
	}
}

// isolateAWS points the AWS SDK's configuration at files of the test's
// own and clears the variables that would override them.
func isolateAWS(t *testing.T, credentials string) {
	dir := t.TempDir()
	creds := filepath.Join(dir, "credentials")
	if err := os.WriteFile(creds, []byte(credentials), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config")
	if err := os.WriteFile(cfg, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", creds)
	t.Setenv("AWS_CONFIG_FILE", cfg)
	for _, name := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
		"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB"} {
		t.Setenv(name, "")
	}
}

// TestEndpointFromEnvAndCredentialsFromProfile runs distinct-keys with no
// --endpoint-url against a server that keeps each access key's tables
// apart, so that which tables the verb sees shows whose key it signed
// with: the endpoint comes from AWS_ENDPOINT_URL, the key from a profile
// of the shared credentials file (--profile or AWS_PROFILE), the region
// from AWS_DEFAULT_REGION; the environment's keys win over the file's
// default profile, as in the SDK's default chain.
func TestEndpointFromEnvAndCredentialsFromProfile(t *testing.T) {
	p := testserver.StartProcess(t, "--data-dir", t.TempDir(), "--namespace", "account-region") // a directory: a PostgreSQL --store refuses account-region
	sortedTable(t, sdkAs(p.URL, "TEAMKEY", "eu-west-1"), "Orders", "a", "b", "c")
	isolateAWS(t, "[default]\naws_access_key_id = DEFAULTKEY\naws_secret_access_key = s\n\n[team]\naws_access_key_id = TEAMKEY\naws_secret_access_key = s\n")
	t.Setenv("AWS_ENDPOINT_URL", p.URL)
	t.Setenv("AWS_DEFAULT_REGION", "eu-west-1")
	run := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := Main(append([]string{"distinct-keys", "--table", "Orders"}, args...), nil, &out, &errb)
		return out.String(), errb.String(), code
	}
	if out, errb, code := run("--profile", "team"); code != 0 || len(strings.Fields(out)) != 3 {
		t.Errorf("--profile team: exit %d, keys %q, %s", code, out, errb)
	}
	t.Setenv("AWS_PROFILE", "team")
	if out, errb, code := run(); code != 0 || len(strings.Fields(out)) != 3 {
		t.Errorf("AWS_PROFILE=team: exit %d, keys %q, %s", code, out, errb)
	}
	t.Setenv("AWS_PROFILE", "")
	// The default profile's key has no such table; nor has a key from the
	// environment.
	if _, errb, code := run(); code == 0 || !strings.Contains(errb, "ResourceNotFoundException") {
		t.Errorf("default profile: exit %d, %s; want ResourceNotFoundException (another key's tables)", code, errb)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "TEAMKEY")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "s")
	if out, errb, code := run(); code != 0 || len(strings.Fields(out)) != 3 {
		t.Errorf("AWS_ACCESS_KEY_ID=TEAMKEY: exit %d, keys %q, %s", code, out, errb)
	}
	// --endpoint-url wins over AWS_ENDPOINT_URL.
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1")
	if out, errb, code := run("--endpoint-url", p.URL); code != 0 || len(strings.Fields(out)) != 3 {
		t.Errorf("--endpoint-url over AWS_ENDPOINT_URL: exit %d, keys %q, %s", code, out, errb)
	}
}

// TestLocalEndpointWithoutCredentials checks that a local endpoint needs
// no credentials at all: the chain finds none, and a placeholder signs.
func TestLocalEndpointWithoutCredentials(t *testing.T) {
	s := testserver.Start(t)
	sortedTable(t, s.Client, "nokeys", "a")
	isolateAWS(t, "")
	var out, errb bytes.Buffer
	if code := Main([]string{"distinct-keys", "--table", "nokeys", "--endpoint-url", s.URL}, nil, &out, &errb); code != 0 {
		t.Errorf("no credentials anywhere: exit %d, %s", code, errb.String())
	}
}

// TestNoResumeHintWithoutCheckpoint checks that a run failing before it
// recorded anything does not send the user to a checkpoint file that does
// not exist.
func TestNoResumeHintWithoutCheckpoint(t *testing.T) {
	s := testserver.Start(t)
	cp := filepath.Join(t.TempDir(), "audit.json")
	var out, errb bytes.Buffer
	code := Main([]string{"retrofit", "--endpoint-url", s.URL, "--table", "missing", "--attribute", "d", "--template", "{a}", "--checkpoint", cp}, nil, &out, &errb)
	if code == 0 || strings.Contains(errb.String(), "resume") || !strings.Contains(errb.String(), "no progress was recorded") {
		t.Errorf("exit %d, stderr %q; want a failure that does not offer to resume", code, errb.String())
	}
	if _, err := os.Stat(cp); err == nil {
		t.Errorf("checkpoint %s exists", cp)
	}
	if got := withResumeHint(os.ErrClosed, os.Args[0]); !strings.Contains(got.Error(), "resume from") {
		t.Errorf("with an existing checkpoint: %v", got)
	}
}

// sortedTable creates a table with keys pk and sk holding an item in each
// of the partitions pks.
func sortedTable(t *testing.T, c *dynamodb.Client, name string, pks ...string) {
	t.Helper()
	ctx := context.Background()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, pk := range pks {
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: "1"}}}); err != nil {
			t.Fatal(err)
		}
	}
}
