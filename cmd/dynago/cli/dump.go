package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/internal/exchange"
)

func init() {
	register(verb{name: "dump", summary: "write a table's items in DynamoDB's export layout, to a folder or S3, through the API", run: runDump})
}

const dumpSynopsis = `Usage: dynago dump TABLE --dir DIR [flags]

Reads every item of TABLE with a parallel Scan (--segments at once) and
writes them as DynamoDB's export to S3 lays them out, so that what reads an
export (dynago load, ImportTable, Athena, Glue) reads it:

  DIR/[PREFIX/]AWSDynamoDB/<exportId>/manifest-summary.json
                                       manifest-files.json
                                       data/<name>.json.gz

  dynago dump Orders --dir ./backups
  dynago dump Orders --dir s3://my-bucket/backups --segments 16 --endpoint-url aws

Data files are gzip-compressed, one item a line, in DynamoDB JSON
({"Item":{...}}) or, with --format ION, Amazon Ion text. A progress line
goes to stderr every second; at the end the export's folder is printed on
stdout.

` + exchangeSynopsis + `

` + awsSynopsis

func runDump(env *Env, args []string) error {
	fs := newFlagSet(env, "dump", dumpSynopsis)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\n\nFlags:\n", dumpSynopsis)
		fs.PrintDefaults()
	}
	target := addAWSFlags(fs)
	s3f := addS3Flags(fs)
	dir := fs.String("dir", "", "folder or s3://bucket/prefix to write the export to (required)")
	prefix := fs.String("prefix", "", "key prefix under a folder --dir (an S3 URL carries its own)")
	segments := fs.Int("segments", 4, "parallel scan segments, 1 to 1000000")
	format := fs.String("format", "DYNAMODB_JSON", "DYNAMODB_JSON or ION")
	consistent := fs.Bool("consistent", false, "strongly consistent reads (twice the read units)")
	table, err := parseTableArgs(fs, args)
	if err != nil {
		return err
	}
	if *dir == "" {
		fmt.Fprintln(env.Stderr, "--dir is required")
		return errUsage
	}
	if *segments < 1 || *segments > 1000000 {
		fmt.Fprintln(env.Stderr, "--segments must be from 1 to 1000000")
		return errUsage
	}
	f := exchange.Format(strings.ToUpper(*format))
	if f != exchange.FormatDynamoDBJSON && f != exchange.FormatION {
		fmt.Fprintln(env.Stderr, "--format must be DYNAMODB_JSON or ION")
		return errUsage
	}
	ctx := env.Ctx
	c, err := target.dynamo(ctx)
	if err != nil {
		return err
	}
	bucket, loc, bucketName, err := openLocation(ctx, *dir, target, s3f)
	if err != nil {
		return err
	}
	keyPrefix := loc.Prefix
	if !loc.S3 {
		keyPrefix = *prefix
	}
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return err
	}
	w, err := exchange.NewExportWriter(ctx, exchange.ExportOptions{
		Bucket: bucket, BucketName: bucketName, Prefix: keyPrefix, Format: f,
		TableArn: aws.ToString(desc.Table.TableArn), TableID: aws.ToString(desc.Table.TableId),
	})
	if err != nil {
		return err
	}
	prog := startProgress("dump", env.Stderr, aws.ToInt64(desc.Table.ItemCount))
	err = dumpSegments(ctx, c, table, *segments, *consistent, w, prog)
	prog.finish()
	if err != nil {
		return err
	}
	sum, err := w.Finish(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "dump: %d items of %s in %d data files, %s\n", sum.ItemCount, table, countFiles(ctx, bucket, w), prog.line())
	where := w.Dir()
	if loc.S3 {
		where = "s3://" + loc.Bucket + "/" + where
	} else {
		where = strings.TrimSuffix(loc.Dir, "/") + "/" + where
	}
	fmt.Fprintln(env.Stdout, where)
	return nil
}

func countFiles(ctx context.Context, b exchange.Bucket, w *exchange.ExportWriter) int {
	keys, _ := b.List(ctx, w.Dir()+"/data/")
	return len(keys)
}

// parseTableArgs parses flags around the one TABLE argument, which may
// come first or after the flags.
func parseTableArgs(fs *flagSet, args []string) (string, error) {
	var table string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		table, args = args[0], args[1:]
	}
	if helpAsked(args) {
		return "", parseFlags(fs, args)
	}
	if err := fs.parse(args); err != nil {
		return "", err
	}
	rest := fs.Args()
	if table == "" && len(rest) > 0 {
		table, rest = rest[0], rest[1:]
		if err := fs.parse(rest); err != nil {
			return "", err
		}
		rest = fs.Args()
	}
	if len(rest) > 0 {
		fmt.Fprintf(fs.Output(), "unexpected arguments: %v\n", rest)
		return "", errUsage
	}
	if table == "" {
		fmt.Fprintln(fs.Output(), "a TABLE is required")
		return "", errUsage
	}
	return table, nil
}

// dumpSegments scans the table's segments at once, each into a data file
// of its own.
func dumpSegments(ctx context.Context, c *dynamodb.Client, table string, segments int, consistent bool, w *exchange.ExportWriter, prog *progress) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, segments)
	for seg := 0; seg < segments; seg++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[seg] = dumpSegment(ctx, c, table, seg, segments, consistent, w, prog)
			if errs[seg] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	return errors.Join(errs...)
}

func dumpSegment(ctx context.Context, c *dynamodb.Client, table string, seg, segments int, consistent bool, w *exchange.ExportWriter, prog *progress) error {
	f := w.DataFile(ctx)
	in := &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(consistent)}
	if segments > 1 {
		in.Segment, in.TotalSegments = aws.Int32(int32(seg)), aws.Int32(int32(segments))
	}
	p := dynamodb.NewScanPaginator(c, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			a, err := itemFromSDK(it)
			if err != nil {
				return err
			}
			if err := f.WriteItem(a); err != nil {
				return err
			}
		}
		prog.add(int64(len(page.Items)))
	}
	return f.Close()
}

// keySchema returns the names of the table's key attributes.
func keySchema(desc *types.TableDescription) []string {
	var names []string
	for _, k := range desc.KeySchema {
		names = append(names, aws.ToString(k.AttributeName))
	}
	return names
}
