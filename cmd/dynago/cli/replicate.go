package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/toolkit/replicate"
)

func init() {
	register(verb{name: "replicate", summary: "copy a table into a new one while writes continue: scan, stream catch-up, verify", run: runReplicate})
}

const replicateSynopsis = `Copies a table into another while applications keep writing the source,
optionally transforming items on the way, and can check the copy:

  dynago replicate --source Orders --target Orders2 --enable-stream \
    --set 'customerMonth={customerId}#{month}' \
    --checkpoint orders.replicate.json --verify

It runs in three phases, each recorded in the checkpoint:

  1. mark: read the source's DynamoDB stream to its tip, applying nothing,
     and remember where every shard stood. Every later change has a
     stream record past this mark.
  2. scan: copy every item with a parallel, strongly consistent Scan and
     BatchWriteItem (--segments at once).
  3. catch-up: apply the stream records since the mark, shard by shard in
     order: INSERT and MODIFY write the item's new image, REMOVE deletes
     it. Replaying a change the scan already copied is harmless, since
     every record rewrites the whole item and later records follow it, so
     the copy ends exactly equal to the source.

With --follow it then keeps applying new records until Ctrl-C: run it up to
a cutover, stop the application's writes, press Ctrl-C, and run the same
command with --verify (and without --follow): it catches up the last
records and compares both tables item by item (exit status 1 when they
differ). Without --follow, a run catches up to about when its catch-up
started; run it again with the same --checkpoint to catch up further.

The source needs a stream with new images (NEW_IMAGE or NEW_AND_OLD_IMAGES);
--enable-stream turns one on (NEW_AND_OLD_IMAGES) if it has none. Stream
records are kept 24 hours: a replication stopped longer than that cannot
resume and must start over. The target is created when missing, with the
source's key schema and billing mode (indexes are not copied); a new
replication refuses a target that already holds items.

--set name=template derives an attribute ({name} is an attribute's value,
as in "dynago retrofit"). --key-hash and --key-range give the target a new
key design, e.g. --key-hash 'pk=CUSTOMER#{customerId}' --key-range
'sk=ORDER#{orderId}': each must map distinct source items to distinct
keys, and a key read from non-key attributes needs NEW_AND_OLD_IMAGES (a
change that moves an item deletes its old copy). Progress goes to stderr
every second.

` + awsSynopsis

// multiFlag collects a repeated flag.
type multiFlag []string

func (m *multiFlag) String() string { return strings.Join(*m, " ") }

func (m *multiFlag) Set(s string) error {
	*m = append(*m, s)
	return nil
}

