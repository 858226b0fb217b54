// Package pgtest gives tests a PostgreSQL database: the server named by
// the environment, a fresh schema per test, and private clusters a test
// may stop and start.
//
// The server comes from the environment variable DYNAGO_TEST_POSTGRES, a
// URL such as postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable.
// .ci/run sets it; by hand, run
//
//	eval "$(.ci/postgres start)"
//
// and ".ci/postgres stop" when done. Without it, the tests that need
// PostgreSQL skip.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The environment .ci/postgres start exports.
const (
	// EnvURL holds the base URL of the test server.
	EnvURL = "DYNAGO_TEST_POSTGRES"
	// EnvPGDATA is the test cluster's data directory.
	EnvPGDATA = "DYNAGO_TEST_POSTGRES_PGDATA"
	// EnvBin is the directory holding pg_ctl and initdb.
	EnvBin = "DYNAGO_TEST_POSTGRES_BIN"
	// EnvUser is the operating-system user that runs the server.
	EnvUser = "DYNAGO_TEST_POSTGRES_USER"
)

const howTo = "run .ci/run, or `eval \"$(.ci/postgres start)\"` to export " + EnvURL + " (and `.ci/postgres stop` afterwards)"

// URL returns the test server's base URL, or skips the test.
func URL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvURL)
	if u == "" {
		t.Skip("no PostgreSQL for this test: " + EnvURL + " is not set; " + howTo)
	}
	return u
}

// Schema returns the test server's URL and the name of a schema no other
// test uses, dropped with everything in it when the test ends. The schema
// itself is not created: the store creates it when it opens.
func Schema(t testing.TB) (string, string) {
	t.Helper()
	u := URL(t)
	name := schemaName(t.Name())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := DropSchema(ctx, u, name); err != nil {
			t.Errorf("pgtest: drop schema %s: %v", name, err)
		}
	})
	return u, name
}

// DropSchema drops a schema and everything in it. Two tests dropping
// their schemas at the same moment can deadlock in PostgreSQL's catalog
// (SQLSTATE 40P01, seen once in a full run); PostgreSQL then aborts one
// of the two, which is tried again.
func DropSchema(ctx context.Context, url, schema string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	for attempt := 1; ; attempt++ {
		_, err = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
		var pe *pgconn.PgError
		if err == nil || attempt == 5 || !errors.As(err, &pe) || (pe.Code != "40P01" && pe.Code != "40001") {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(attempt) * 20 * time.Millisecond):
		}
	}
}

// schemaName makes a schema name from the test's name and random bytes,
// within PostgreSQL's 63 bytes.
func schemaName(test string) string {
	var b strings.Builder
	b.WriteString("t_")
	for _, r := range strings.ToLower(test) {
		if b.Len() >= 40 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	var rnd [6]byte
	rand.Read(rnd[:])
	b.WriteByte('_')
	b.WriteString(hex.EncodeToString(rnd[:]))
	return b.String()
}

// Restart stops the test server at once (pg_ctl -m immediate, as a crash
// would) and starts it again. It needs the variables .ci/postgres exports
// and skips without them. Every test using the server at that moment
// sees its connections break, including other packages' tests that run
// in parallel: prefer a private cluster (NewCluster) to this.
func Restart(t testing.TB) {
	t.Helper()
	data, bin, usr := os.Getenv(EnvPGDATA), os.Getenv(EnvBin), os.Getenv(EnvUser)
	if data == "" || bin == "" || usr == "" {
		t.Skip("cannot restart the test PostgreSQL: " + EnvPGDATA + ", " + EnvBin + " and " + EnvUser + " are not all set; " + howTo)
	}
	c := &Cluster{data: data, bin: bin, user: usr}
	c.Restart(t)
}

// Cluster is a private PostgreSQL cluster for one test, in a temporary
// directory, stopped and removed when the test ends.
type Cluster struct {
	// URL connects to the cluster's postgres database as postgres.
	URL string

	dir, data, bin, user string
	// netns is the network namespace the server runs in, if any; port
	// its port.
	netns string
	port  int
}

// NewCluster initialises and starts a private cluster with the server
// binaries of EnvBin or Debian's /usr/lib/postgresql/*/bin, run as
// EnvUser, or as user postgres when we are root (PostgreSQL refuses to
// run as root), on a free loopback port. It skips the test when it
// cannot. NewClusterWith (cluster.go) places it elsewhere.
func NewCluster(t testing.TB) *Cluster {
	t.Helper()
	return NewClusterWith(t, ClusterOptions{})
}

// Restart stops the cluster at once (pg_ctl -m immediate: no shutdown
// checkpoint, connections cut, as in a crash) and starts it again.
func (c *Cluster) Restart(t testing.TB) {
	t.Helper()
	c.Stop(t)
	c.Start(t)
}

// Stop stops the cluster at once, as a crash would.
func (c *Cluster) Stop(t testing.TB) {
	t.Helper()
	if out, err := c.run("pg_ctl", "-D", c.data, "-m", "immediate", "-w", "stop"); err != nil {
		t.Fatalf("pgtest: stop PostgreSQL: %v\n%s", err, out)
	}
}

// Start starts a stopped cluster and waits until it accepts connections.
func (c *Cluster) Start(t testing.TB) {
	t.Helper()
	if err := c.start(); err != nil {
		t.Fatalf("pgtest: start PostgreSQL: %v", err)
	}
}

func (c *Cluster) start() error {
	logf := filepath.Join(c.data, "server.log")
	if out, err := c.run("pg_ctl", "-D", c.data, "-l", logf, "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(logf)
		return fmt.Errorf("%v\n%s\n%s", err, out, tail(string(log), 2000))
	}
	return nil
}

// run runs one of the server's programs as the cluster's user; pg_ctl
// start in the cluster's network namespace, if it has one (stopping
// only signals the server's process, from anywhere).
func (c *Cluster) run(prog string, args ...string) ([]byte, error) {
	argv := append([]string{filepath.Join(c.bin, prog)}, args...)
	if me, _ := user.Current(); me == nil || me.Username != c.user {
		argv = append([]string{"runuser", "-u", c.user, "--"}, argv...)
	}
	if c.netns != "" && prog == "pg_ctl" && slices.Contains(args, "start") {
		argv = append([]string{"ip", "netns", "exec", c.netns}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = os.TempDir()
	return cmd.CombinedOutput()
}

func appendFile(name, s string) error {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(s); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func versionOf(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
