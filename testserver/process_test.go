package testserver_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynago/dynago/cmd/dynago/cli"
	"github.com/dynago/dynago/testserver"
)

func TestMain(m *testing.M) {
	testserver.ChildMain(cli.Main)
	os.Exit(m.Run())
}

// TestStartProcess runs the harness once end to end: the subprocess
// listens, answers the SDK client, and stops cleanly on SIGTERM.
func TestStartProcess(t *testing.T) {
	p := testserver.StartProcess(t, "--in-memory")
	if !strings.HasPrefix(p.URL, "http://127.0.0.1:") {
		t.Fatalf("URL = %q", p.URL)
	}
	if _, err := p.Client().ListTables(context.Background(), &dynamodb.ListTablesInput{}); err != nil {
		t.Fatal(err)
	}
	p.Stop(t)
	if !strings.Contains(p.Log(), "dynago stopped") {
		t.Fatalf("no clean-stop log line:\n%s", p.Log())
	}
}