func runReplicate(env *Env, args []string) error {
	fs := newFlagSet(env, "replicate", replicateSynopsis)
	where := addAWSFlags(fs)
	streamsEndpoint := fs.String("streams-endpoint", "", "DynamoDB Streams endpoint URL; --endpoint-url by default (dynago serves both;\nwith --endpoint-url aws, AWS's Streams endpoint of the region)")
	source := fs.String("source", "", "table to copy (required)")
	target := fs.String("target", "", "table to copy into, created if missing (required)")
	var sets multiFlag
	fs.Var(&sets, "set", "name=template: derive an attribute on the way; repeatable")
	keyHash := fs.String("key-hash", "", "name=template: the target's partition key, for a new key design")
	keyRange := fs.String("key-range", "", "name=template: the target's sort key, with --key-hash")
	segments := fs.Int("segments", 4, "parallel scan segments (copy and verify)")
	pageSize := fs.Int("page-size", 500, "items per Scan page; the checkpoint is written after each page")
	checkpoint := fs.String("checkpoint", "", "file recording progress, to resume an interrupted run or catch up again; none by default")
	follow := fs.Bool("follow", false, "after the catch-up, keep applying new records until Ctrl-C")
	verify := fs.Bool("verify", false, "at the end, compare both tables item by item; exit status 1 if they differ")
	examples := fs.Int("examples", 10, "with --verify: the most differences to print")
	enableStream := fs.Bool("enable-stream", false, "turn on the source's stream (NEW_AND_OLD_IMAGES) if it has none")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *source == "" || *target == "" {
		fmt.Fprintln(env.Stderr, "--source and --target are required")
		return errUsage
	}
	if *follow && *verify {
		fmt.Fprintln(env.Stderr, "--follow and --verify do not mix: verification needs the writes stopped. Stop them, end --follow with Ctrl-C, then run again with --verify and the same --checkpoint")
		return errUsage
	}
	if *keyRange != "" && *keyHash == "" {
		fmt.Fprintln(env.Stderr, "--key-range needs --key-hash")
		return errUsage
	}
	tr := &replicate.Transform{}
	for _, s := range sets {
		a, err := replicate.ParseAssignment(s)
		if err != nil {
			return err
		}
		tr.Set = append(tr.Set, a)
	}
	for _, k := range []struct {
		text string
		dst  **replicate.Assignment
	}{{*keyHash, &tr.Hash}, {*keyRange, &tr.Range}} {
		if k.text == "" {
			continue
		}
		a, err := replicate.ParseAssignment(k.text)
		if err != nil {
			return err
		}
		*k.dst = &a
	}
	if len(tr.Set) == 0 && tr.Hash == nil {
		tr = nil
	}

	var last time.Time
	opts := replicate.Options{
		Source: *source, Target: *target, Transform: tr, Segments: *segments, PageSize: *pageSize,
		Checkpoint: *checkpoint, EnableStream: *enableStream, Follow: *follow,
		Progress: func(p replicate.Progress) {
			if time.Since(last) < time.Second {
				return
			}
			last = time.Now()
			printReplicateProgress(env.Stderr, p)
		},
	}
	db, err := where.dynamo(env.Ctx)
	if err != nil {
		return err
	}
	streams, err := where.streams(env.Ctx, *streamsEndpoint)
	if err != nil {
		return err
	}
	p, err := replicate.Run(env.Ctx, db, streams, opts)
	if p.Phase != "" { // it got past the checks
		resumed := ""
		if p.Resumed {
			resumed = fmt.Sprintf(" (resumed from the checkpoint; earlier runs copied %d items and applied %d records)", p.EarlierCopied, p.EarlierRecords)
		}
		fmt.Fprintf(env.Stdout, "%s -> %s%s\n", *source, *target, resumed)
		if p.Scanned > 0 || p.Phase == replicate.PhaseScan {
			fmt.Fprintf(env.Stdout, "scan: %d items read, %d copied, %d skipped (no target key), in %s (%.0f items/s)\n",
				p.Scanned, p.Copied, p.Skipped, p.ScanTime.Round(time.Millisecond), p.CopyRate())
		}
		if p.Phase == replicate.PhaseCatchUp || p.Phase == replicate.PhaseFollow {
			fmt.Fprintf(env.Stdout, "stream: %d records applied (%d puts, %d deletes), in %s (%.0f records/s), lag %s\n",
				p.Records, p.Puts, p.Deletes, p.StreamTime.Round(time.Millisecond), p.ApplyRate(), p.Lag.Round(time.Second))
		}
	}
	if err != nil {
		return withResumeHint(err, *checkpoint)
	}
	if !*verify {
		return nil
	}
	fmt.Fprintf(env.Stderr, "replicate: verifying %s against %s\n", *target, *source)
	rep, err := replicate.Verify(env.Ctx, db, replicate.VerifyOptions{Source: *source, Target: *target, Transform: tr, Segments: *segments, Examples: *examples})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "verify: %d source items, %d target items, %d match, %d missing in the target, %d extra in the target, %d differ, %d collide, %d skipped (no target key), in %s\n",
		rep.SourceItems, rep.TargetItems, rep.Matching, rep.Missing, rep.Extra, rep.Differing, rep.Collisions, rep.Skipped, rep.Elapsed.Round(time.Millisecond))
	for _, d := range rep.Examples {
		fmt.Fprintf(env.Stdout, "  %s %s", d.Kind, formatKey(d.Key))
		if len(d.Attributes) > 0 {
			fmt.Fprintf(env.Stdout, ": %s", strings.Join(d.Attributes, ", "))
		}
		fmt.Fprintln(env.Stdout)
	}
	if n := rep.Differences(); n > 0 {
		return fmt.Errorf("%s and %s differ in %d item(s)", *source, *target, n)
	}
	return nil
}

func printReplicateProgress(w io.Writer, p replicate.Progress) {
	switch p.Phase {
	case replicate.PhaseMark:
		fmt.Fprintf(w, "replicate: mark: %d records passed\n", p.Marked)
	case replicate.PhaseScan:
		fmt.Fprintf(w, "replicate: scan: %d read, %d copied, %d skipped; %.0f items/s\n", p.Scanned, p.Copied, p.Skipped, p.CopyRate())
	default:
		fmt.Fprintf(w, "replicate: %s: %d records applied (%d puts, %d deletes); %.0f records/s, lag %s\n", p.Phase, p.Records, p.Puts, p.Deletes, p.ApplyRate(), p.Lag.Round(time.Second))
	}
}

// formatKey prints a key as name=value pairs, sorted by name.
func formatKey(k map[string]types.AttributeValue) string {
	names := make([]string, 0, len(k))
	for n := range k {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		var v string
		switch x := k[n].(type) {
		case *types.AttributeValueMemberS:
			v = fmt.Sprintf("%q", x.Value)
		case *types.AttributeValueMemberN:
			v = x.Value
		case *types.AttributeValueMemberB:
			v = fmt.Sprintf("%x", x.Value)
		default:
			v = fmt.Sprint(x)
		}
		parts[i] = n + "=" + v
	}
	return strings.Join(parts, " ")
}
