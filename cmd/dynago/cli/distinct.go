package cli

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/toolkit/distinct"
)

func init() {
	register(verb{name: "distinct-keys", summary: "list a table's partition keys by skip-scan, at ~0.5 read units each", run: runDistinctKeys})
}

const distinctSynopsis = `Prints every distinct partition key of a table with a sort key, one per
line, reading about one item per partition instead of the whole table:

  dynago distinct-keys --table Orders
  dynago distinct-keys --table Orders --segments 8 --endpoint-url aws --region eu-west-1

It scans one item, then resumes from a start key made of that item's
partition key and the largest sort key of its type, which lands on the next
partition. Segments of a parallel scan run at once, each over its own
partitions; keys are printed as they are found, so their order is not the
table's. Each step costs about half a read unit (eventually consistent).

With --index NAME it uses the other method instead: a sparse KEYS_ONLY GSI
on an attribute that only one marker item per partition carries (the
"#static" item), scanned in parallel: one small index entry per partition.

At the end it prints, on stderr, the partitions found, the read units the
listing consumed, and what a full Scan would have cost, estimated from the
table size DescribeTable reports. Progress goes to stderr every second.

` + awsSynopsis

func runDistinctKeys(env *Env, args []string) error {
	fs := newFlagSet(env, "distinct-keys", distinctSynopsis)
	target := addAWSFlags(fs)
	table := fs.String("table", "", "table to list (required)")
	segments := fs.Int("segments", 4, "parallel scan segments, 1 to 1000000: more finish sooner on large tables")
	consistent := fs.Bool("consistent", false, "strongly consistent reads (twice the read units)")
	index := fs.String("index", "", "instead of the skip-scan, scan this sparse KEYS_ONLY GSI holding one marker item per partition")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *table == "" {
		fmt.Fprintln(env.Stderr, "--table is required")
		return errUsage
	}
	if *segments < 1 || *segments > 1000000 {
		fmt.Fprintln(env.Stderr, "--segments must be from 1 to 1000000")
		return errUsage
	}
	c, err := target.dynamo(env.Ctx)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(env.Stdout)
	defer out.Flush()
	var found atomic.Int64
	start := time.Now()
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				fmt.Fprintf(env.Stderr, "distinct-keys: %d partitions after %s\n", found.Load(), time.Since(start).Round(time.Second))
			}
		}
	}()
	opts := distinct.Options{
		Segments:       *segments,
		ConsistentRead: *consistent,
		OnKey: func(pk types.AttributeValue) {
			found.Add(1)
			fmt.Fprintln(out, keyText(pk))
		},
	}
	var st distinct.Stats
	if *index != "" {
		st, err = distinct.ListFromIndex(env.Ctx, c, *table, *index, opts)
	} else {
		st, err = distinct.List(env.Ctx, c, *table, opts)
	}
	close(done)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "distinct-keys: %d partitions in %d pages, %s; %.1f read units (a full Scan: about %.1f)\n",
		st.Partitions, st.Pages, time.Since(start).Round(time.Millisecond), st.ReadUnits, st.FullScanUnits)
	return nil
}

// keyText prints a key value: strings and numbers as they are, binaries in
// base64 as the AWS CLI shows them.
func keyText(v types.AttributeValue) string {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return x.Value
	case *types.AttributeValueMemberN:
		return x.Value
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(x.Value)
	}
	return fmt.Sprint(v)
}
