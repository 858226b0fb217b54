package cli

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/testserver"
)

// servingField returns a field of the "dynago serving" log line.
func servingField(t *testing.T, log, field string) string {
	t.Helper()
	m := regexp.MustCompile(`msg="dynago serving".* ` + field + `=(\S+)`).FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("no %s= in the serving line:\n%s", field, log)
	}
	return m[1]
}

// TestServingLineGivesURLs checks that the start-up line says where the
// API and the console are as URLs a user can open (scheme, host, port and
// the console's path), over HTTP and HTTPS, and that the console's URL
// answers with the console; with --console off it says off.
func TestServingLineGivesURLs(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := selfSigned(t, dir)
	pemBytes, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pemBytes)
	trusting := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	for _, tc := range []struct {
		name   string
		args   []string
		scheme string
		off    bool
	}{
		{"http", []string{"--in-memory"}, "http", false},
		{"https", []string{"--in-memory", "--tls-cert", certFile, "--tls-key", keyFile}, "https", false},
		{"console off", []string{"--in-memory", "--console", "off"}, "http", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testserver.StartProcess(t, tc.args...)
			addr, err := url.Parse(servingField(t, p.Log(), "addr"))
			if err != nil || addr.Scheme != tc.scheme || addr.Port() == "" || addr.Hostname() != "127.0.0.1" {
				t.Errorf("addr %v (%v): want a %s URL with the host and port listened on", addr, err, tc.scheme)
			}
			consoleAt := servingField(t, p.Log(), "console")
			if tc.off {
				if consoleAt != "off" {
					t.Errorf("console=%s with --console off", consoleAt)
				}
				return
			}
			if want := addr.String() + "/console/"; consoleAt != want {
				t.Fatalf("console=%s, want %s", consoleAt, want)
			}
			resp, err := trusting.Get(consoleAt)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(body), "<html") {
				t.Errorf("GET %s: %d %.80q", consoleAt, resp.StatusCode, body)
			}
		})
	}
}

// TestBrowseURL checks the host a browser is sent to: the address listened
// on, but localhost for a wildcard address, which is no place to connect to.
func TestBrowseURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8000": "http://127.0.0.1:8000",
		"[::1]:8000":     "http://[::1]:8000",
		"0.0.0.0:8000":   "http://localhost:8000",
		"[::]:8000":      "http://localhost:8000",
		"10.1.2.3:8000":  "http://10.1.2.3:8000",
	} {
		tcp, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := browseURL("http://", tcp); got != want {
			t.Errorf("browseURL(%s) = %s, want %s", addr, got, want)
		}
	}
}

// TestServingLineNamesTheStore checks that the start-up line says where
// the data really is: the store's kind and its place (the data directory,
// memory, or the PostgreSQL database's connection string without its
// password), never the data directory a --store server does not use.
func TestServingLineNamesTheStore(t *testing.T) {
	dir := t.TempDir()
	type want struct{ store, data, schema string }
	cases := []struct {
		name string
		args []string
		want want
	}{
		{"directory", []string{"--data-dir", dir}, want{"pebble", dir, ""}},
		{"memory", []string{"--in-memory", "--store", ""}, want{"memory", "in memory", ""}},
	}
	if os.Getenv(pgtest.EnvURL) != "" {
		pg, schema := pgtest.Schema(t)
		withPass := strings.Replace(pg, "postgres://postgres@", "postgres://postgres:s3cret-Pa55@", 1)
		if withPass == pg {
			t.Fatalf("%s %q has no postgres:// user to give a password to", pgtest.EnvURL, pg)
		}
		cases = append(cases, struct {
			name string
			args []string
			want want
		}{"postgres", []string{"--store", withPass, "--store-schema", schema},
			want{"postgres", strings.Replace(pg, "postgres://postgres@", "postgres://postgres:REDACTED@", 1), schema}})
	} else {
		t.Logf("%s is not set: the PostgreSQL case did not run", pgtest.EnvURL)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := testserver.StartProcess(t, tc.args...)
			log := p.Log()
			if got := servingField(t, log, "store"); got != tc.want.store {
				t.Errorf("store=%s, want %s", got, tc.want.store)
			}
			m := regexp.MustCompile(`msg="dynago serving".* data=("[^"]*"|\S+)`).FindStringSubmatch(log)
			if m == nil {
				t.Fatalf("no data= in the serving line:\n%s", log)
			}
			if data, err := strconv.Unquote(m[1]); err == nil {
				m[1] = data
			}
			if m[1] != tc.want.data {
				t.Errorf("data=%s, want %s:\n%s", m[1], tc.want.data, log)
			}
			if tc.want.schema != "" && servingField(t, log, "schema") != tc.want.schema {
				t.Errorf("schema=%s, want %s", servingField(t, log, "schema"), tc.want.schema)
			}
			if strings.Contains(log, "s3cret-Pa55") || strings.Contains(log, "dynago-data") {
				t.Errorf("the log shows the password or a data directory not used:\n%s", log)
			}
		})
	}
}

// TestStorageAttrsRedact checks the store's place as logged for the
// forms of a --store connection string, none showing the password.
func TestStorageAttrsRedact(t *testing.T) {
	for store, want := range map[string]string{
		"postgres://dynago:hunter2@db.internal:5432/dynago?sslmode=disable": "postgres://dynago:REDACTED@db.internal:5432/dynago?sslmode=disable",
		"postgresql://db.internal/dynago?user=dynago&password=hunter2":      "postgresql://db.internal/dynago?user=dynago&password=REDACTED",
		"host=db.internal user=dynago password=hunter2 dbname=dynago":       "host=db.internal user=dynago password=REDACTED dbname=dynago",
		"host=db.internal password='hunter 2' dbname=dynago":                "host=db.internal password=REDACTED dbname=dynago",
	} {
		got := storageAttrs(serveConfig{store: store, storeSchema: "dynago", dataDir: "./dynago-data"})
		if len(got) != 6 || got[1] != "postgres" || got[3] != want || got[5] != "dynago" {
			t.Errorf("%q: %v, want store postgres, data %q, schema dynago", store, got, want)
		}
	}
}
