package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/dynago/dynago/internal/exchange"
)

// exchangeSynopsis ends the help of dump and load: where the files go.
const exchangeSynopsis = `--dir is a folder, or an S3 URL (s3://bucket/prefix). S3 is reached with
the same credentials and region as DynamoDB, at --s3-endpoint-url when given
(default $AWS_ENDPOINT_URL_S3, else AWS's S3), with path-style addressing
when an endpoint is given (an S3-compatible server).`

// s3Flags are the flags of the verbs that may reach S3.
type s3Flags struct {
	endpoint string
}

func addS3Flags(fs *flagSet) *s3Flags {
	s := &s3Flags{}
	fs.StringVar(&s.endpoint, "s3-endpoint-url", "", "S3 endpoint URL for an s3:// --dir (an S3-compatible server). Default: $AWS_ENDPOINT_URL_S3, else AWS's S3")
	return s
}

// openLocation opens the bucket and prefix --dir names: a folder is a
// bucket of its own, with no prefix; an S3 URL names a bucket and prefix.
func openLocation(ctx context.Context, dir string, target *awsTarget, s3f *s3Flags) (exchange.Bucket, exchange.Location, string, error) {
	loc, err := exchange.ParseLocation(dir)
	if err != nil {
		return nil, loc, "", err
	}
	if !loc.S3 {
		abs, err := filepath.Abs(loc.Dir)
		if err != nil {
			return nil, loc, "", err
		}
		b, err := exchange.NewFolderBucket(abs, "")
		if err != nil {
			return nil, loc, "", err
		}
		return b, loc, filepath.Base(abs), nil
	}
	cfg, err := target.config(ctx)
	if err != nil {
		return nil, loc, "", err
	}
	endpoint := s3f.endpoint
	if endpoint == "" {
		endpoint = os.Getenv("AWS_ENDPOINT_URL_S3")
	}
	client := exchange.NewS3Client(cfg, exchange.S3Options{Endpoint: endpoint, PathStyle: endpoint != ""})
	return exchange.NewS3Bucket(client, loc.Bucket), loc, loc.Bucket, nil
}

// progress prints a line on stderr every second: items done, their rate
// and, when the total is known, the time left.
type progress struct {
	verb  string
	w     io.Writer
	start time.Time
	total int64 // 0: unknown

	mu   sync.Mutex
	done int64
	stop chan struct{}
	wg   sync.WaitGroup
}

func startProgress(verb string, w io.Writer, total int64) *progress {
	p := &progress{verb: verb, w: w, start: time.Now(), total: total, stop: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				fmt.Fprintln(p.w, p.line())
			}
		}
	}()
	return p
}

func (p *progress) add(n int64) {
	p.mu.Lock()
	p.done += n
	p.mu.Unlock()
}

func (p *progress) count() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done
}

func (p *progress) line() string {
	done := p.count()
	el := time.Since(p.start)
	rate := float64(done) / max(el.Seconds(), 1e-3)
	s := fmt.Sprintf("%s: %d items, %.0f items/s, %s", p.verb, done, rate, el.Round(time.Second))
	if p.total > 0 {
		s += fmt.Sprintf(", %d%% of about %d", min(100, done*100/p.total), p.total)
		if rate > 0 && done < p.total {
			left := time.Duration(float64(p.total-done) / rate * float64(time.Second))
			s += fmt.Sprintf(", about %s left", left.Round(time.Second))
		}
	}
	return s
}

func (p *progress) finish() {
	close(p.stop)
	p.wg.Wait()
}
