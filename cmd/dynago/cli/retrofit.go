package cli

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/toolkit/retrofit"
)

func init() {
	register(verb{name: "retrofit", summary: "add a derived attribute to every item of a table, safely and resumably", run: runRetrofit})
}

const retrofitSynopsis = `Computes an attribute from others for every item of an existing table, the
way a new GSI on a concatenated key needs it:

  dynago retrofit --table ResourceAccessAudit \
    --attribute resourceId-action-accessedBy \
    --template '{resourceId}-{action}-{accessedBy}' \
    --wcu 200 --checkpoint audit.retrofit.json

A parallel scan feeds the writes. Each write is conditional on the source
attributes still holding the values the scan read, so an application
writing the table meanwhile never has its change overwritten: a lost race
re-reads the item and derives again. Items that already hold the right
value are not written; items missing a source attribute are skipped.

--wcu paces writes in write units per second. --checkpoint records each
finished page: after a crash or Ctrl-C, the same command goes on where it
stopped. --dry-run reads everything and prints how many items would be
written and what it would cost, without writing: the write units of each
item and of each secondary index the write touches (an entry added,
re-keyed or whose projected attributes change), as DynamoDB bills them. Progress (items scanned,
written, skipped, rate, ETA) goes to stderr every second.

` + awsSynopsis

func runRetrofit(env *Env, args []string) error {
	fs := newFlagSet(env, "retrofit", retrofitSynopsis)
	target := addAWSFlags(fs)
	table := fs.String("table", "", "table to retrofit (required)")
	attribute := fs.String("attribute", "", "name of the attribute to set (required)")
	template := fs.String("template", "", "how to compute it: {name} is an attribute's value, other text is kept; {{ and }} are braces (required)")
	segments := fs.Int("segments", 4, "parallel scan segments")
	pageSize := fs.Int("page-size", 100, "items per Scan page; the checkpoint is written after each page")
	wcu := fs.Float64("wcu", 0, "most write units per second to spend; 0 means no limit")
	checkpoint := fs.String("checkpoint", "", "file recording progress, to resume an interrupted run; none by default")
	dryRun := fs.Bool("dry-run", false, "count and estimate, write nothing")
	createIndex := fs.String("create-index", "", "after the retrofit, create a GSI of this name on the attribute and wait until its backfill is done")
	indexSort := fs.String("index-sort-key", "", "with --create-index: the index's sort key attribute (a string), e.g. timestamp")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *table == "" || *attribute == "" || *template == "" {
		fmt.Fprintln(env.Stderr, "--table, --attribute and --template are required")
		return errUsage
	}
	tp, err := retrofit.ParseTemplate(*template)
	if err != nil {
		return err
	}
	client, err := target.dynamo(env.Ctx)
	if err != nil {
		return err
	}
	var last time.Time
	opts := retrofit.Options{
		Table: *table, Attribute: *attribute, Template: tp, Segments: *segments, PageSize: *pageSize,
		WriteUnitsPerSecond: *wcu, Checkpoint: *checkpoint, DryRun: *dryRun,
		Progress: func(p retrofit.Progress) {
			if time.Since(last) < time.Second {
				return
			}
			last = time.Now()
			fmt.Fprintf(env.Stderr, "retrofit: %d scanned, %d written, %d already done, %d skipped, %d retried; %.0f items/s, ETA %s\n",
				p.Scanned, p.Written, p.Unchanged, p.Skipped, p.Retried, p.Rate(), p.ETA().Round(time.Second))
		},
	}
	p, err := retrofit.Run(env.Ctx, client, opts)
	verb := "written"
	if *dryRun {
		verb = "to write"
	}
	resumed := ""
	if p.Resumed {
		resumed = " (resumed from the checkpoint)"
	}
	fmt.Fprintf(env.Stdout, "%d items scanned%s: %d %s, %d already done, %d skipped (missing a source), %d retried after concurrent changes\n",
		p.Scanned, resumed, p.Written, verb, p.Unchanged, p.Skipped, p.Retried)
	fmt.Fprintf(env.Stdout, "capacity: %.1f read units, %.1f write units%s, in %s\n",
		p.ReadUnits, p.WriteUnits, map[bool]string{true: " (estimated)", false: ""}[*dryRun], p.Elapsed.Round(time.Millisecond))
	if err != nil {
		return withResumeHint(err, *checkpoint)
	}
	if err != nil || *createIndex == "" || *dryRun {
		return err
	}
	fmt.Fprintf(env.Stdout, "creating index %s on %s and waiting for its backfill\n", *createIndex, *attribute)
	return retrofit.CreateIndex(env.Ctx, client, *table, retrofit.IndexSpec{
		Name: *createIndex, HashKey: *attribute, SortKey: *indexSort,
		OnStatus: func(g types.GlobalSecondaryIndexDescription) {
			fmt.Fprintf(env.Stderr, "retrofit: index %s %s, backfilling %v, %d items\n",
				*createIndex, g.IndexStatus, aws.ToBool(g.Backfilling), aws.ToInt64(g.ItemCount))
		},
	})
}
