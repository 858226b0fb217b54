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
