package pgtest

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// ClusterOptions place and configure a private cluster (NewClusterWith).
type ClusterOptions struct {
	// Netns runs the server inside this network namespace ("ip netns
	// exec", root only). Its port is then 5432 unless Port says
	// otherwise: the namespace has ports of its own.
	Netns string
	// Listen is the server's listen_addresses; default 127.0.0.1.
	Listen string
	// Host is the address URL names; default Listen's first address.
	Host string
	// Port is the server's port; 0 picks a free loopback port (or 5432
	// in Netns).
	Port int
	// Conf are lines appended to postgresql.conf, such as
	// "synchronous_standby_names = '*'".
	Conf []string
	// HBA are lines put first in pg_hba.conf, such as
	// "host all all 198.18.0.0/15 trust" for clients in other namespaces.
	HBA []string
}

// NewClusterWith is NewCluster placed and configured by o.
func NewClusterWith(t testing.TB, o ClusterOptions) *Cluster {
	t.Helper()
	c := newClusterDir(t)
	if out, err := c.run("initdb", "-D", c.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		t.Fatalf("pgtest: initdb: %v\n%s", err, out)
	}
	if len(o.HBA) > 0 {
		hba := filepath.Join(c.data, "pg_hba.conf")
		old, err := os.ReadFile(hba)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(hba, []byte(strings.Join(o.HBA, "\n")+"\n"+string(old)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if o.Listen == "" {
		o.Listen = "127.0.0.1"
	}
	if o.Host == "" {
		o.Host = strings.TrimSpace(strings.Split(o.Listen, ",")[0])
	}
	c.netns = o.Netns
	extra := ""
	if len(o.Conf) > 0 {
		extra = strings.Join(o.Conf, "\n") + "\n"
	}
	var lastErr error
	for range 5 {
		port := o.Port
		if port == 0 && o.Netns != "" {
			port = 5432
		}
		if port == 0 {
			port = freePort(t)
		}
		c.port = port
		conf := fmt.Sprintf("port = %d\nlisten_addresses = '%s'\nunix_socket_directories = '%s'\nmax_connections = 100\n%s", port, o.Listen, c.dir, extra)
		if err := appendFile(filepath.Join(c.data, "postgresql.auto.conf"), conf); err != nil {
			t.Fatal(err)
		}
		c.URL = clusterURL(o.Host, port)
		if lastErr = c.start(); lastErr == nil || o.Port != 0 || o.Netns != "" {
			break
		}
		// Most likely the port was taken in between: try another.
	}
	if lastErr != nil {
		t.Fatalf("pgtest: start cluster: %v", lastErr)
	}
	return c
}

// NewReplica makes a streaming replica of c on a free loopback port
// (pg_basebackup -R, so it follows c at once) and starts it. c must be
// on loopback, outside a namespace. For it to be synchronous, give c
// "synchronous_standby_names = '*'". The replica's own setting is
// empty, so that once promoted it commits without a standby of its own.
func (c *Cluster) NewReplica(t testing.TB) *Cluster {
	t.Helper()
	r := newClusterDir(t)
	if out, err := r.run("pg_basebackup", "-D", r.data, "-h", "127.0.0.1", "-p", strconv.Itoa(c.port), "-U", "postgres", "-X", "stream", "-R", "--no-sync", "-c", "fast"); err != nil {
		t.Fatalf("pgtest: pg_basebackup: %v\n%s", err, out)
	}
	r.port = freePort(t)
	conf := fmt.Sprintf("port = %d\nunix_socket_directories = '%s'\nsynchronous_standby_names = ''\n", r.port, r.dir)
	if err := appendFile(filepath.Join(r.data, "postgresql.auto.conf"), conf); err != nil {
		t.Fatal(err)
	}
	r.URL = clusterURL("127.0.0.1", r.port)
	r.Start(t)
	return r
}

// Promote makes a replica the primary (pg_ctl promote) and waits until it
// accepts writes.
func (c *Cluster) Promote(t testing.TB) {
	t.Helper()
	if out, err := c.run("pg_ctl", "-D", c.data, "-w", "-t", "60", "promote"); err != nil {
		t.Fatalf("pgtest: promote: %v\n%s", err, out)
	}
}

// Port is the cluster's port.
func (c *Cluster) Port() int { return c.port }

// newClusterDir finds the binaries and the user, and makes the
// cluster's temporary directory, removed (after an immediate stop of a
// server in it) when the test ends.
func newClusterDir(t testing.TB) *Cluster {
	t.Helper()
	bin := os.Getenv(EnvBin)
	if bin == "" {
		dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
		sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) < versionOf(dirs[j]) })
		if len(dirs) > 0 {
			bin = dirs[len(dirs)-1]
		}
	}
	if bin == "" {
		if p, err := exec.LookPath("pg_ctl"); err == nil {
			bin = filepath.Dir(p)
		}
	}
	if _, err := os.Stat(filepath.Join(bin, "initdb")); bin == "" || err != nil {
		t.Skip("no PostgreSQL server binaries (initdb, pg_ctl) for a private cluster; " + howTo)
	}
	me, err := user.Current()
	if err != nil {
		t.Skipf("pgtest: current user: %v", err)
	}
	usr := os.Getenv(EnvUser)
	if usr == "" {
		usr = me.Username
		if os.Geteuid() == 0 {
			usr = "postgres"
		}
	}
	if usr != me.Username && os.Geteuid() != 0 {
		t.Skipf("pgtest: cannot run the server as %s without being root", usr)
	}
	u, err := user.Lookup(usr)
	if err != nil {
		t.Skipf("pgtest: no user %s to run PostgreSQL as: %v", usr, err)
	}
	dir, err := os.MkdirTemp("", "dynago-pgtest-")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{dir: dir, data: filepath.Join(dir, "data"), bin: bin, user: usr}
	t.Cleanup(func() {
		c.run("pg_ctl", "-D", c.data, "-m", "immediate", "-w", "stop")
		os.RemoveAll(dir)
	})
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func clusterURL(host string, port int) string {
	return (&url.URL{Scheme: "postgres", User: url.User("postgres"), Host: net.JoinHostPort(host, strconv.Itoa(port)), Path: "/postgres", RawQuery: "sslmode=disable"}).String()
}
