package cli

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dynago/dynago/testserver"
)

// TestNoInstanceMetadataForNonAWSEndpoints runs each verb that talks to
// an endpoint as a new user would on a machine with no AWS keys: an empty
// environment (no AWS_* variables, HOME an empty folder), against dynago,
// on this machine or under another host name (a container's, "dynago",
// reached through an HTTP proxy). The instance metadata service is a fake
// one that answers as one refusing IMDSv2's token does (403), where the
// SDK falls back to IMDSv1 with a warning ("falling back to IMDSv1 ...
// 403"). The verbs must never call it (the endpoint accepts any key, so a
// placeholder signs) and say nothing of it.
func TestNoInstanceMetadataForNonAWSEndpoints(t *testing.T) {
	var imdsCalls atomic.Int64
	imds := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		imdsCalls.Add(1)
		if r.Method == http.MethodPut {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		w.WriteHeader(http.StatusNotFound)
	}))
	defer imds.Close()

	s := testserver.Start(t)
	sortedTable(t, s.Client, "Orders", "a", "b")
	target, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	// A proxy that takes requests for any host to the test server, as
	// Docker's network takes http://dynago:8000 to a container.
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.Host = target.Host
	}})
	defer proxy.Close()

	home := t.TempDir()
	model := filepath.Join(t.TempDir(), "model.json")
	if err := os.WriteFile(model, []byte(planTestModel), 0o600); err != nil {
		t.Fatal(err)
	}
	dumpDir := t.TempDir()
	baseEnv := []string{testserver.ChildMainEnv + "=1", "HOME=" + home, "AWS_EC2_METADATA_SERVICE_ENDPOINT=" + imds.URL}
	for _, ep := range []struct {
		name string
		flag []string // --endpoint-url, or none
		env  []string
	}{
		{"--endpoint-url on loopback", []string{"--endpoint-url", s.URL}, nil},
		{"AWS_ENDPOINT_URL on loopback", nil, []string{"AWS_ENDPOINT_URL=" + s.URL}},
		{"AWS_ENDPOINT_URL_DYNAMODB on loopback", nil, []string{"AWS_ENDPOINT_URL_DYNAMODB=" + s.URL}},
		{"a container's host name", []string{"--endpoint-url", "http://dynago:8000"}, []string{"HTTP_PROXY=" + proxy.URL}},
	} {
		for _, v := range []struct {
			args []string
			code int // the exit code: a refusal of the API is 1, and shows the request was signed
		}{
			{[]string{"distinct-keys", "--table", "Orders"}, 0},
			{[]string{"sql", "-e", `SELECT * FROM "Orders"`}, 0},
			{[]string{"retrofit", "--table", "Orders", "--attribute", "d", "--template", "{pk}", "--dry-run"}, 0},
			{[]string{"plan", "--model", model, "--where", "product=42", "--run"}, 1},
			{[]string{"backup", "list"}, 0},
			{[]string{"pitr", "Orders", "status"}, 0},
			{[]string{"dump", "Orders", "--dir", dumpDir}, 0},
			{[]string{"replicate", "--source", "Orders", "--target", "Orders2"}, 1},
		} {
			args := append(append([]string{}, v.args...), ep.flag...)
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(append([]string{}, baseEnv...), ep.env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := cmd.ProcessState.ExitCode()
			before := imdsCalls.Swap(0)
			errText := stderr.String()
			if code != v.code || before != 0 || strings.Contains(errText, "IMDS") || strings.Contains(errText, "credentials") {
				t.Errorf("%s, %v: exit %d (%v), %d calls to the instance metadata service; want exit %d and none\nstderr: %s",
					ep.name, v.args, code, err, before, v.code, errText)
			}
			if v.code == 1 && !strings.Contains(errText, "ResourceNotFoundException") && !strings.Contains(errText, "stream") {
				t.Errorf("%s, %v: the failure is not the API's answer: %s", ep.name, v.args, errText)
			}
		}
	}
}

// TestIsAWSEndpoint checks which endpoints keep the SDK's whole credential
// chain, instance roles included: AWS's own, in each of its domains (the
// AWS SDK's partitions table); every other endpoint is one that accepts
// any key.
func TestIsAWSEndpoint(t *testing.T) {
	for u, want := range map[string]bool{
		"": true,
		"https://dynamodb.us-east-1.amazonaws.com":                     true,
		"https://dynamodb-fips.us-gov-west-1.amazonaws.com":            true,
		"https://vpce-0a1b-c2d3.dynamodb.eu-west-1.vpce.amazonaws.com": true,
		"https://dynamodb.cn-north-1.amazonaws.com.cn":                 true,
		"https://dynamodb.us-east-1.api.aws":                           true,
		"https://DYNAMODB.US-EAST-1.AMAZONAWS.COM.":                    true,
		"http://127.0.0.1:8000":                                        false,
		"http://localhost:8000":                                        false,
		"http://dynago:8000":                                           false,
		"http://0.0.0.0:8000":                                          false,
		"http://10.0.0.7:8000":                                         false,
		"https://amazonaws.com.example.org":                            false,
		"https://notamazonaws.com":                                     false,
	} {
		if got := isAWSEndpoint(u); got != want {
			t.Errorf("isAWSEndpoint(%q) = %v, want %v", u, got, want)
		}
	}
}
