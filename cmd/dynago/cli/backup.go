package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

func init() {
	register(verb{name: "backup", summary: "create, list, describe and delete on-demand backups, through the API", run: runBackup})
	register(verb{name: "restore", summary: "restore a backup, or a table at a point in time, into a new table, through the API", run: runRestore})
	register(verb{name: "pitr", summary: "turn a table's point-in-time recovery on or off, or show its window, through the API", run: runPITR})
}

const backupSynopsis = `Usage: dynago backup <create|list|describe|delete> [flags]

On-demand backups of any DynamoDB endpoint (CreateBackup, ListBackups,
DescribeBackup, DeleteBackup):

  dynago backup create TABLE [--name NAME] [--wait]
      backs TABLE up and prints the backup's ARN; the name defaults to
      TABLE-<UTC time>, as TABLE-20261207T120000Z. --wait returns once the
      backup is AVAILABLE, with a progress line on stderr.
  dynago backup list [TABLE] [--type USER|SYSTEM|AWS_BACKUP|ALL] [--json]
      lists the backups (of TABLE, or all), every page: ARN, name, status,
      creation time and size in bytes; --json prints ListBackups'
      summaries as JSON.
  dynago backup describe ARN
      prints DescribeBackup's BackupDescription as JSON.
  dynago backup delete ARN
      deletes the backup and prints its ARN.

  dynago backup create Orders --wait
  dynago restore --backup <ARN> --to OrdersCopy --wait

A refusal prints the API's error (code: message) and exits with status 1.
Run "dynago backup <subcommand> --help" for its flags.

` + awsSynopsis

func runBackup(env *Env, args []string) error {
	if len(args) == 0 || helpAsked(args[:1]) {
		w := env.Stdout
		if len(args) == 0 {
			w = env.Stderr
		}
		fmt.Fprintln(w, backupSynopsis)
		if len(args) == 0 {
			return errUsage
		}
		return flag.ErrHelp
	}
	switch args[0] {
	case "create":
		return runBackupCreate(env, args[1:])
	case "list":
		return runBackupList(env, args[1:])
	case "describe":
		return runBackupDescribe(env, args[1:])
	case "delete":
		return runBackupDelete(env, args[1:])
	}
	fmt.Fprintf(env.Stderr, "unknown subcommand %q: want create, list, describe or delete\n", args[0])
	return errUsage
}

// subFlagSet is the flag set of a subcommand, whose help is its own
// synopsis and flags.
func subFlagSet(env *Env, name, synopsis string) *flagSet {
	fs := newFlagSet(env, name, synopsis)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseArgs parses flags around positional arguments, which may come
// before, between or after the flags (all after a "--"), and checks that
// there are from least to most of them; names says what they are, for
// the usage error.
func parseArgs(fs *flagSet, args []string, least, most int, names string) ([]string, error) {
	if helpAsked(args) {
		return nil, parseFlags(fs, args)
	}
	var pos []string
	for {
		for len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			pos, args = append(pos, args[0]), args[1:]
		}
		if len(args) == 0 {
			break
		}
		if args[0] == "--" {
			pos = append(pos, args[1:]...)
			break
		}
		if err := fs.parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		args = rest
	}
	switch {
	case len(pos) < least:
		fmt.Fprintf(fs.Output(), "%s required\n", names)
		return nil, errUsage
	case len(pos) > most:
		fmt.Fprintf(fs.Output(), "unexpected arguments: %v\n", pos[most:])
		return nil, errUsage
	}
	return pos, nil
}

// apiError returns a refusal of the API as its code and message, as
// DynamoDB words them, without the SDK's account of the request.
func apiError(err error) error {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return fmt.Errorf("%s: %s", ae.ErrorCode(), ae.ErrorMessage())
	}
	return err
}

const backupCreateSynopsis = `Usage: dynago backup create TABLE [--name NAME] [--wait] [flags]

Backs TABLE up (CreateBackup) and prints the backup's ARN on stdout. The
name defaults to TABLE-<UTC time>, as Orders-20261207T120000Z. With --wait
it returns once DescribeBackup answers AVAILABLE, printing the status on
stderr as it waits.

` + awsSynopsis

