package e2e

import (
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// Global tables, version 2019.11.21, on one server: a replica made by
// UpdateTable's ReplicaUpdates lives in the namespace of the same access
// key in the other region (--namespace account-region), which a client
// of that region sees. Namespaces are Pebble directories (a PostgreSQL
// store refuses the mode), so these tests run on Pebble whatever
// DYNAGO_TEST_STORE says.

// replicaDeadline bounds every wait for replication: generous, as the
// replicator runs in the background of a shared machine.
const replicaDeadline = 30 * time.Second

// regionClient is an SDK client of the server at url signing with key in
// region.
func regionClient(url, key, region string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region: region, BaseEndpoint: aws.String(url),
		Credentials: credentials.NewStaticCredentialsProvider(key, "secret", ""),
	})
}

// startRegions starts a server keeping a namespace per access key and
// region, and returns clients of one key in us-east-1 and us-west-2.
func startRegions(t *testing.T, extra ...string) (east, west *dynamodb.Client) {
	t.Helper()
	p := testserver.StartProcess(t, append([]string{"--data-dir", t.TempDir(), "--namespace", "account-region"}, extra...)...)
	return regionClient(p.URL, "AKIDGLOBAL", "us-east-1"), regionClient(p.URL, "AKIDGLOBAL", "us-west-2")
}

func addReplica(c *dynamodb.Client, table, region string) (*types.TableDescription, error) {
	out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String(table),
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(region)}}}})
	if err != nil {
		return nil, err
	}
	return out.TableDescription, nil
}

func removeReplica(c *dynamodb.Client, table, region string) (*types.TableDescription, error) {
	out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String(table),
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Delete: &types.DeleteReplicationGroupMemberAction{RegionName: aws.String(region)}}}})
	if err != nil {
		return nil, err
	}
	return out.TableDescription, nil
}

// replicaSet is a description's replicas as "region=STATUS", sorted.
func replicaSet(d *types.TableDescription) []string {
	var out []string
	for _, r := range d.Replicas {
		out = append(out, aws.ToString(r.RegionName)+"="+string(r.ReplicaStatus))
	}
	sort.Strings(out)
	return out
}

// getConsistent reads the item at pk, strongly consistent; nil if none.
func getConsistent(t *testing.T, c *dynamodb.Client, table, pk string) item {
	t.Helper()
	out, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String(table),
		Key: item{"pk": &types.AttributeValueMemberS{Value: pk}}, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatalf("GetItem %s: %v", pk, err)
	}
	return out.Item
}

func putValue(t *testing.T, c *dynamodb.Client, table, pk, v string) {
	t.Helper()
	put(t, c, table, item{"pk": &types.AttributeValueMemberS{Value: pk}, "v": &types.AttributeValueMemberS{Value: v}})
}

