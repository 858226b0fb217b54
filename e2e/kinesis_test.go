package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// kinesisView is what a Kinesis streaming destination answer says, in one
// comparable form: Enable's, or one Describe entry per line ("arn status
// precision description").
type kinesisView struct {
	Table, Stream, Status string
	// Config is the echoed EnableKinesisStreamingConfiguration: "" when
	// absent, "{}" when empty, else its precision.
	Config string
	List   []string
}

const (
	kinesisK1 = "arn:aws:kinesis:us-east-1:000000000000:stream/orders-changes"
	kinesisK2 = "arn:aws:kinesis:us-east-1:000000000000:stream/orders-audit"

	kinesisNoPermission = "User does not have a permission to use kinesis stream"
	kinesisEnableState  = "Table is not in a valid state to enable Kinesis Streaming Destination: EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform ENABLE operation."
	kinesisDisableState = "Table is not in a valid state to enable Kinesis Streaming Destination: KinesisStreamingDestination must be ACTIVE to perform DISABLE operation."
)

func kinesisUpdateState(arn string) string {
	return "Table is not in a valid state to enable Kinesis Streaming Destination: Kinesis streaming is not in ACTIVE state. Updates are only allowed in ACTIVE state. TableName: Orders, kdsArn: " + arn
}

// TestKinesisStreamingDestinations walks a table's Kinesis streaming
// destinations through their states. dynago has no Kinesis to deliver
// to, so a destination is what DynamoDB makes of a stream it cannot use:
// Enable answers ENABLING, and once the server's transient delay is over
// the destination is ENABLE_FAILED, "User does not have a permission to
// use kinesis stream" (the ack-api-quirks lab, DDB-TABLE-318 and
// DDB-TABLE-268: DynamoDB's answer for a stream that does not exist, is
// another account's or is no stream at all, about two seconds after the
// 200). The sources of each answer are next to its step; the server's
// clock moves only when the test moves it.
func TestKinesisStreamingDestinations(t *testing.T) {
	c, advance := startTransient(t)
	createHash(t, c, "Orders", types.ScalarAttributeTypeS)
	advance(transientDelay)

	enable := func(table, arn string, precision types.ApproximateCreationDateTimePrecision) func(local.API) (kinesisView, error) {
		return func(c local.API) (kinesisView, error) {
			in := &dynamodb.EnableKinesisStreamingDestinationInput{TableName: aws.String(table), StreamArn: aws.String(arn)}
			if precision != "" {
				in.EnableKinesisStreamingConfiguration = &types.EnableKinesisStreamingConfiguration{ApproximateCreationDateTimePrecision: precision}
			}
			o, err := c.EnableKinesisStreamingDestination(bg(), in)
			if err != nil {
				return kinesisView{}, err
			}
			v := kinesisView{Table: aws.ToString(o.TableName), Stream: aws.ToString(o.StreamArn), Status: string(o.DestinationStatus)}
			if cfg := o.EnableKinesisStreamingConfiguration; cfg != nil {
				v.Config = "{}"
				if cfg.ApproximateCreationDateTimePrecision != "" {
					v.Config = string(cfg.ApproximateCreationDateTimePrecision)
				}
			}
			return v, nil
		}
	}
	describeK := func(table string) func(local.API) (kinesisView, error) {
		return func(c local.API) (kinesisView, error) {
			o, err := c.DescribeKinesisStreamingDestination(bg(), &dynamodb.DescribeKinesisStreamingDestinationInput{TableName: aws.String(table)})
			if err != nil {
				return kinesisView{}, err
			}
			v := kinesisView{Table: aws.ToString(o.TableName), List: []string{}}
			for _, d := range o.KinesisDataStreamDestinations {
				v.List = append(v.List, aws.ToString(d.StreamArn)+" "+string(d.DestinationStatus)+" "+
					string(d.ApproximateCreationDateTimePrecision)+" "+aws.ToString(d.DestinationStatusDescription))
			}
			return v, nil
		}
	}
	disable := func(table, arn string, withConfig bool) func(local.API) (kinesisView, error) {
		return func(c local.API) (kinesisView, error) {
			in := &dynamodb.DisableKinesisStreamingDestinationInput{TableName: aws.String(table), StreamArn: aws.String(arn)}
			if withConfig {
				in.EnableKinesisStreamingConfiguration = &types.EnableKinesisStreamingConfiguration{ApproximateCreationDateTimePrecision: types.ApproximateCreationDateTimePrecisionMicrosecond}
			}
			o, err := c.DisableKinesisStreamingDestination(bg(), in)
			if err != nil {
				return kinesisView{}, err
			}
			return kinesisView{Table: aws.ToString(o.TableName), Stream: aws.ToString(o.StreamArn), Status: string(o.DestinationStatus)}, nil
		}
	}
	update := func(table, arn string, precision *types.ApproximateCreationDateTimePrecision) func(local.API) (kinesisView, error) {
		return func(c local.API) (kinesisView, error) {
			in := &dynamodb.UpdateKinesisStreamingDestinationInput{TableName: aws.String(table), StreamArn: aws.String(arn)}
			if precision != nil {
				in.UpdateKinesisStreamingConfiguration = &types.UpdateKinesisStreamingConfiguration{ApproximateCreationDateTimePrecision: *precision}
			}
			o, err := c.UpdateKinesisStreamingDestination(bg(), in)
			if err != nil {
				return kinesisView{}, err
			}
			return kinesisView{Table: aws.ToString(o.TableName), Stream: aws.ToString(o.StreamArn), Status: string(o.DestinationStatus)}, nil
		}
	}
	later := func(c local.API) (kinesisView, error) { advance(transientDelay); return kinesisView{}, nil }
	tableStatus := func(c local.API) (kinesisView, error) {
		o, err := c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("Orders")})
		if err != nil {
			return kinesisView{}, err
		}
		return kinesisView{Status: string(o.Table.TableStatus)}, nil
	}
	micro := types.ApproximateCreationDateTimePrecisionMicrosecond

	for _, tc := range []struct {
		name      string
		run       func(local.API) (kinesisView, error)
		want      kinesisView
		code, msg string
	}{
		// A fresh table has no destinations: an empty list
		// (DDB-TABLE-299).
		{name: "describe fresh", run: describeK("Orders"), want: kinesisView{Table: "Orders", List: []string{}}},
		// A missing table: "Requested resource not found: Table: <name>
		// not found" (LocalStack's test_kinesis_streaming_destination_crud
		// snapshot, recorded against AWS on 2025-07-23, enable-bad-table
		// and disable-bad-table).
		{name: "enable missing table", run: enable("bad-table", kinesisK1, ""), code: "ResourceNotFoundException", msg: "Requested resource not found: Table: bad-table not found"},
		{name: "disable missing table", run: disable("bad-table", kinesisK1, false), code: "ResourceNotFoundException", msg: "Requested resource not found: Table: bad-table not found"},
		{name: "describe missing table", run: describeK("bad-table"), code: "ResourceNotFoundException", msg: "Requested resource not found: Table: bad-table not found"},
		// StreamArn is 37 to 1024 characters (AWS's service model; the
		// only ARN DynamoDB refuses at once, DDB-TABLE-318), in DynamoDB's
		// words for a member constraint.
		{name: "enable short ARN", run: enable("Orders", "not-an-arn", ""), code: "ValidationException",
			msg: "1 validation error detected: Value 'not-an-arn' at 'streamArn' failed to satisfy constraint: Member must have length greater than or equal to 37"},
		// Enable answers ENABLING and echoes the configuration, {} when
		// none was given (LocalStack's snapshot "enable"; DDB-TABLE-299),
		// and the table stays ACTIVE (DDB-TABLE-299: DescribeTable has no
		// Kinesis member and TableStatus ACTIVE throughout).
		{name: "enable", run: enable("Orders", kinesisK1, ""), want: kinesisView{Table: "Orders", Stream: kinesisK1, Status: "ENABLING", Config: "{}"}},
		{name: "table still active", run: tableStatus, want: kinesisView{Status: "ACTIVE"}},
		{name: "describe enabling", run: describeK("Orders"), want: kinesisView{Table: "Orders", List: []string{kinesisK1 + " ENABLING  "}}},
		// While a destination is ENABLING: Enable of it or of another
		// stream, Disable and Update are refused (DDB-TABLE-299; the
		// Update text in full from the lab's ValidationException
		// catalogue, DDB-TABLE-442).
		{name: "enable again while enabling", run: enable("Orders", kinesisK1, ""), code: "ValidationException", msg: kinesisEnableState},
		{name: "enable other while enabling", run: enable("Orders", kinesisK2, ""), code: "ValidationException", msg: kinesisEnableState},
		{name: "disable while enabling", run: disable("Orders", kinesisK1, false), code: "ValidationException", msg: kinesisDisableState},
		{name: "update while enabling", run: update("Orders", kinesisK1, &micro), code: "ValidationException", msg: kinesisUpdateState(kinesisK1)},
		// Then it is ENABLE_FAILED with DynamoDB's description for a
		// stream it cannot use, and no precision, none having been set
		// (DDB-TABLE-318, -268, -300).
		{name: "time passes", run: later},
		{name: "describe failed", run: describeK("Orders"), want: kinesisView{Table: "Orders", List: []string{kinesisK1 + " ENABLE_FAILED  " + kinesisNoPermission}}},
		{name: "describe by ARN", run: describeK(tableARN("Orders")), want: kinesisView{Table: "Orders", List: []string{kinesisK1 + " ENABLE_FAILED  " + kinesisNoPermission}}},
		// A failed destination can be neither disabled nor updated
		// (DDB-TABLE-268), nor can one never enabled (DDB-TABLE-302: the
		// same Disable text; Update names the stream, as in LocalStack's
		// snapshot "update-bad-stream-arn").
		{name: "disable failed", run: disable("Orders", kinesisK1, false), code: "ValidationException", msg: kinesisDisableState},
		{name: "update failed", run: update("Orders", kinesisK1, &micro), code: "ValidationException", msg: kinesisUpdateState(kinesisK1)},
		{name: "disable never enabled", run: disable("Orders", kinesisK2, false), code: "ValidationException", msg: kinesisDisableState},
		{name: "update never enabled", run: update("Orders", kinesisK2, &micro), code: "ValidationException",
			msg: "Table is not in a valid state to enable Kinesis Streaming Destination: No streaming destination with streamArn: " + kinesisK2 + " found for table with tableName: Orders"},
		// Update without a configuration, or with a precision outside the
		// enum (LocalStack's snapshots "update-missing-params" and
		// "update-bad-precision"; DDB-TABLE-300).
		{name: "update without configuration", run: update("Orders", kinesisK1, nil), code: "ValidationException",
			msg: "Streaming destination cannot be updated with given parameters: UpdateKinesisStreamingConfiguration cannot be null or contain only null values"},
		{name: "update bad precision", run: update("Orders", kinesisK1, ptrTo(types.ApproximateCreationDateTimePrecision("SECOND"))), code: "ValidationException",
			msg: "1 validation error detected: Value 'SECOND' at 'updateKinesisStreamingConfiguration.approximateCreationDateTimePrecision' failed to satisfy constraint: Member must satisfy enum value set: [MILLISECOND, MICROSECOND]"},
		// Disable refuses a configuration (DDB-TABLE-301).
		{name: "disable with configuration", run: disable("Orders", kinesisK1, true), code: "ValidationException",
			msg: "Stream cannot be disabled using EnableKinesisStreamingConfiguration parameters"},
		// With only failed entries, Enable of another stream is accepted
		// and listed first; enabling a failed one again flips its entry
		// rather than adding one (DDB-TABLE-268), with the precision it
		// asks for echoed and described.
		{name: "enable second", run: enable("Orders", kinesisK2, ""), want: kinesisView{Table: "Orders", Stream: kinesisK2, Status: "ENABLING", Config: "{}"}},
		{name: "describe two", run: describeK("Orders"), want: kinesisView{Table: "Orders", List: []string{
			kinesisK2 + " ENABLING  ", kinesisK1 + " ENABLE_FAILED  " + kinesisNoPermission}}},
		{name: "time passes again", run: later},
		{name: "enable first again", run: enable("Orders", kinesisK1, micro), want: kinesisView{Table: "Orders", Stream: kinesisK1, Status: "ENABLING", Config: "MICROSECOND"}},
		{name: "describe flipped", run: describeK("Orders"), want: kinesisView{Table: "Orders", List: []string{
			kinesisK1 + " ENABLING MICROSECOND ", kinesisK2 + " ENABLE_FAILED  " + kinesisNoPermission}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.run(c)
			if tc.code != "" {
				wantErr(t, err, tc.code, tc.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			deepEqual(t, tc.name, got, tc.want)
		})
	}
}

func ptrTo[T any](v T) *T { return &v }

// TestKinesisDestinationFailsAtOnce: without a transient delay the
// destination has failed by the next request, as DynamoDB's has about two
// seconds after the Enable (DDB-TABLE-318).
func TestKinesisDestinationFailsAtOnce(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "Events", types.ScalarAttributeTypeS)
	o, err := c.EnableKinesisStreamingDestination(bg(), &dynamodb.EnableKinesisStreamingDestinationInput{TableName: aws.String("Events"), StreamArn: aws.String(kinesisK1)})
	if err != nil {
		t.Fatal(err)
	}
	if o.DestinationStatus != types.DestinationStatusEnabling {
		t.Fatalf("Enable: %s, want ENABLING", o.DestinationStatus)
	}
	d, err := c.DescribeKinesisStreamingDestination(bg(), &dynamodb.DescribeKinesisStreamingDestinationInput{TableName: aws.String("Events")})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.KinesisDataStreamDestinations) != 1 || d.KinesisDataStreamDestinations[0].DestinationStatus != types.DestinationStatusEnableFailed ||
		aws.ToString(d.KinesisDataStreamDestinations[0].DestinationStatusDescription) != kinesisNoPermission {
		t.Fatalf("Describe: %+v", d.KinesisDataStreamDestinations)
	}
}
