package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestServeStreamAndTTLFlags checks how the Streams and Time to Live
// flags reach the engine: 0 turns the sweeper and the cooldown off (the
// engine reads 0 as its default, so they become -1), and the defaults
// are DynamoDB's.
func TestServeStreamAndTTLFlags(t *testing.T) {
	o := engineOptions(serveConfig{streamShardDuration: 20 * time.Millisecond, ttlSweepInterval: 0, ttlChangeCooldown: 0}, nil)
	if o.StreamShardDuration != 20*time.Millisecond || o.TTLSweepInterval >= 0 || o.TTLChangeCooldown >= 0 {
		t.Fatalf("0 values: %+v", o)
	}
	o = engineOptions(serveConfig{streamShardDuration: 4 * time.Hour, ttlSweepInterval: time.Second, ttlChangeCooldown: time.Hour}, nil)
	if o.StreamShardDuration != 4*time.Hour || o.TTLSweepInterval != time.Second || o.TTLChangeCooldown != time.Hour {
		t.Fatalf("defaults: %+v", o)
	}

	var stderr bytes.Buffer
	env := &Env{Stdout: &stderr, Stderr: &stderr, Ctx: context.Background()}
	if err := runServe(env, []string{"--in-memory", "--stream-shard-duration", "0s"}); err == nil || !strings.Contains(err.Error(), "--stream-shard-duration") {
		t.Fatalf("--stream-shard-duration 0: %v", err)
	}
	stderr.Reset()
	runServe(env, []string{"-h"})
	for _, want := range []string{"-ttl-sweep-interval", "(default 1s)", "-ttl-change-cooldown", "(default 1h0m0s)", "that toggle TTL",
		"-stream-shard-duration", "(default 4h0m0s)", "POST /dynago/ttl/sweep", "aws dynamodbstreams list-streams"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("serve --help does not say %q", want)
		}
	}
}

// TestServeCacheSizeFlag checks that --cache-size reaches the engine,
// and that without it the engine keeps its default (0).
func TestServeCacheSizeFlag(t *testing.T) {
	var out bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &out, Ctx: context.Background()}
	for _, c := range []struct {
		args []string
		want int64
	}{{nil, 0}, {[]string{"--cache-size", "512MiB"}, 512 << 20}, {[]string{"--cache-size", "1GiB"}, 1 << 30}} {
		var sc serveConfig
		if err := parseFlags(serveFlags(env, &sc), c.args); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got := engineOptions(sc, nil).CacheSize; got != c.want {
			t.Errorf("%v: CacheSize %d, want %d", c.args, got, c.want)
		}
	}
}

// TestServeEnforceCapacityFlag checks that --enforce-capacity reaches the
// engine, and that without it nothing is enforced.
func TestServeEnforceCapacityFlag(t *testing.T) {
	var out bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &out, Ctx: context.Background()}
	for _, c := range []struct {
		args []string
		want bool
	}{{nil, false}, {[]string{"--enforce-capacity"}, true}, {[]string{"--enforce-capacity=false"}, false}} {
		var sc serveConfig
		if err := parseFlags(serveFlags(env, &sc), c.args); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got := engineOptions(sc, nil).EnforceCapacity; got != c.want {
			t.Errorf("%v: EnforceCapacity %v, want %v", c.args, got, c.want)
		}
	}
}