func valueOf(it item) string {
	if s, ok := it["v"].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// TestGlobalTableReplicas: a replica made by UpdateTable is described in
// both regions, holds the items written before it, and every write and
// delete in one region reaches the other.
func TestGlobalTableReplicas(t *testing.T) {
	east, west := startRegions(t)
	createHash(t, east, "Songs", types.ScalarAttributeTypeS)
	putValue(t, east, "Songs", "before", "1")

	// A regional table has neither Replicas nor GlobalTableVersion
	// (Alternator's test_nonglobal_table_has_no_global_fields, run
	// against DynamoDB).
	if d := describe(t, east, "Songs"); d.Replicas != nil || d.GlobalTableVersion != nil {
		t.Fatalf("a regional table describes replicas %v, version %v", d.Replicas, aws.ToString(d.GlobalTableVersion))
	}

	// UpdateTable's answer shows the new replica CREATING (the
	// ReplicaStatus enum of AWS's API reference; Alternator's add_region
	// waits for ACTIVE after it).
	d, err := addReplica(east, "Songs", "us-west-2")
	if err != nil {
		t.Fatalf("UpdateTable ReplicaUpdates Create: %v", err)
	}
	if got := replicaSet(d); !reflect.DeepEqual(got, []string{"us-east-1=ACTIVE", "us-west-2=CREATING"}) {
		t.Fatalf("UpdateTable's replicas %v", got)
	}

	// Both regions describe both replicas ACTIVE and GlobalTableVersion
	// 2019.11.21 (AWS's "Determining the version of a global table";
	// Alternator's test_describe_global_table), and the table got a
	// NEW_AND_OLD_IMAGES stream it was never given (Alternator's
	// test_global_table_streaming).
	for region, c := range map[string]*dynamodb.Client{"us-east-1": east, "us-west-2": west} {
		var d *types.TableDescription
		waitFor(t, replicaDeadline, region+" describes both replicas ACTIVE", func() bool {
			out, err := c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("Songs")})
			if err != nil {
				return false
			}
			d = out.Table
			return reflect.DeepEqual(replicaSet(d), []string{"us-east-1=ACTIVE", "us-west-2=ACTIVE"})
		})
		if v := aws.ToString(d.GlobalTableVersion); v != "2019.11.21" {
			t.Errorf("%s: GlobalTableVersion %q", region, v)
		}
		if s := d.StreamSpecification; s == nil || !aws.ToBool(s.StreamEnabled) || s.StreamViewType != types.StreamViewTypeNewAndOldImages {
			t.Errorf("%s: stream %+v, want NEW_AND_OLD_IMAGES", region, s)
		}
		if want := "arn:aws:dynamodb:" + region + ":"; len(aws.ToString(d.TableArn)) < len(want) || aws.ToString(d.TableArn)[:len(want)] != want {
			t.Errorf("%s: TableArn %s", region, aws.ToString(d.TableArn))
		}
	}

	// Each case writes in one region and waits for the other to see it
	// (Alternator's test_global_table_replication; AWS's "How global
	// tables work": a write to one replica is replicated to the others).
	for _, tc := range []struct {
		name     string
		write    func()
		in       *dynamodb.Client
		pk, want string // want "": the item is gone
	}{
		{"items written before the replica are copied", func() {}, west, "before", "1"},
		{"a put in us-east-1 reaches us-west-2", func() { putValue(t, east, "Songs", "a", "east") }, west, "a", "east"},
		{"a put in us-west-2 reaches us-east-1", func() { putValue(t, west, "Songs", "b", "west") }, east, "b", "west"},
		{"an update in us-west-2 reaches us-east-1", func() {
			if _, err := west.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("Songs"),
				Key:              item{"pk": &types.AttributeValueMemberS{Value: "a"}},
				UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item{":v": &types.AttributeValueMemberS{Value: "updated"}}}); err != nil {
				t.Fatal(err)
			}
		}, east, "a", "updated"},
		{"a transaction's write in us-east-1 reaches us-west-2", func() {
			if _, err := east.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Put: &types.Put{
				TableName: aws.String("Songs"), Item: item{"pk": &types.AttributeValueMemberS{Value: "tx"}, "v": &types.AttributeValueMemberS{Value: "txn"}}}}}}); err != nil {
				t.Fatal(err)
			}
		}, west, "tx", "txn"},
		{"a batch's write in us-west-2 reaches us-east-1", func() {
			if _, err := west.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"Songs": {{PutRequest: &types.PutRequest{
				Item: item{"pk": &types.AttributeValueMemberS{Value: "batch"}, "v": &types.AttributeValueMemberS{Value: "batched"}}}}}}}); err != nil {
				t.Fatal(err)
			}
		}, east, "batch", "batched"},
		{"a PartiQL update in us-east-1 reaches us-west-2", func() {
			if _, err := east.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(`UPDATE "Songs" SET v = 'sql' WHERE pk = 'tx'`)}); err != nil {
				t.Fatal(err)
			}
		}, west, "tx", "sql"},
		{"a delete in us-west-2 reaches us-east-1", func() {
			if _, err := west.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("Songs"),
				Key: item{"pk": &types.AttributeValueMemberS{Value: "b"}}}); err != nil {
				t.Fatal(err)
			}
		}, east, "b", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.write()
			waitFor(t, replicaDeadline, tc.name, func() bool {
				it := getConsistent(t, tc.in, "Songs", tc.pk)
				if tc.want == "" {
					return it == nil
				}
				return valueOf(it) == tc.want
			})
		})
	}

	// Items carry no aws:rep:* attributes: only version 2017.11.29 wrote
	// them (AWS's "Global tables: How it works" for that version lists
	// them; the 2019.11.21 pages name none).
	if it := getConsistent(t, west, "Songs", "a"); len(it) != 2 {
		t.Errorf("a replicated item has attributes %v, want pk and v only", it)
	}
}

// TestGlobalTableConcurrentWrites: writes to the same item in both
// regions at once converge, both replicas ending with the same item, the
// last writer's (AWS's "How global tables work": conflicts are resolved
// last writer wins, and every replica agrees on the winner).
func TestGlobalTableConcurrentWrites(t *testing.T) {
	east, west := startRegions(t)
	createHash(t, east, "Hot", types.ScalarAttributeTypeS)
	if _, err := addReplica(east, "Hot", "us-west-2"); err != nil {
		t.Fatal(err)
	}
	for _, pk := range []string{"one", "two", "three"} {
		var wg sync.WaitGroup
		for region, c := range map[string]*dynamodb.Client{"east": east, "west": west} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 20 {
					if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("Hot"), Item: item{
						"pk": &types.AttributeValueMemberS{Value: pk}, "v": &types.AttributeValueMemberS{Value: fmt.Sprintf("%s-%d", region, i)}}}); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		var final string
		waitFor(t, replicaDeadline, pk+": both regions hold the same item", func() bool {
			e, w := getConsistent(t, east, "Hot", pk), getConsistent(t, west, "Hot", pk)
			final = valueOf(e)
			return e != nil && reflect.DeepEqual(e, w)
		})
		// The winner is one region's last write.
		if final != "east-19" && final != "west-19" {
			t.Errorf("%s converged on %q, want one region's last write", pk, final)
		}
	}
}

