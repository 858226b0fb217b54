package exchange

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// S3Bucket is a bucket of S3, or of a server speaking its API.
type S3Bucket struct {
	client *s3.Client
	name   string
}

// NewS3Bucket returns the bucket name through client.
func NewS3Bucket(client *s3.Client, name string) *S3Bucket {
	return &S3Bucket{client: client, name: name}
}

// S3Options configure NewS3Client.
type S3Options struct {
	// Endpoint overrides the S3 endpoint (an S3-compatible server); ""
	// keeps AWS's for the configuration's region.
	Endpoint string
	// PathStyle addresses buckets as <endpoint>/<bucket>/<key> rather than
	// <bucket>.<endpoint>/<key>, which most S3-compatible servers need.
	PathStyle bool
}

// NewS3Client returns an S3 client for cfg (credentials and region),
// with opts' endpoint and addressing.
func NewS3Client(cfg aws.Config, opts S3Options) *s3.Client {
	return s3.NewFromConfig(cfg, func(o *s3.Options) {
		if opts.Endpoint != "" {
			o.BaseEndpoint = aws.String(opts.Endpoint)
		}
		o.UsePathStyle = opts.PathStyle
		// Checksums only where the API requires them: S3-compatible
		// servers do not all know the newer ones.
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
}

// Name is the bucket's name.
func (b *S3Bucket) Name() string { return b.name }

// Put stores the object with PutObject. The body is read whole first
// when it cannot seek: the request is signed over its length.
func (b *S3Bucket) Put(ctx context.Context, key string, r io.Reader) error {
	if err := checkKey(key); err != nil {
		return err
	}
	var body io.ReadSeeker
	if rs, ok := r.(io.ReadSeeker); ok {
		body = rs
	} else {
		data, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		body = bytes.NewReader(data)
	}
	_, err := b.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(b.name), Key: aws.String(key), Body: body})
	if err != nil {
		return fmt.Errorf("put s3://%s/%s: %w", b.name, key, err)
	}
	return nil
}

// Get opens the object with GetObject.
func (b *S3Bucket) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	out, err := b.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(b.name), Key: aws.String(key)})
	if err != nil {
		var nk *types.NoSuchKey
		if errors.As(err, &nk) {
			return nil, fmt.Errorf("s3://%s/%s: %w", b.name, key, ErrNotFound)
		}
		return nil, fmt.Errorf("get s3://%s/%s: %w", b.name, key, err)
	}
	return out.Body, nil
}

// List pages through ListObjectsV2.
func (b *S3Bucket) List(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	p := s3.NewListObjectsV2Paginator(b.client, &s3.ListObjectsV2Input{Bucket: aws.String(b.name), Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list s3://%s/%s: %w", b.name, prefix, err)
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	return keys, nil
}

// Location is where an export or import lives: a bucket and a key prefix.
type Location struct {
	// S3 tells an s3:// URL from a folder.
	S3     bool
	Bucket string // the S3 bucket; "" for a folder
	Dir    string // the folder; "" for S3
	Prefix string
}

// ParseLocation reads s3://bucket/prefix, or else a folder path (the
// folder is the bucket, with no prefix).
func ParseLocation(s string) (Location, error) {
	if rest, ok := strings.CutPrefix(s, "s3://"); ok {
		u, err := url.Parse(s)
		if err != nil || u.Host == "" {
			return Location{}, fmt.Errorf("%q: want s3://bucket/prefix", s)
		}
		_ = rest
		return Location{S3: true, Bucket: u.Host, Prefix: strings.Trim(u.Path, "/")}, nil
	}
	if s == "" {
		return Location{}, errors.New("empty location")
	}
	return Location{Dir: s}, nil
}

// String is the location as ParseLocation reads it.
func (l Location) String() string {
	if l.S3 {
		return "s3://" + l.Bucket + "/" + l.Prefix
	}
	return l.Dir
}
