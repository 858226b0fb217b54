package cli

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
)

// defaultEndpoint is the endpoint of the verbs that talk to DynamoDB when
// neither --endpoint-url nor AWS_ENDPOINT_URL says another: a local
// "dynago serve".
const defaultEndpoint = "http://127.0.0.1:8000"

// endpointAWS, given as --endpoint-url, means AWS's own endpoint for the
// region.
const endpointAWS = "aws"

// awsTarget is where a verb sends its requests and as whom: the
// --endpoint-url, --region and --profile flags, resolved as the AWS CLI
// resolves them.
type awsTarget struct {
	endpoint string
	region   string
	profile  string
}

// addAWSFlags declares --endpoint-url (and --endpoint, its older name),
// --region and --profile on fs.
func addAWSFlags(fs *flagSet) *awsTarget {
	a := &awsTarget{}
	const help = "DynamoDB endpoint URL, or \"aws\" for AWS's own endpoint of --region. Default:\n" +
		"$AWS_ENDPOINT_URL_DYNAMODB or $AWS_ENDPOINT_URL when set, else the local dynago\n" +
		"server (" + defaultEndpoint + ")"
	fs.StringVar(&a.endpoint, "endpoint-url", "", help)
	fs.StringVar(&a.endpoint, "endpoint", "", "the same as --endpoint-url")
	fs.StringVar(&a.region, "region", "", "AWS region. Default: $AWS_REGION, $AWS_DEFAULT_REGION, the profile's region, else us-east-1")
	fs.StringVar(&a.profile, "profile", "", "profile of the AWS shared config and credentials files. Default: $AWS_PROFILE, else \"default\"")
	return a
}

// endpointURL returns the endpoint to call, "" for AWS's own.
func (a *awsTarget) endpointURL() string {
	e := a.endpoint
	for _, name := range []string{"AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL"} {
		if e == "" {
			e = os.Getenv(name)
		}
	}
	switch e {
	case "":
		return defaultEndpoint
	case endpointAWS:
		return ""
	}
	return e
}

// config loads the SDK's configuration with its default credential chain:
// environment, shared credentials and config files (profiles, SSO,
// credential processes), web identity, container and instance roles. An
// endpoint that is not AWS's (dynago, DynamoDB Local, wherever they run:
// on this machine, in a container, on another host) accepts any key and
// knows nothing of an instance's role, so there the chain never asks the
// instance metadata service (unless AWS_EC2_METADATA_DISABLED says
// otherwise) and, when it finds nothing, signs with a placeholder key.
func (a *awsTarget) config(ctx context.Context) (aws.Config, error) {
	endpoint := a.endpointURL()
	var opts []func(*config.LoadOptions) error
	if a.profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(a.profile))
	}
	region := a.region
	if region == "" {
		region = os.Getenv("AWS_DEFAULT_REGION") // the Go SDK reads AWS_REGION only
	}
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	local := !isAWSEndpoint(endpoint)
	if local && os.Getenv("AWS_EC2_METADATA_DISABLED") == "" {
		opts = append(opts, config.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	if local {
		cfg.Credentials = aws.NewCredentialsCache(orPlaceholder{cfg.Credentials})
	}
	return cfg, nil
}

// orPlaceholder is a credential chain that, when it finds no credentials,
// answers a placeholder key: for servers that accept any.
type orPlaceholder struct{ chain aws.CredentialsProvider }

func (o orPlaceholder) Retrieve(ctx context.Context) (aws.Credentials, error) {
	if o.chain != nil {
		if c, err := o.chain.Retrieve(ctx); err == nil {
			return c, nil
		}
	}
	return aws.Credentials{AccessKeyID: "dynago", SecretAccessKey: "dynago", Source: "placeholder for a local endpoint"}, nil
}

// dynamo returns a DynamoDB client for the target.
func (a *awsTarget) dynamo(ctx context.Context) (*dynamodb.Client, error) {
	cfg, err := a.config(ctx)
	if err != nil {
		return nil, err
	}
	endpoint := a.endpointURL()
	return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	}), nil
}

// streams returns a DynamoDB Streams client for the target, at endpoint
// when not "" (dynago serves both APIs on one endpoint; AWS has one for
// each).
func (a *awsTarget) streams(ctx context.Context, endpoint string) (*dynamodbstreams.Client, error) {
	cfg, err := a.config(ctx)
	if err != nil {
		return nil, err
	}
	if endpoint == "" {
		endpoint = a.endpointURL()
	}
	return dynamodbstreams.NewFromConfig(cfg, func(o *dynamodbstreams.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	}), nil
}

// awsDNSSuffixes are the domains of AWS's endpoints, in every partition
// (the dnsSuffix and dualStackDnsSuffix of the AWS SDK's partitions
// table).
var awsDNSSuffixes = []string{
	"amazonaws.com", "amazonaws.com.cn", "amazonaws.eu", "c2s.ic.gov", "sc2s.sgov.gov", "cloud.adc-e.uk", "csp.hci.ic.gov",
	"api.aws", "api.amazonwebservices.com.cn", "api.amazonwebservices.eu", "api.aws.hci.ic.gov", "api.aws.ic.gov",
	"api.aws.scloud", "api.cloud-aws.adc-e.uk",
}

// isAWSEndpoint reports whether the endpoint u is AWS's own: "" (the
// SDK's endpoint for the region), or a host in one of AWS's domains (a
// regional, FIPS, dual-stack or VPC endpoint).
func isAWSEndpoint(u string) bool {
	if u == "" {
		return true
	}
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	h := strings.ToLower(strings.TrimSuffix(p.Hostname(), "."))
	for _, suffix := range awsDNSSuffixes {
		if h == suffix || strings.HasSuffix(h, "."+suffix) {
			return true
		}
	}
	return false
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// awsSynopsis ends the help of every verb that talks to DynamoDB.
const awsSynopsis = `Where and as whom: --endpoint-url (default $AWS_ENDPOINT_URL_DYNAMODB or
$AWS_ENDPOINT_URL, else the local dynago server, ` + defaultEndpoint + `; "aws" for
AWS's own endpoint), --region and --profile. Credentials come from the AWS
SDK's default chain, as for the AWS CLI: environment variables, the shared
credentials and config files (profiles, SSO, credential processes), web
identity, container and instance roles. An endpoint that is not AWS's (dynago,
DynamoDB Local, here or on another host) accepts any key: there the chain skips
the instance metadata service, and a placeholder key signs when it finds none.`

// withResumeHint adds to the error of an interrupted run how to resume
// it: from the checkpoint file when the run wrote one, else from the
// start, as nothing was recorded.
func withResumeHint(err error, checkpoint string) error {
	if checkpoint == "" {
		return err
	}
	if _, statErr := os.Stat(checkpoint); statErr != nil {
		return fmt.Errorf("%w (no progress was recorded in %s: the same command starts over)", err, checkpoint)
	}
	return fmt.Errorf("%w (run the same command again to resume from %s)", err, checkpoint)
}