// TestGlobalTableReplicaErrors: the refusals of replica updates and of
// changes a global table does not take, with DynamoDB's texts.
func TestGlobalTableReplicaErrors(t *testing.T) {
	east, west := startRegions(t)
	createHash(t, east, "Errs", types.ScalarAttributeTypeS)
	const local = "Cannot add, delete, or update the local region through ReplicaUpdates. Use CreateTable, DeleteTable, or UpdateTable as required."
	for _, tc := range []struct {
		name string
		run  func() error
		code string
		msg  string
	}{
		// aws/aws-cli issue 4906 (2020) and
		// rrahul963/serverless-create-global-dynamodb-table issue 44
		// (2021) quote DynamoDB's answer to a replica in the table's own
		// region; Alternator's test_add_region_already_exists matches it
		// against DynamoDB.
		{"create in the local region", func() error { _, err := addReplica(east, "Errs", "us-east-1"); return err }, "ValidationException", local},
		{"delete the local region", func() error { _, err := removeReplica(east, "Errs", "us-east-1"); return err }, "ValidationException", local},
		// UpdateTable looks the table up as for any other change.
		{"create for a missing table", func() error { _, err := addReplica(east, "Nope", "us-west-2"); return err },
			"ResourceNotFoundException", "Requested resource not found: Table: Nope not found"},
		// A global table's stream cannot be disabled:
		// terraform-aws-modules/terraform-aws-dynamodb-table pull
		// request 30 quotes the text; Alternator's
		// test_global_table_streaming_cannot_be_changed matches it
		// against DynamoDB.
		{"disable the stream of a global table", func() error {
			if _, err := addReplica(east, "Errs", "us-west-2"); err != nil {
				return err
			}
			_, err := east.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("Errs"),
				StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}})
			return err
		}, "ValidationException", "One or more parameter values were invalid: Disabling Stream is not allowed for a Global Table replica."},
		// The 2017.11.29 operations do not see a 2019.11.21 global table
		// (Alternator's test_v1_describe_global_table_on_v2_global_table,
		// run against DynamoDB).
		{"DescribeGlobalTable of a 2019.11.21 global table", func() error {
			_, err := west.DescribeGlobalTable(bg(), &dynamodb.DescribeGlobalTableInput{GlobalTableName: aws.String("Errs")})
			return err
		}, "GlobalTableNotFoundException", "Global table not found: Global table with name: 'Errs' does not exist."},
	} {
		t.Run(tc.name, func(t *testing.T) { wantErr(t, tc.run(), tc.code, tc.msg) })
	}
}

// TestGlobalTableReplicaRemoved: deleting the replica deletes the table
// in its region (AWS's API reference, ReplicationGroupUpdate: Delete
// "deleting the replica and all if its items in the destination
// Region"), and the table left alone is regional again, its stream still
// on and now free to be disabled (Alternator's
// test_global_table_reverts_to_nonglobal_after_removing_replica, run
// against DynamoDB).
func TestGlobalTableReplicaRemoved(t *testing.T) {
	east, west := startRegions(t)
	createHash(t, east, "Gone", types.ScalarAttributeTypeS)
	if _, err := addReplica(east, "Gone", "us-west-2"); err != nil {
		t.Fatal(err)
	}
	_, err := removeReplica(west, "Gone", "us-west-2")
	wantErr(t, err, "ValidationException", "Cannot add, delete, or update the local region through ReplicaUpdates. Use CreateTable, DeleteTable, or UpdateTable as required.")
	d, err := removeReplica(east, "Gone", "us-west-2")
	if err != nil {
		t.Fatalf("UpdateTable ReplicaUpdates Delete: %v", err)
	}
	if got := replicaSet(d); !reflect.DeepEqual(got, []string{"us-west-2=DELETING"}) {
		t.Errorf("UpdateTable's replicas %v, want us-west-2 DELETING", got)
	}
	waitFor(t, replicaDeadline, "the replica's table is gone", func() bool {
		_, err := west.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("Gone")})
		return err != nil
	})
	d = describe(t, east, "Gone")
	if d.Replicas != nil || d.GlobalTableVersion != nil {
		t.Errorf("a table without replicas describes %v, version %v", d.Replicas, aws.ToString(d.GlobalTableVersion))
	}
	if s := d.StreamSpecification; s == nil || s.StreamViewType != types.StreamViewTypeNewAndOldImages {
		t.Errorf("stream %+v, want NEW_AND_OLD_IMAGES kept", s)
	}
	if _, err := east.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("Gone"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}}); err != nil {
		t.Errorf("disabling the stream of a table no longer global: %v", err)
	}
}

