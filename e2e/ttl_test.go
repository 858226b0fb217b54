package e2e

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// Time to Live: UpdateTimeToLive and DescribeTimeToLive through the SDK,
// and expiry through dynago's POST /dynago/ttl/sweep.

func updateTTL(c local.API, table, name string, enabled bool) (*dynamodb.UpdateTimeToLiveOutput, error) {
	return c.UpdateTimeToLive(bg(), &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(name), Enabled: aws.Bool(enabled)}})
}

func describeTTL(t *testing.T, c local.API, table string) *types.TimeToLiveDescription {
	t.Helper()
	out, err := c.DescribeTimeToLive(bg(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatalf("DescribeTimeToLive: %v", err)
	}
	return out.TimeToLiveDescription
}

func TestTimeToLiveAPI(t *testing.T) {
	_, c := start(t) // the default cooldown: one hour, as DynamoDB
	createHash(t, c, "ttl", types.ScalarAttributeTypeS)

	d := describeTTL(t, c, "ttl")
	if d.TimeToLiveStatus != types.TimeToLiveStatusDisabled || d.AttributeName != nil {
		t.Fatalf("TTL of a new table: %s %v", d.TimeToLiveStatus, aws.ToString(d.AttributeName))
	}
	out, err := updateTTL(c, "ttl", "exp", true)
	if err != nil {
		t.Fatal(err)
	}
	if s := out.TimeToLiveSpecification; s == nil || aws.ToString(s.AttributeName) != "exp" || !aws.ToBool(s.Enabled) {
		t.Fatalf("UpdateTimeToLive answered %+v", out.TimeToLiveSpecification)
	}
	d = describeTTL(t, c, "ttl")
	if d.TimeToLiveStatus != types.TimeToLiveStatusEnabled || aws.ToString(d.AttributeName) != "exp" {
		t.Fatalf("TTL after enabling: %s %v", d.TimeToLiveStatus, aws.ToString(d.AttributeName))
	}
	// By table ARN too.
	if d = describeTTL(t, c, tableARN("ttl")); d.TimeToLiveStatus != types.TimeToLiveStatusEnabled {
		t.Fatalf("TTL by ARN: %s", d.TimeToLiveStatus)
	}

	_, err = updateTTL(c, "ttl", "exp", true)
	wantValidation(t, err, "TimeToLive is already enabled")
	_, err = updateTTL(c, "ttl", "exp", false)
	wantValidation(t, err, "Time to live has been modified multiple times within a fixed interval")
	if d = describeTTL(t, c, "ttl"); d.TimeToLiveStatus != types.TimeToLiveStatusEnabled {
		t.Fatalf("a refused change changed TTL: %s", d.TimeToLiveStatus)
	}

	_, err = updateTTL(c, "nosuch", "exp", true)
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Table: nosuch not found")
	_, err = c.DescribeTimeToLive(bg(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("nosuch")})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Table: nosuch not found")

	// Member constraints, which the SDK would check itself.
	s, _ := start(t)
	checkRaw(t, s.Raw(t, "UpdateTimeToLive", `{"TableName":"ttl"}`), 400, "com.amazon.coral.validate#ValidationException",
		"1 validation error detected: Value null at 'timeToLiveSpecification' failed to satisfy constraint: Member must not be null")
	checkRaw(t, s.Raw(t, "UpdateTimeToLive", `{"TableName":"ttl","TimeToLiveSpecification":{"Enabled":"maybe"}}`), 400,
		"com.amazon.coral.service#SerializationException", "Unexpected token received from parser")
}

// TestTimeToLiveToggle turns TTL on and off with the cooldown disabled,
// as tests that toggle TTL run dynago.
func TestTimeToLiveToggle(t *testing.T) {
	s := testserver.Start(t, testserver.WithEngineOptions(func(o *engine.Options) { o.TTLChangeCooldown = -1 }))
	c := s.API
	createHash(t, c, "toggle", types.ScalarAttributeTypeS)
	if _, err := updateTTL(c, "toggle", "exp", true); err != nil {
		t.Fatal(err)
	}
	_, err := updateTTL(c, "toggle", "other", true)
	wantCode(t, err, "ValidationException")
	out, err := updateTTL(c, "toggle", "exp", false)
	if err != nil {
		t.Fatal(err)
	}
	if s := out.TimeToLiveSpecification; aws.ToString(s.AttributeName) != "exp" || aws.ToBool(s.Enabled) {
		t.Fatalf("UpdateTimeToLive disabling answered %+v", s)
	}
	if d := describeTTL(t, c, "toggle"); d.TimeToLiveStatus != types.TimeToLiveStatusDisabled {
		t.Fatalf("TTL after disabling: %s", d.TimeToLiveStatus)
	}
	if _, err := updateTTL(c, "toggle", "other", true); err != nil {
		t.Fatal(err)
	}
	if d := describeTTL(t, c, "toggle"); d.TimeToLiveStatus != types.TimeToLiveStatusEnabled || aws.ToString(d.AttributeName) != "other" {
		t.Fatalf("TTL after enabling another attribute: %s %s", d.TimeToLiveStatus, aws.ToString(d.AttributeName))
	}
}

// sweep runs POST /dynago/ttl/sweep and checks its answer's shape.
func sweep(t *testing.T, url string) int {
	t.Helper()
	res, err := http.Post(url+"/dynago/ttl/sweep", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/x-amz-json-1.0" {
		t.Fatalf("POST /dynago/ttl/sweep: %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	var out map[string]any
	if err := jsonUnmarshal(body, &out); err != nil || len(out) != 1 {
		t.Fatalf("POST /dynago/ttl/sweep answered %s", body)
	}
	n, ok := out["Deleted"].(float64)
	if !ok {
		t.Fatalf("POST /dynago/ttl/sweep answered %s", body)
	}
	// testserver's helper agrees.
	if again, err := testserver.SweepTTL(url); err != nil || again != 0 {
		t.Fatalf("a second sweep right after: %d, %v", again, err)
	}
	return int(n)
}

// TestTimeToLiveSweep puts items with every kind of TTL value, sweeps,
// and checks which items, index entries and stream records remain.
func TestTimeToLiveSweep(t *testing.T) {
	s := testserver.Start(t, testserver.WithEngineOptions(func(o *engine.Options) { o.TTLSweepInterval = -1 }))
	c, sc := s.API, s.StreamsAPI
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:   aws.String("sweep"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byg"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := updateTTL(c, "sweep", "exp", true); err != nil {
		t.Fatal(err)
	}
	createHash(t, c, "nottl", types.ScalarAttributeTypeS)

	now := time.Now().Unix()
	num := func(n int64) types.AttributeValue { return N(strconv.FormatInt(n, 10)) }
	items := map[string]types.AttributeValue{
		"past":     num(now - 60),
		"pastfrac": N(strconv.FormatInt(now-30, 10) + ".5"),
		"future":   num(now + 3600),
		"string":   S(strconv.FormatInt(now-60, 10)),
		"ancient":  num(now - 6*365*86400), // more than five years ago: ignored
		"none":     nil,
		"userdel":  num(now + 3600),
	}
	for pk, exp := range items {
		it := item{"pk": S(pk), "g": S("G")}
		if exp != nil {
			it["exp"] = exp
		}
		put(t, c, "sweep", it)
	}
	put(t, c, "nottl", item{"pk": S("past"), "exp": num(now - 60)})
	// Expired items stay readable until swept.
	if get(t, c, "sweep", item{"pk": S("past")}) == nil {
		t.Fatal("an expired item vanished before the sweep")
	}
	if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("sweep"), Key: item{"pk": S("userdel")}}); err != nil {
		t.Fatal(err)
	}

	if n := sweep(t, s.URL); n != 2 {
		t.Fatalf("the sweep deleted %d items, want 2", n)
	}
	for pk := range items {
		gone := pk == "past" || pk == "pastfrac" || pk == "userdel"
		if got := get(t, c, "sweep", item{"pk": S(pk)}); (got == nil) != gone {
			t.Errorf("item %s: present %v, want %v", pk, got != nil, !gone)
		}
	}
	if get(t, c, "nottl", item{"pk": S("past")}) == nil {
		t.Error("the sweep deleted an item of a table without TTL")
	}
	if n := aws.ToInt64(describe(t, c, "sweep").ItemCount); n != 4 {
		t.Errorf("ItemCount %d after the sweep, want 4", n)
	}
	q, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("sweep"), IndexName: aws.String("byg"),
		KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S("G")}})
	if err != nil {
		t.Fatal(err)
	}
	var inIndex []string
	for _, it := range q.Items {
		inIndex = append(inIndex, it["pk"].(*types.AttributeValueMemberS).Value)
	}
	sort.Strings(inIndex)
	if got := strings.Join(inIndex, ","); got != "ancient,future,none,string" {
		t.Fatalf("GSI after the sweep holds %s", got)
	}

	// The stream: seven INSERTs, the user's REMOVE without an identity,
	// and the sweep's REMOVEs with the TTL service's.
	tl := newTail(t, sc, aws.ToString(describe(t, c, "sweep").LatestStreamArn))
	recs := tl.next()
	var removes []string
	for _, r := range recs {
		if r.EventName != st.OperationTypeRemove {
			continue
		}
		pk := r.Dynamodb.Keys["pk"].(*st.AttributeValueMemberS).Value
		id := "user"
		if u := r.UserIdentity; u != nil {
			if aws.ToString(u.Type) != "Service" || aws.ToString(u.PrincipalId) != "dynamodb.amazonaws.com" {
				t.Fatalf("REMOVE of %s: userIdentity %s %s", pk, aws.ToString(u.Type), aws.ToString(u.PrincipalId))
			}
			id = "ttl"
		}
		if r.Dynamodb.OldImage["exp"] == nil {
			t.Fatalf("REMOVE of %s has no old image: %+v", pk, r.Dynamodb.OldImage)
		}
		removes = append(removes, pk+":"+id)
	}
	sort.Strings(removes)
	if got := strings.Join(removes, " "); got != "past:ttl pastfrac:ttl userdel:user" {
		t.Fatalf("REMOVE records: %s", got)
	}
	if len(recs) != len(items)+3 {
		t.Fatalf("%d stream records, want %d", len(recs), len(items)+3)
	}

	// An item that expires later goes in a later sweep.
	put(t, c, "sweep", item{"pk": S("later"), "exp": num(now - 1)})
	if n := sweep(t, s.URL); n != 1 {
		t.Fatalf("the second sweep deleted %d items, want 1", n)
	}
}

// TestTimeToLiveBackgroundSweeper checks the background sweeper deletes
// an expired item without being asked.
func TestTimeToLiveBackgroundSweeper(t *testing.T) {
	s := testserver.Start(t, testserver.WithEngineOptions(func(o *engine.Options) { o.TTLSweepInterval = 20 * time.Millisecond }))
	c := s.API
	createHash(t, c, "bgsweep", types.ScalarAttributeTypeS)
	if _, err := updateTTL(c, "bgsweep", "exp", true); err != nil {
		t.Fatal(err)
	}
	now := time.Now().Unix()
	put(t, c, "bgsweep", item{"pk": S("old"), "exp": N(fmt.Sprint(now - 10))})
	put(t, c, "bgsweep", item{"pk": S("new"), "exp": N(fmt.Sprint(now + 3600))})
	deadline := time.Now().Add(time.Minute)
	for get(t, c, "bgsweep", item{"pk": S("old")}) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the background sweeper did not delete an expired item in a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if get(t, c, "bgsweep", item{"pk": S("new")}) == nil {
		t.Fatal("the background sweeper deleted an item that has not expired")
	}
}
