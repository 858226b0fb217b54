// Package s3test gives tests an S3-compatible server: moto's moto_server
// (moto 5), started on a free loopback port for the test and killed when
// it ends, and a fresh bucket on it.
//
// When moto_server is not on PATH the test skips, or fails when the
// environment variable CI is "true", so that a CI run cannot pass without
// the S3 tests.
package s3test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dynago/dynago/internal/exchange"
)

// Server is a running moto_server.
type Server struct {
	// Endpoint is its URL, http://127.0.0.1:<port>.
	Endpoint string
	// Config signs with moto's placeholder credentials in us-east-1.
	Config aws.Config
	Client *s3.Client
}

var bucketSeq struct {
	sync.Mutex
	n int
}

// Start starts moto_server for the test.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := exec.LookPath("moto_server")
	if err != nil {
		msg := "moto_server is not on PATH (pip install 'moto[server]'): the S3 tests need an S3-compatible server"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin, "-H", "127.0.0.1", "-p", strconv.Itoa(port))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start moto_server: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	endpoint := fmt.Sprintf("http://127.0.0.1:%d", port)
	// Wait until it answers, or it exits; a slow machine may take a
	// while to import moto, hence the generous bound.
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(endpoint + "/")
		if err == nil {
			resp.Body.Close()
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("moto_server exited: %v\n%s", err, out.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("moto_server did not answer on %s within a minute\n%s", endpoint, out.String())
		}
	}
	cfg := aws.Config{
		Region:      "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("testing", "testing", ""),
	}
	return &Server{
		Endpoint: endpoint,
		Config:   cfg,
		Client:   exchange.NewS3Client(cfg, exchange.S3Options{Endpoint: endpoint, PathStyle: true}),
	}
}

// Bucket creates a bucket of its own for the test.
func (s *Server) Bucket(t testing.TB) *exchange.S3Bucket {
	t.Helper()
	var b [4]byte
	_, _ = rand.Read(b[:])
	bucketSeq.Lock()
	bucketSeq.n++
	name := fmt.Sprintf("test-%d-%s", bucketSeq.n, hex.EncodeToString(b[:]))
	bucketSeq.Unlock()
	if _, err := s.Client.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("create bucket %s: %v", name, err)
	}
	return exchange.NewS3Bucket(s.Client, name)
}