// TestGlobalTableKeysOnlyStream: a table whose stream is KEYS_ONLY keeps
// it when it gets a replica, and still replicates (Alternator's
// test_global_table_keys_only_is_enough, run against DynamoDB).
func TestGlobalTableKeysOnlyStream(t *testing.T) {
	east, west := startRegions(t)
	if _, err := east.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:            aws.String("Keys"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := addReplica(east, "Keys", "us-west-2"); err != nil {
		t.Fatal(err)
	}
	if s := describe(t, east, "Keys").StreamSpecification; s == nil || s.StreamViewType != types.StreamViewTypeKeysOnly {
		t.Errorf("stream %+v, want KEYS_ONLY kept", s)
	}
	putValue(t, east, "Keys", "k", "east")
	waitFor(t, replicaDeadline, "a write reaches the other region", func() bool { return valueOf(getConsistent(t, west, "Keys", "k")) == "east" })
}

// TestGlobalTableNeedsRegions: a server keeping one database for every
// region (the default, DynamoDB Local's -sharedDb) has no other region to
// put a replica in, and refuses ReplicaUpdates in dynago's own words (no
// DynamoDB answer applies: every region of AWS is another service).
func TestGlobalTableNeedsRegions(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "Solo", types.ScalarAttributeTypeS)
	_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("Solo"),
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String("eu-west-1")}}}})
	wantValidation(t, err, "This server keeps one database for every region, so a table cannot have replicas in other regions: serve with --namespace account-region")
}

// TestGlobalTableReplicationLag: --replication-lag holds every change
// back from the other replicas that long, and /metrics counts what waits
// (dynago's own knob: DynamoDB replicates "usually within a second",
// AWS's "How global tables work", and no setting changes it). An hour is
// far longer than the test, so nothing here races the clock.
func TestGlobalTableReplicationLag(t *testing.T) {
	p := testserver.StartProcess(t, "--data-dir", t.TempDir(), "--namespace", "account-region", "--replication-lag", "1h")
	east, west := regionClient(p.URL, "AKIDGLOBAL", "us-east-1"), regionClient(p.URL, "AKIDGLOBAL", "us-west-2")
	createHash(t, east, "Slow", types.ScalarAttributeTypeS)
	putValue(t, east, "Slow", "before", "copied")
	if _, err := addReplica(east, "Slow", "us-west-2"); err != nil {
		t.Fatal(err)
	}
	// The copy made when the replica is created is not held back.
	if v := valueOf(getConsistent(t, west, "Slow", "before")); v != "copied" {
		t.Fatalf("the replica's copy holds %q", v)
	}
	putValue(t, east, "Slow", "later", "held")
	if it := getConsistent(t, west, "Slow", "later"); it != nil {
		t.Fatalf("a change reached the other region before --replication-lag: %v", it)
	}
	res, err := http.Get(p.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if want := `dynago_replication_pending_records{region="us-east-1",table="Slow"} 1`; !strings.Contains(string(body), want+"\n") {
		t.Errorf("/metrics lacks %s:\n%s", want, grepLines(string(body), "dynago_replication"))
	}
	if !strings.Contains(string(body), `dynago_replication_lag_seconds{region="us-east-1",table="Slow"}`) {
		t.Errorf("/metrics lacks the replication lag of Slow:\n%s", grepLines(string(body), "dynago_replication"))
	}
}

// grepLines returns the lines of s that contain sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestGlobalTableReplicaDeletedAsTable: DeleteTable of one replica
// deletes it as a regular table, stops replication to its region and
// leaves the other replicas (AWS's "How global tables work", common
// tasks: a replica is deleted as a regular table is).
func TestGlobalTableReplicaDeletedAsTable(t *testing.T) {
	east, west := startRegions(t)
	createHash(t, east, "Drop", types.ScalarAttributeTypeS)
	if _, err := addReplica(east, "Drop", "us-west-2"); err != nil {
		t.Fatal(err)
	}
	if _, err := west.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("Drop")}); err != nil {
		t.Fatalf("DeleteTable of the us-west-2 replica: %v", err)
	}
	d := describe(t, east, "Drop")
	if d.Replicas != nil || d.GlobalTableVersion != nil {
		t.Errorf("the table left alone describes replicas %v, version %v", replicaSet(d), aws.ToString(d.GlobalTableVersion))
	}
	putValue(t, east, "Drop", "after", "east")
	if v := valueOf(getConsistent(t, east, "Drop", "after")); v != "east" {
		t.Errorf("the table left alone holds %q", v)
	}
}
