package e2e

// A real browser against "dynago serve": a page on one loopback origin
// calls the DynamoDB API on another through fetch() with X-Amz-Target,
// which makes Chromium send a CORS preflight first. With the default
// --cors the call goes through and the page can read the answer and its
// exposed headers; with a --cors list that leaves the page's origin out,
// the browser blocks it and the server never runs the operation.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/chromedp/chromedp"

	"github.com/dynago/dynago/testserver"
)

// browserResult is what the page's script leaves in window.result.
type browserResult struct {
	Status    int    `json:"status"`
	Body      string `json:"body"`
	RequestID string `json:"rid"`
	Error     string `json:"error"`
}

// browserCall serves a page from a new loopback origin whose script sends
// the DynamoDB operation op with body to dynagoURL, loads it in headless
// Chromium and returns what the script saw.
func browserCall(t *testing.T, dynagoURL, op, body string) browserResult {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (.ci/run installs Debian's chromium package)")
	}
	req, _ := json.Marshal(map[string]any{
		"method": "POST",
		"headers": map[string]string{
			"Content-Type":  "application/x-amz-json-1.0",
			"X-Amz-Target":  "DynamoDB_20120810." + op,
			"Authorization": "AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-target, Signature=0",
		},
		"body": body,
	})
	page := fmt.Sprintf(`<!doctype html><title>cors</title><script>
window.result = null;
fetch(%q, %s)
  .then(r => r.text().then(b => { window.result = {status: r.status, body: b, rid: r.headers.get("x-amzn-RequestId") || ""}; }))
  .catch(e => { window.result = {error: String(e)}; });
</script>`, dynagoURL+"/", req)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(page))
	}))
	defer site.Close()

	ctx := startBrowser(t, chromium)
	if err := chromedp.Do(ctx, chromedp.Navigate(site.URL)); err != nil {
		t.Fatalf("browser: %v", err)
	}
	wctx, wcancel := context.WithTimeout(ctx, time.Minute)
	defer wcancel()
	raw, err := chromedp.Run(wctx, chromedp.Poll[string](`window.result && JSON.stringify(window.result)`,
		chromedp.WithPollingInterval(20*time.Millisecond)))
	if err != nil {
		t.Fatalf("waiting for the page's call: %v", err)
	}
	var res browserResult
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		t.Fatalf("window.result %q: %v", raw, err)
	}
	return res
}

// startBrowser starts headless Chromium for the test, stopped when it
// ends. A browser that exits before it is up (as happens now and then
// when the machine is loaded with other tests' browsers) is started again,
// up to three times; what the test then checks is unchanged.
func startBrowser(t *testing.T, chromium string) context.Context {
	t.Helper()
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(chromium),
			chromedp.NoSandbox, // the tests may run as root
			chromedp.DisableGPU,
			chromedp.UserDataDir(t.TempDir()),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-component-update", true),
		)
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(actx)
		// The first call starts the browser: no timeout on its context,
		// which would stop the browser with it.
		if err = chromedp.Do(ctx); err == nil {
			t.Cleanup(func() { cancelCtx(); cancelAlloc() })
			return ctx
		}
		cancelCtx()
		cancelAlloc()
		if !strings.Contains(err.Error(), "failed to start") {
			break
		}
		t.Logf("chromium did not start (attempt %d): %v", attempt, err)
	}
	t.Fatalf("browser: %v", err)
	return nil
}

// TestBrowserCallsAllowedByDefault: a page on a loopback origin may call
// the API of a server started with the default --cors, read the answer,
// and read x-amzn-RequestId, which only Access-Control-Expose-Headers
// lets a script see.
func TestBrowserCallsAllowedByDefault(t *testing.T) {
	needsWire(t)
	p := testserver.StartProcess(t, "--in-memory")
	res := browserCall(t, p.URL, "ListTables", `{}`)
	t.Logf("the page saw %+v", res)
	if res.Error != "" || res.Status != 200 || !strings.Contains(res.Body, `"TableNames"`) {
		t.Fatalf("the page's call failed: %+v", res)
	}
	if res.RequestID == "" {
		t.Errorf("the page cannot read x-amzn-RequestId: not exposed")
	}
}

// TestBrowserCallsRefusedOutsideCORSList: with --cors naming other
// origins only, the browser's preflight is refused, fetch() fails, and
// the CreateTable it carried never runs.
func TestBrowserCallsRefusedOutsideCORSList(t *testing.T) {
	needsWire(t)
	p := testserver.StartProcess(t, "--in-memory", "--cors", "https://app.example.com")
	res := browserCall(t, p.URL, "CreateTable", `{"TableName":"fromPage","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
	t.Logf("the page saw %+v", res)
	if res.Error == "" {
		t.Fatalf("the browser let the page's call through: %+v", res)
	}
	out, err := p.Client().ListTables(context.Background(), &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.TableNames) != 0 {
		t.Fatalf("the refused page created %v", out.TableNames)
	}
}