func runBackupCreate(env *Env, args []string) error {
	fs := subFlagSet(env, "backup create", backupCreateSynopsis)
	target := addAWSFlags(fs)
	name := fs.String("name", "", "the backup's name, 3 to 255 of a-z A-Z 0-9 _ . - (default TABLE-<UTC time>)")
	wait := fs.Bool("wait", false, "wait until the backup is AVAILABLE")
	pos, err := parseArgs(fs, args, 1, 1, "a TABLE is")
	if err != nil {
		return err
	}
	table := pos[0]
	if *name == "" {
		*name = defaultBackupName(table, time.Now())
	}
	ctx := env.Ctx
	c, err := target.dynamo(ctx)
	if err != nil {
		return err
	}
	out, err := c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String(table), BackupName: aws.String(*name)})
	if err != nil {
		return apiError(err)
	}
	arn := aws.ToString(out.BackupDetails.BackupArn)
	if *wait {
		err := waitFor(ctx, env.Stderr, "backup "+arn, func(ctx context.Context) (string, bool, error) {
			d, err := c.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{BackupArn: aws.String(arn)})
			if err != nil {
				return "", false, err
			}
			st := d.BackupDescription.BackupDetails.BackupStatus
			if st == types.BackupStatusDeleted {
				return "", false, fmt.Errorf("backup %s was deleted before it became AVAILABLE", arn)
			}
			return string(st), st == types.BackupStatusAvailable, nil
		})
		if err != nil {
			return err
		}
	}
	fmt.Fprintln(env.Stdout, arn)
	return nil
}

// defaultBackupName is TABLE-<UTC time to the second>, cut to the 255
// characters a backup name may have.
func defaultBackupName(table string, now time.Time) string {
	suffix := "-" + now.UTC().Format("20060102T150405Z")
	if len(table)+len(suffix) > 255 {
		table = table[:255-len(suffix)]
	}
	return table + suffix
}

// waitFor polls check until it reports done, sleeping from 100 ms up to
// 5 s between calls, and prints on w what it waits for and its status
// when the status changes, every 5 s otherwise, and once done (also when
// the first answer already is).
func waitFor(ctx context.Context, w io.Writer, what string, check func(context.Context) (status string, done bool, err error)) error {
	start := time.Now()
	delay := 100 * time.Millisecond
	var last string
	var lastAt time.Time
	for {
		st, done, err := check(ctx)
		if err != nil {
			return apiError(err)
		}
		if done {
			fmt.Fprintf(w, "%s: %s after %s\n", what, st, time.Since(start).Round(time.Second))
			return nil
		}
		if st != last || time.Since(lastAt) >= 5*time.Second {
			fmt.Fprintf(w, "%s: %s after %s\n", what, st, time.Since(start).Round(time.Second))
			last, lastAt = st, time.Now()
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, 5*time.Second)
	}
}

const backupListSynopsis = `Usage: dynago backup list [TABLE] [--type TYPE] [--json] [flags]

Lists the backups of TABLE, or of every table, reading every page of
ListBackups, as a table of ARN, name, status, creation time (UTC) and size
in bytes ("-" while unknown); --json prints the BackupSummaries as JSON
instead. As ListBackups, it lists USER backups unless --type says SYSTEM,
AWS_BACKUP or ALL.

` + awsSynopsis

