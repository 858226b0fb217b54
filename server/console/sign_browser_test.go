package console_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/chromedp/chromedp"

	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/server/console"
	"github.com/dynago/dynago/server/sigv4"
)

// requireSignatures passes to api only the DynamoDB calls signed with
// creds, checking each signature with the AWS SDK's own signer, as a
// server with signature checks would; it counts the calls it let through.
func requireSignatures(api http.Handler, creds aws.Credentials, passed *atomic.Int64) http.Handler {
	auth := regexp.MustCompile(`^AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/dynamodb/aws4_request, SignedHeaders=([^,]+), Signature=[0-9a-f]{64}$`)
	refuse := func(w http.ResponseWriter, typ, msg string) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"__type":"com.amazon.coral.service#%s","message":%q}`, typ, msg)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/" {
			api.ServeHTTP(w, r)
			return
		}
		got := r.Header.Get("Authorization")
		if got == "" {
			refuse(w, "MissingAuthenticationTokenException", "Request is missing Authentication Token")
			return
		}
		m := auth.FindStringSubmatch(got)
		if m == nil || m[1] != creds.AccessKeyID || m[4] != "content-type;host;x-amz-date;x-amz-target" {
			refuse(w, "IncompleteSignatureException", "malformed Authorization: "+got)
			return
		}
		body, _ := io.ReadAll(r.Body)
		at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
		if err != nil || at.Format("20060102") != m[2] {
			refuse(w, "IncompleteSignatureException", "bad X-Amz-Date")
			return
		}
		check, _ := http.NewRequest(http.MethodPost, "http://"+r.Host+"/", nil)
		check.Header.Set("Content-Type", r.Header.Get("Content-Type"))
		check.Header.Set("X-Amz-Target", r.Header.Get("X-Amz-Target"))
		sum := sha256.Sum256(body)
		if err := v4.NewSigner().SignHTTP(context.Background(), creds, check, hex.EncodeToString(sum[:]), "dynamodb", m[3], at); err != nil {
			panic(err)
		}
		if want := check.Header.Get("Authorization"); got != want {
			refuse(w, "InvalidSignatureException", "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.")
			return
		}
		passed.Add(1)
		r.Body = io.NopCloser(bytes.NewReader(body))
		api.ServeHTTP(w, r)
	})
}

// TestBrowserSigns: against a server that requires signatures, the page
// shows the refusal, then signs its calls with the credentials given on
// its Credentials screen, and a wrong secret is refused.
func TestBrowserSigns(t *testing.T) {
	db, err := local.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	creds := aws.Credentials{AccessKeyID: "AKIDCONSOLETEST", SecretAccessKey: "console/secret+key"}
	var passed atomic.Int64
	site := httptest.NewServer(console.With(requireSignatures(db.Handler(), creds, &passed), console.Options{Signatures: true}))
	t.Cleanup(site.Close)
	p := startBrowser(t, site.URL)

	p.waitText("#table-list .error", "MissingAuthenticationTokenException: Request is missing Authentication Token")
	p.go_("#credentials")
	p.do("a wrong secret",
		chromedp.SetValue(`#cred-id`, creds.AccessKeyID),
		chromedp.SetValue(`#cred-secret`, "not the secret"),
		chromedp.SetValue(`#cred-region`, "eu-west-1"),
		chromedp.Click(`#cred-use`))
	p.waitText("#cred-result .error", "InvalidSignatureException: The request signature we calculated does not match")
	p.do("the right secret", chromedp.SetValue(`#cred-secret`, creds.SecretAccessKey), chromedp.Click(`#cred-use`))
	p.waitText("#cred-result", "Signed calls are accepted.")
	if state := p.text("#auth-state"); state != "signing as AKIDCONSOLETEST" {
		t.Errorf("the header says %q", state)
	}
	p.screenshot("credentials")

	// Every screen's calls are signed now.
	p.go_("#tables")
	p.do("create a table",
		chromedp.SetValue(`#create-table [name=table]`, "Signed"),
		chromedp.SetValue(`#create-table [name=pk]`, "pk"),
		chromedp.SetValue(`#create-table [name=stream]`, "NEW_IMAGE"),
		chromedp.Click(`#create-submit`))
	p.waitText("#table-summary", "NEW_IMAGE")
	p.go_("#streams/Signed")
	p.waitText("#stream-status", "Live: NEW_IMAGE")
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	db.Handler().ServeHTTP(rec, req)
	if !strings.Contains(rec.Body.String(), `"Signed"`) {
		t.Errorf("the signed CreateTable did not run: %s", rec.Body)
	}
	if passed.Load() < 5 {
		t.Errorf("only %d signed calls passed", passed.Load())
	}

	// Forgetting the credentials stops the signing.
	p.go_("#credentials")
	p.do("forget", chromedp.Click(`#cred-forget`))
	p.waitText("#auth-state", "not signing")
	p.go_("#tables")
	p.waitText("#table-list .error", "MissingAuthenticationTokenException")
}

// TestBrowserSignsForTheServer: the whole site behind the server's own
// signature check (server/sigv4), as "dynago serve" with credentials will
// run it: the page's files load unsigned, and once given credentials the
// page's API calls and its /console/api/ calls pass the check.
func TestBrowserSignsForTheServer(t *testing.T) {
	db, err := local.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	creds, err := sigv4.NewCredentials(sigv4.Credential{AccessKeyID: "AKIDSERVERCHECK", SecretAccessKey: "s3cr3t/with+signs=", SessionToken: "the-session"})
	if err != nil {
		t.Fatal(err)
	}
	site := httptest.NewServer(sigv4.NewVerifier(creds).Handler(console.With(db.Handler(), console.Options{Signatures: true})))
	t.Cleanup(site.Close)
	p := startBrowser(t, site.URL)

	p.waitText("#table-list .error", "MissingAuthenticationTokenException")
	p.do("follow the hint", chromedp.Click(`#table-list a.credentials-hint`))
	p.waitJS("the credentials screen", `!!document.querySelector("#cred-form")`)
	p.do("sign in",
		chromedp.SetValue(`#cred-id`, "AKIDSERVERCHECK"),
		chromedp.SetValue(`#cred-secret`, "s3cr3t/with+signs="),
		chromedp.SetValue(`#cred-token`, "the-session"),
		chromedp.Click(`#cred-use`))
	p.waitText("#cred-result", "Signed calls are accepted.")
	p.go_("#tables")
	p.waitText("#table-list", "No tables yet.")
	p.go_("#model")
	p.do("plan", chromedp.SetValue(`#model-where`, "product=42"), chromedp.Click(`#plan-run`))
	p.waitText("#plan-explain", `Query index all where GSI4PK = "PRODUCT#42"`)

	// A wrong session token is refused in DynamoDB's words.
	p.go_("#credentials")
	p.do("a wrong token", chromedp.SetValue(`#cred-token`, "another"), chromedp.Click(`#cred-use`))
	p.waitText("#cred-result .error", "Exception: ")
}
