package e2e

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// The verbs backup, restore and pitr call CreateBackup, ListBackups,
// DescribeBackup, DeleteBackup, RestoreTableFromBackup,
// RestoreTableToPointInTime, UpdateContinuousBackups and
// DescribeContinuousBackups through the SDK; their refusals are the API's,
// printed as "code: message". The texts cited below are those of
// backup_test.go, with the same sources: steampipe (turbot/
// steampipe-plugin-aws issue 1913, DescribeBackup of a deleted backup),
// scoutsuite (nccgroup/ScoutSuite issue 1533, DescribeContinuousBackups of
// a missing table), quirks (the ack-api-quirks lab's recordings of
// DynamoDB, DDB-TABLE-100 and -457) and moto-export (getmoto/moto's
// aws_verified export tests).

// TestBackupRestoreVerbs backs a table up with "backup create --wait",
// lists and describes the backup, restores it with "restore --backup
// --wait" into a table equal to the source, turns PITR on with "pitr",
// restores the latest moment and an earlier one with "restore --table",
// and deletes the backup; then runs the refusals.
func TestBackupRestoreVerbs(t *testing.T) {
	needsWire(t)
	s := testserver.Start(t)
	c := s.Client
	createOrders(t, c, "orders")
	put := func(it item) {
		t.Helper()
		if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	for _, it := range orderItems() {
		put(it)
	}
	ep := []string{"--endpoint-url", s.URL}
	run := func(wantCode int, args ...string) (string, string) {
		t.Helper()
		code, out, errs := dynago(t, append(args, ep...)...)
		if code != wantCode {
			t.Fatalf("dynago %s: exit %d, want %d\nstdout %q\nstderr %q", strings.Join(args, " "), code, wantCode, out, errs)
		}
		return out, errs
	}
	arnPrefix := tableARN("orders") + "/backup/"

	// backup create --wait: the ARN on stdout, AVAILABLE on stderr.
	out, errs := run(0, "backup", "create", "orders", "--wait")
	arn := strings.TrimSpace(out)
	if !strings.HasPrefix(arn, arnPrefix) || strings.Count(out, "\n") != 1 {
		t.Fatalf("backup create printed %q", out)
	}
	if !strings.Contains(errs, "backup "+arn+": AVAILABLE after") {
		t.Fatalf("backup create --wait's stderr %q", errs)
	}
	d, err := c.DescribeBackup(bg(), &dynamodb.DescribeBackupInput{BackupArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	name := aws.ToString(d.BackupDescription.BackupDetails.BackupName)
	if d.BackupDescription.BackupDetails.BackupStatus != types.BackupStatusAvailable ||
		!regexp.MustCompile(`^orders-\d{8}T\d{6}Z$`).MatchString(name) {
		t.Fatalf("after --wait: %s, named %q", d.BackupDescription.BackupDetails.BackupStatus, name)
	}
	// A second one, named, without --wait; flags before the table.
	out, _ = run(0, "backup", "create", "--name", "before-change", "orders")
	arn2 := strings.TrimSpace(out)
	if !strings.HasPrefix(arn2, arnPrefix) || arn2 == arn {
		t.Fatalf("second backup %q", out)
	}

	// backup list: a header, then a row per backup (every page).
	out, _ = run(0, "backup", "list", "orders")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 3 || strings.Join(strings.Fields(lines[0]), " ") != "ARN NAME STATUS CREATED SIZE" {
		t.Fatalf("backup list:\n%s", out)
	}
	row := strings.Fields(lines[1])
	if len(row) != 5 || row[0] != arn || row[1] != name || row[2] != "AVAILABLE" {
		t.Fatalf("backup list's first row %q", lines[1])
	}
	if _, err := time.Parse(time.RFC3339, row[3]); err != nil {
		t.Fatalf("created %q: %v", row[3], err)
	}
	if row = strings.Fields(lines[2]); len(row) != 5 || row[0] != arn2 || row[1] != "before-change" {
		t.Fatalf("backup list's second row %q", lines[2])
	}
	out, _ = run(0, "backup", "list", "--json")
	var sums []map[string]any
	if err := json.Unmarshal([]byte(out), &sums); err != nil || len(sums) != 2 || sums[0]["BackupArn"] != arn || sums[1]["BackupName"] != "before-change" || sums[0]["TableName"] != "orders" {
		t.Fatalf("backup list --json: %v\n%s", err, out)
	}
	out, _ = run(0, "backup", "list", "nothing-here", "--json")
	if strings.TrimSpace(out) != "[]" {
		t.Fatalf("backup list of a table without backups: %q", out)
	}

	// backup describe: DescribeBackup's BackupDescription.
	out, _ = run(0, "backup", "describe", arn)
	var desc struct {
		BackupDetails      struct{ BackupArn, BackupName, BackupStatus string }
		SourceTableDetails struct {
			TableName string
			ItemCount int64
		}
	}
	if err := json.Unmarshal([]byte(out), &desc); err != nil || desc.BackupDetails.BackupArn != arn ||
		desc.BackupDetails.BackupStatus != "AVAILABLE" || desc.SourceTableDetails.TableName != "orders" || desc.SourceTableDetails.ItemCount != 120 {
		t.Fatalf("backup describe: %v\n%s", err, out)
	}

	// restore --backup --wait: the new table's ARN, ACTIVE, equal to the source.
	out, errs = run(0, "restore", "--backup", arn, "--to", "fromBackup", "--wait")
	if strings.TrimSpace(out) != tableARN("fromBackup") || !strings.Contains(errs, "table fromBackup: ACTIVE after") {
		t.Fatalf("restore --backup: stdout %q, stderr %q", out, errs)
	}
	wantActive := func(name string) {
		t.Helper()
		dt, err := c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil || dt.Table.TableStatus != types.TableStatusActive {
			t.Fatalf("%s after restore --wait: %v %v", name, dt, err)
		}
	}
	wantActive("fromBackup")
	sameTable(t, c, "orders", "fromBackup")

	// pitr: never on, on with a window, the restores, off.
	out, _ = run(0, "pitr", "orders", "status")
	if strings.Join(strings.Fields(out), " ") != "status DISABLED" {
		t.Fatalf("pitr status of a table that never had it: %q", out)
	}
	out, _ = run(0, "pitr", "orders", "on", "--days", "7")
	f := strings.Fields(out)
	if len(f) != 8 || f[0] != "status" || f[1] != "ENABLED" || f[2] != "days" || f[3] != "7" || f[4] != "earliest" || f[6] != "latest" {
		t.Fatalf("pitr on: %q", out)
	}
	out, _ = run(0, "pitr", "orders", "status")
	if g := strings.Fields(out); len(g) != 8 || g[1] != "ENABLED" || g[3] != "7" {
		t.Fatalf("pitr status: %q", out)
	}
	put(item{"pk": S("after-pitr"), "sk": N("1"), "v": S("in the latest restore")})
	moment := waitClockPast(time.Now())
	put(item{"pk": S("after-moment"), "sk": N("2"), "v": S("after --time")})
	out, errs = run(0, "restore", "--table", "orders", "--latest", "--to", "latest", "--wait")
	if strings.TrimSpace(out) != tableARN("latest") || !strings.Contains(errs, "table latest: ACTIVE after") {
		t.Fatalf("restore --latest: stdout %q, stderr %q", out, errs)
	}
	wantActive("latest")
	sameTable(t, c, "orders", "latest")
	// At the moment between the two writes: the first in, the second not.
	run(0, "restore", "--table", "orders", "--time", moment.UTC().Format(time.RFC3339Nano), "--to", "atMoment", "--wait")
	wantActive("atMoment")
	if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("orders"),
		Key: item{"pk": S("after-moment"), "sk": N("2")}}); err != nil {
		t.Fatal(err)
	}
	sameTable(t, c, "orders", "atMoment")
	out, _ = run(0, "pitr", "orders", "off")
	if strings.Join(strings.Fields(out), " ") != "status DISABLED" {
		t.Fatalf("pitr off: %q", out)
	}

	// backup delete: the ARN; then the backup is gone.
	out, _ = run(0, "backup", "delete", arn)
	if strings.TrimSpace(out) != arn {
		t.Fatalf("backup delete printed %q", out)
	}
	missing := arnPrefix + "01700000000000-0badc0de"
	cases := []struct {
		args []string
		msg  string // after "dynago VERB: "; exit status 1
	}{
		{[]string{"backup", "describe", arn}, "BackupNotFoundException: Backup not found: " + arn},                         // steampipe
		{[]string{"backup", "delete", missing}, "BackupNotFoundException: Backup not found: " + missing},                   // steampipe
		{[]string{"backup", "describe", missing}, "BackupNotFoundException: Backup not found: " + missing},                 // steampipe
		{[]string{"restore", "--backup", missing, "--to", "xx1"}, "BackupNotFoundException: Backup not found: " + missing}, // steampipe's text, recorded for DescribeBackup; none found for a restore
		{[]string{"backup", "create", "nope"}, "TableNotFoundException: Table not found: nope"},                            // quirks; API reference
		{[]string{"pitr", "nope", "status"}, "TableNotFoundException: Table not found: nope"},                              // scoutsuite
		{[]string{"pitr", "orders", "on", "--days", "36"}, // quirks, DDB-TABLE-457
			"ValidationException: 1 validation error detected: Value '36' at 'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy constraint: Member must have value less than or equal to 35"},
		{[]string{"restore", "--table", "orders", "--latest", "--to", "xx2"}, // quirks, DDB-TABLE-100; moto-export
			"PointInTimeRecoveryUnavailableException: Point in time recovery is not enabled for table 'orders'"},
	}
	for _, tc := range cases {
		out, errs := run(1, tc.args...)
		want := "dynago " + tc.args[0] + ": " + tc.msg + "\n"
		if out != "" || errs != want {
			t.Errorf("%v: stdout %q, stderr %q\nwant stderr %q", tc.args, out, errs, want)
		}
	}
}

// TestBackupVerbsUsage: the verbs' help, on stdout, names each
// subcommand and form; mistakes in flags exit 2 and say why on stderr,
// without calling the endpoint.
func TestBackupVerbsUsage(t *testing.T) {
	cases := []struct {
		args     []string
		code     int
		inStdout []string
		inStderr string
	}{
		{args: []string{"backup", "--help"}, inStdout: []string{"dynago backup create TABLE [--name NAME] [--wait]", "dynago backup list [TABLE]", "dynago backup describe ARN", "dynago backup delete ARN"}},
		{args: []string{"help", "backup"}, inStdout: []string{"dynago backup create TABLE"}},
		{args: []string{"backup", "create", "--help"}, inStdout: []string{"TABLE-<UTC time>", "-wait"}},
		{args: []string{"backup", "list", "-h"}, inStdout: []string{"--json", "AWS_BACKUP"}},
		{args: []string{"backup", "describe", "--help"}, inStdout: []string{"BackupDescription"}},
		{args: []string{"backup", "delete", "--help"}, inStdout: []string{"DeleteBackup"}},
		{args: []string{"restore", "--help"}, inStdout: []string{"dynago restore --backup ARN --to NEW [--wait]", "dynago restore --table SRC (--time RFC3339 | --latest) --to NEW [--wait]"}},
		{args: []string{"pitr", "--help"}, inStdout: []string{"dynago pitr TABLE on [--days N] | off | status"}},
		{args: []string{"--help"}, inStdout: []string{"  backup ", "  restore ", "  pitr "}},
		{args: []string{"backup"}, code: 2, inStderr: "Usage: dynago backup <create|list|describe|delete>"},
		{args: []string{"backup", "copy"}, code: 2, inStderr: `unknown subcommand "copy": want create, list, describe or delete`},
		{args: []string{"backup", "create"}, code: 2, inStderr: "a TABLE is required"},
		{args: []string{"backup", "create", "a", "b"}, code: 2, inStderr: "unexpected arguments: [b]"},
		{args: []string{"backup", "create", "a", "--bogus"}, code: 2, inStderr: "flag provided but not defined: -bogus"},
		{args: []string{"backup", "describe"}, code: 2, inStderr: "a backup ARN is required"},
		{args: []string{"backup", "delete"}, code: 2, inStderr: "a backup ARN is required"},
		{args: []string{"backup", "list", "a", "b"}, code: 2, inStderr: "unexpected arguments: [b]"},
		{args: []string{"backup", "list", "--type", "MINE"}, code: 2, inStderr: "--type must be USER, SYSTEM, AWS_BACKUP or ALL"},
		{args: []string{"restore", "--backup", "x"}, code: 2, inStderr: "--to is required"},
		{args: []string{"restore", "--to", "x"}, code: 2, inStderr: "give one of --backup or --table"},
		{args: []string{"restore", "--backup", "a", "--table", "b", "--to", "x"}, code: 2, inStderr: "give one of --backup or --table"},
		{args: []string{"restore", "--backup", "a", "--latest", "--to", "x"}, code: 2, inStderr: "--time and --latest go with --table, not --backup"},
		{args: []string{"restore", "--table", "a", "--to", "x"}, code: 2, inStderr: "--table needs one of --time or --latest"},
		{args: []string{"restore", "--table", "a", "--latest", "--time", "2026-12-07T12:00:00Z", "--to", "x"}, code: 2, inStderr: "--table needs one of --time or --latest"},
		{args: []string{"restore", "--table", "a", "--time", "yesterday", "--to", "x"}, code: 2, inStderr: `--time "yesterday": want RFC 3339`},
		{args: []string{"pitr", "t"}, code: 2, inStderr: "a TABLE and one of on, off or status are required"},
		{args: []string{"pitr", "t", "sideways"}, code: 2, inStderr: `unknown action "sideways": want on, off or status`},
		{args: []string{"pitr", "t", "off", "--days", "3"}, code: 2, inStderr: "--days goes with on"},
	}
	for _, c := range cases {
		code, out, errs := dynago(t, c.args...)
		ok := code == c.code && strings.Contains(errs, c.inStderr)
		for _, s := range c.inStdout {
			ok = ok && strings.Contains(out, s)
		}
		if !ok {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errs)
		}
	}
}