func runBackupList(env *Env, args []string) error {
	fs := subFlagSet(env, "backup list", backupListSynopsis)
	target := addAWSFlags(fs)
	typ := fs.String("type", "USER", "USER, SYSTEM, AWS_BACKUP or ALL")
	asJSON := fs.Bool("json", false, "print the summaries as JSON")
	pos, err := parseArgs(fs, args, 0, 1, "")
	if err != nil {
		return err
	}
	bt := types.BackupTypeFilter(strings.ToUpper(*typ))
	switch bt {
	case types.BackupTypeFilterUser, types.BackupTypeFilterSystem, types.BackupTypeFilterAwsBackup, types.BackupTypeFilterAll:
	default:
		fmt.Fprintln(env.Stderr, "--type must be USER, SYSTEM, AWS_BACKUP or ALL")
		return errUsage
	}
	ctx := env.Ctx
	c, err := target.dynamo(ctx)
	if err != nil {
		return err
	}
	in := &dynamodb.ListBackupsInput{BackupType: bt}
	if len(pos) == 1 {
		in.TableName = aws.String(pos[0])
	}
	var all []types.BackupSummary
	for {
		out, err := c.ListBackups(ctx, in)
		if err != nil {
			return apiError(err)
		}
		all = append(all, out.BackupSummaries...)
		if out.LastEvaluatedBackupArn == nil {
			break
		}
		in.ExclusiveStartBackupArn = out.LastEvaluatedBackupArn
	}
	if *asJSON {
		if all == nil {
			all = []types.BackupSummary{}
		}
		return printJSON(env.Stdout, all)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ARN\tNAME\tSTATUS\tCREATED\tSIZE")
	for _, b := range all {
		created, size := "-", "-"
		if b.BackupCreationDateTime != nil {
			created = b.BackupCreationDateTime.UTC().Format(time.RFC3339)
		}
		if b.BackupSizeBytes != nil {
			size = fmt.Sprint(*b.BackupSizeBytes)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", aws.ToString(b.BackupArn), aws.ToString(b.BackupName), b.BackupStatus, created, size)
	}
	return tw.Flush()
}

// printJSON prints v as indented JSON, without the members it leaves
// unset (nulls, empty strings, lists and objects), and times in RFC 3339.
func printJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		return err
	}
	if doc = pruneJSON(doc); doc == nil {
		doc = []any{}
	}
	b, err = json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// pruneJSON removes the unset members of a decoded JSON document, and
// returns nil if nothing is left of it.
func pruneJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, m := range x {
			if m = pruneJSON(m); m == nil {
				delete(x, k)
			} else {
				x[k] = m
			}
		}
		if len(x) == 0 {
			return nil
		}
	case []any:
		out := x[:0]
		for _, m := range x {
			if m = pruneJSON(m); m != nil {
				out = append(out, m)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case string:
		if x == "" {
			return nil
		}
	}
	return v
}

const backupDescribeSynopsis = `Usage: dynago backup describe ARN [flags]

Prints the backup's description (DescribeBackup's BackupDescription: its
details, its source table and the table's features) as JSON.

` + awsSynopsis

func runBackupDescribe(env *Env, args []string) error {
	fs := subFlagSet(env, "backup describe", backupDescribeSynopsis)
	target := addAWSFlags(fs)
	pos, err := parseArgs(fs, args, 1, 1, "a backup ARN is")
	if err != nil {
		return err
	}
	ctx := env.Ctx
	c, err := target.dynamo(ctx)
	if err != nil {
		return err
	}
	out, err := c.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{BackupArn: aws.String(pos[0])})
	if err != nil {
		return apiError(err)
	}
	return printJSON(env.Stdout, out.BackupDescription)
}

const backupDeleteSynopsis = `Usage: dynago backup delete ARN [flags]

Deletes the backup (DeleteBackup) and prints its ARN.

` + awsSynopsis

func runBackupDelete(env *Env, args []string) error {
	fs := subFlagSet(env, "backup delete", backupDeleteSynopsis)
	target := addAWSFlags(fs)
	pos, err := parseArgs(fs, args, 1, 1, "a backup ARN is")
	if err != nil {
		return err
	}
	ctx := env.Ctx
	c, err := target.dynamo(ctx)
	if err != nil {
		return err
	}
	out, err := c.DeleteBackup(ctx, &dynamodb.DeleteBackupInput{BackupArn: aws.String(pos[0])})
	if err != nil {
		return apiError(err)
	}
	fmt.Fprintln(env.Stdout, aws.ToString(out.BackupDescription.BackupDetails.BackupArn))
	return nil
}

const restoreSynopsis = `Usage: dynago restore --backup ARN --to NEW [--wait] [flags]
       dynago restore --table SRC (--time RFC3339 | --latest) --to NEW [--wait] [flags]

Creates table NEW from an on-demand backup (RestoreTableFromBackup), or as
table SRC was at a moment of its point-in-time recovery window
(RestoreTableToPointInTime; see "dynago pitr"), and prints NEW's ARN:

  dynago restore --backup <ARN> --to OrdersCopy --wait
  dynago restore --table Orders --time 2026-12-07T12:00:00Z --to OrdersAtNoon
  dynago restore --table Orders --latest --to OrdersNow --wait

The new table keeps the source's keys, indexes, billing mode and
encryption; streams, Time to Live, tags and PITR are not carried over. It
is CREATING until every item is in; --wait returns once it is ACTIVE,
printing its status on stderr as it waits.

` + awsSynopsis

