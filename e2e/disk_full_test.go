package e2e

import (
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/internal/storage/pebblestore"
	"github.com/dynago/dynago/testserver"
)

// smallDisk mounts an 8 MiB tmpfs for the test and returns its path; it
// skips the test when it cannot (not root, or no mount).
func smallDisk(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("a full disk needs a small file system of its own: mounting a tmpfs needs root")
	}
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs for a full disk: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// A data directory whose disk fills up: PutItem goes on until writes fail,
// and they fail with a 5xx, unapplied, while the server stays up and
// reads go on; after a restart every acknowledged item is there, no
// refused one is, and the index holds exactly the table's items.
func TestDiskFullRefusesWrites(t *testing.T) {
	needsWire(t)
	dir := filepath.Join(smallDisk(t), "data")
	open := func() storage.Store {
		st, err := pebblestore.Open(pebblestore.Options{Dir: dir, MemTableSize: 256 << 10, CacheSize: 1 << 20})
		if err != nil {
			t.Fatalf("open the store on the small disk: %v", err)
		}
		return st
	}
	s := testserver.Start(t, testserver.WithStore(open()))
	c := s.Client
	createFaultTable(t, c, "full")
	tbl := aws.String("full")
	acked := map[string]bool{"a": true, "b": true}
	var refused []string
	val := make([]byte, 64<<10) // incompressible
	// Each kind of write, in turn, with new keys, until each has been
	// refused: space comes and goes as Pebble flushes and compacts, so a
	// write after a refused one may be admitted, and is acknowledged then.
	writes := []struct {
		name string
		do   func(i int) ([]string, error)
	}{
		{"PutItem", func(i int) ([]string, error) {
			k := fmt.Sprint("p", i)
			_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: tbl, Item: item{"pk": S(k), "g": S("x"), "v": B(val)}})
			return []string{k}, err
		}},
		{"UpdateItem", func(i int) ([]string, error) {
			k := fmt.Sprint("u", i)
			_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: tbl, Key: item{"pk": S(k)},
				UpdateExpression: aws.String("SET g = :g, v = :v"), ExpressionAttributeValues: item{":g": S("x"), ":v": B(val)}})
			return []string{k}, err
		}},
		{"BatchWriteItem", func(i int) ([]string, error) {
			k := fmt.Sprint("bw", i)
			out, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				"full": {{PutRequest: &types.PutRequest{Item: item{"pk": S(k), "g": S("x"), "v": B(val)}}}}}})
			if err == nil && len(out.UnprocessedItems) > 0 {
				t.Fatalf("BatchWriteItem left %v unprocessed", out.UnprocessedItems)
			}
			return []string{k}, err
		}},
		{"TransactWriteItems", func(i int) ([]string, error) {
			a, b := fmt.Sprint("ta", i), fmt.Sprint("tb", i)
			_, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: tbl, Item: item{"pk": S(a), "g": S("x"), "v": B(val)}}},
				{Put: &types.Put{TableName: tbl, Item: item{"pk": S(b), "g": S("x"), "v": B(val)}}}}})
			return []string{a, b}, err
		}},
	}
	refusedBy := map[string]int{}
	for i := 0; len(refusedBy) < len(writes); i++ {
		if i == 2000 {
			t.Fatalf("%d writes of 64 KiB to an 8 MiB disk; refused: %v", i, refusedBy)
		}
		w := writes[i%len(writes)]
		rand.Read(val)
		ks, err := w.do(i)
		if err != nil {
			wantServerError(t, w.name+" on a full disk", err)
			refused = append(refused, ks...)
			refusedBy[w.name]++
			continue
		}
		for _, k := range ks {
			acked[k] = true
		}
	}
	t.Logf("%d items acknowledged, %d refused: %v", len(acked), len(refused), refusedBy)
	// Reads go on.
	for k := range acked {
		out, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: tbl, Key: item{"pk": S(k)}, ConsistentRead: aws.Bool(true)})
		if err != nil || out.Item == nil {
			t.Fatalf("GetItem %s on a full disk: %v, %v", k, out, err)
		}
	}

	// Restart on the same directory.
	if err := s.DB.Close(); err != nil {
		t.Fatalf("close on a full disk: %v", err)
	}
	s = testserver.Start(t, testserver.WithStore(open()))
	c = s.Client
	for k := range acked {
		out, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: tbl, Key: item{"pk": S(k)}, ConsistentRead: aws.Bool(true)})
		if err != nil || out.Item == nil {
			t.Errorf("acknowledged item %s after a restart: %v, %v", k, out, err)
		}
	}
	for _, k := range refused {
		out, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: tbl, Key: item{"pk": S(k)}, ConsistentRead: aws.Bool(true)})
		if err != nil || out.Item != nil {
			t.Errorf("refused item %s after a restart: %v, %v; want none", k, out, err)
		}
	}
	// Nothing half-written: the index holds exactly the table's items.
	keysOf := func(p interface {
		HasMorePages() bool
	}, next func() ([]item, error)) []string {
		var ks []string
		for p.HasMorePages() {
			items, err := next()
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range items {
				ks = append(ks, it["pk"].(*types.AttributeValueMemberS).Value)
			}
		}
		sort.Strings(ks)
		return ks
	}
	sp := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: tbl, ConsistentRead: aws.Bool(true), ProjectionExpression: aws.String("pk")})
	base := keysOf(sp, func() ([]item, error) { o, err := sp.NextPage(bg()); return itemsOr(o, err) })
	qp := dynamodb.NewQueryPaginator(c, &dynamodb.QueryInput{TableName: tbl, IndexName: aws.String("byg"), ProjectionExpression: aws.String("pk"),
		KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S("x")}})
	index := keysOf(qp, func() ([]item, error) {
		o, err := qp.NextPage(bg())
		if err != nil {
			return nil, err
		}
		return o.Items, nil
	})
	if fmt.Sprint(base) != fmt.Sprint(index) {
		t.Errorf("after a full disk and a restart the table holds %v and its index %v", base, index)
	}
	if len(base) != len(acked) {
		t.Errorf("the table holds %d items; %d were acknowledged", len(base), len(acked))
	}
}

func itemsOr(o *dynamodb.ScanOutput, err error) ([]item, error) {
	if err != nil {
		return nil, err
	}
	return o.Items, nil
}