func runRestore(env *Env, args []string) error {
	fs := newFlagSet(env, "restore", restoreSynopsis)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\n\nFlags:\n", restoreSynopsis)
		fs.PrintDefaults()
	}
	target := addAWSFlags(fs)
	backup := fs.String("backup", "", "the ARN of the backup to restore")
	source := fs.String("table", "", "the table to restore to a point in time")
	at := fs.String("time", "", "with --table: the moment to restore, in RFC 3339 (2026-12-07T12:00:00Z)")
	latest := fs.Bool("latest", false, "with --table: restore the latest restorable moment")
	to := fs.String("to", "", "the new table's name (required)")
	wait := fs.Bool("wait", false, "wait until the new table is ACTIVE")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	usage := func(msg string) error {
		fmt.Fprintln(env.Stderr, msg)
		return errUsage
	}
	switch {
	case *to == "":
		return usage("--to is required")
	case (*backup == "") == (*source == ""):
		return usage("give one of --backup or --table")
	case *backup != "" && (*at != "" || *latest):
		return usage("--time and --latest go with --table, not --backup")
	case *source != "" && (*at == "") == !*latest:
		return usage("--table needs one of --time or --latest")
	}
	var when time.Time
	if *at != "" {
		var err error
		if when, err = time.Parse(time.RFC3339, *at); err != nil {
			return usage(fmt.Sprintf("--time %q: want RFC 3339, as 2026-12-07T12:00:00Z", *at))
		}
	}
	ctx := env.Ctx
	c, err := target.dynamo(ctx)
	if err != nil {
		return err
	}
	var desc *types.TableDescription
	if *backup != "" {
		out, err := c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: aws.String(*backup), TargetTableName: aws.String(*to)})
		if err != nil {
			return apiError(err)
		}
		desc = out.TableDescription
	} else {
		in := &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String(*source), TargetTableName: aws.String(*to)}
		if *latest {
			in.UseLatestRestorableTime = aws.Bool(true)
		} else {
			in.RestoreDateTime = aws.Time(when)
		}
		out, err := c.RestoreTableToPointInTime(ctx, in)
		if err != nil {
			return apiError(err)
		}
		desc = out.TableDescription
	}
	if *wait {
		err := waitFor(ctx, env.Stderr, "table "+*to, func(ctx context.Context) (string, bool, error) {
			d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(*to)})
			if err != nil {
				return "", false, err
			}
			st := d.Table.TableStatus
			return string(st), st == types.TableStatusActive, nil
		})
		if err != nil {
			return err
		}
	}
	fmt.Fprintln(env.Stdout, aws.ToString(desc.TableArn))
	return nil
}

const pitrSynopsis = `Usage: dynago pitr TABLE on [--days N] | off | status [flags]

Turns point-in-time recovery of TABLE on, with a recovery window of --days
(1 to 35; the endpoint's default, 35, when not given), or off
(UpdateContinuousBackups), or shows it (DescribeContinuousBackups). Each
prints the table's PITR status, then, when on, its window in days and its
earliest and latest restorable times (UTC), one "name value" a line:

  dynago pitr Orders on --days 7
  dynago pitr Orders status
  dynago restore --table Orders --latest --to OrdersNow

` + awsSynopsis

func runPITR(env *Env, args []string) error {
	fs := newFlagSet(env, "pitr", pitrSynopsis)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\n\nFlags:\n", pitrSynopsis)
		fs.PrintDefaults()
	}
	target := addAWSFlags(fs)
	days := fs.Int("days", 0, "with on: the recovery window in days, 1 to 35 (default: the endpoint's, 35)")
	pos, err := parseArgs(fs, args, 2, 2, "a TABLE and one of on, off or status are")
	if err != nil {
		return err
	}
	table, action := pos[0], pos[1]
	switch action {
	case "on", "off", "status":
	default:
		fmt.Fprintf(env.Stderr, "unknown action %q: want on, off or status\n", action)
		return errUsage
	}
	if *days != 0 && action != "on" {
		fmt.Fprintln(env.Stderr, "--days goes with on")
		return errUsage
	}
	ctx := env.Ctx
	c, err := target.dynamo(ctx)
	if err != nil {
		return err
	}
	var d *types.ContinuousBackupsDescription
	if action == "status" {
		out, err := c.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String(table)})
		if err != nil {
			return apiError(err)
		}
		d = out.ContinuousBackupsDescription
	} else {
		spec := &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(action == "on")}
		if *days != 0 {
			spec.RecoveryPeriodInDays = aws.Int32(int32(*days))
		}
		out, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String(table), PointInTimeRecoverySpecification: spec})
		if err != nil {
			return apiError(err)
		}
		d = out.ContinuousBackupsDescription
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	p := d.PointInTimeRecoveryDescription
	if p == nil {
		p = &types.PointInTimeRecoveryDescription{PointInTimeRecoveryStatus: types.PointInTimeRecoveryStatusDisabled}
	}
	fmt.Fprintf(tw, "status\t%s\n", p.PointInTimeRecoveryStatus)
	if p.RecoveryPeriodInDays != nil {
		fmt.Fprintf(tw, "days\t%d\n", *p.RecoveryPeriodInDays)
	}
	if p.EarliestRestorableDateTime != nil {
		fmt.Fprintf(tw, "earliest\t%s\n", p.EarliestRestorableDateTime.UTC().Format(time.RFC3339))
	}
	if p.LatestRestorableDateTime != nil {
		fmt.Fprintf(tw, "latest\t%s\n", p.LatestRestorableDateTime.UTC().Format(time.RFC3339))
	}
	return tw.Flush()
}
