package console_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/server"
	"github.com/dynago/dynago/server/console"
	"github.com/dynago/dynago/server/sigv4"
)

// TestBrowserServerMode: what the page says of the server's credentials
// and namespaces is true in each mode. DynamoDB Local without -sharedDb
// keeps a database per access key id and region, which need not be valid
// AWS values, and checks no signature (the DynamoDB Local usage notes,
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/DynamoDBLocal.UsageNotes.html;
// "Your credentials won't be checked", an AWS SDK maintainer in
// aws/aws-sdk-js#880): there, a refused unsigned call is no sign that
// signatures are checked, and the key and region choose the tables shown.
func TestBrowserServerMode(t *testing.T) {
	const checked = "This server checks signatures: give the console credentials."
	const perKey = "This server does not check signatures, but keeps a database per access key and region: give the console an access key and region (any values) to choose the database it shows."
	for _, tc := range []struct {
		name                 string
		signatures, perAcct  bool
		list, hint           string // what the Tables screen shows unsigned, and the hint below an error
		notList              string
		nsBefore, modeBefore string // the header's namespace and the Credentials screen's sentence, unsigned
		nsAfter, modeAfter   string // and signed as AKIDMODE in eu-west-1
	}{
		{
			name: "shared, no signatures (dynago's default)",
			list: "No tables yet.", notList: "signatures",
			nsBefore:   "one database for every access key and region",
			modeBefore: "This server does not check signatures. Every access key and region sees the same tables: the console needs no credentials.",
			nsAfter:    "one database for every access key and region",
			modeAfter:  "This server does not check signatures. Every access key and region sees the same tables: the console needs no credentials.",
		},
		{
			name: "a database per key and region, no signatures (DynamoDB Local without -sharedDb)", perAcct: true,
			list: "MissingAuthenticationTokenException: Request is missing Authentication Token", hint: perKey, notList: checked,
			nsBefore:   "a database per access key and region: none chosen",
			modeBefore: "This server does not check signatures. It keeps a database per access key and region, as DynamoDB Local does without -sharedDb: the access key id and region choose the database, and the secret may be anything. The console shows no database until it is given an access key and region.",
			nsAfter:    "tables of AKIDMODE in eu-west-1",
			modeAfter:  "This server does not check signatures. It keeps a database per access key and region, as DynamoDB Local does without -sharedDb: the access key id and region choose the database, and the secret may be anything. The console shows the tables of access key AKIDMODE in eu-west-1.",
		},
		{
			name: "shared, signatures checked (dynago serve --auth)", signatures: true,
			list: "MissingAuthenticationTokenException: Request is missing Authentication Token", hint: checked, notList: perKey,
			// Unsigned, the page cannot ask the server more.
			nsBefore:   "",
			modeBefore: "This server checks every request's signature: the keys must be ones it knows.",
			nsAfter:    "one database for every access key and region",
			modeAfter:  "This server checks every request's signature: the keys must be ones it knows. Every access key and region sees the same tables.",
		},
		{
			name: "a database per key and region, signatures checked", signatures: true, perAcct: true,
			list: "MissingAuthenticationTokenException: Request is missing Authentication Token", hint: checked, notList: perKey,
			nsBefore:   "",
			modeBefore: "This server checks every request's signature: the keys must be ones it knows.",
			nsAfter:    "tables of AKIDMODE in eu-west-1",
			modeAfter:  "This server checks every request's signature: the keys must be ones it knows. It keeps a database per access key and region, as DynamoDB Local does without -sharedDb. The console shows the tables of access key AKIDMODE in eu-west-1.",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cfg []func(*server.Config)
			if tc.perAcct {
				ns := &namespaces{t: t, db: map[string]*local.DB{}}
				cfg = append(cfg, func(c *server.Config) { c.Namespaces = ns })
			}
			db, err := local.Open(local.WithServerConfig(func(c *server.Config) {
				for _, f := range cfg {
					f(c)
				}
			}))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			var h http.Handler = console.With(db.Handler(), console.Options{Signatures: tc.signatures, PerAccount: tc.perAcct})
			if tc.signatures {
				creds, err := sigv4.NewCredentials(sigv4.Credential{AccessKeyID: "AKIDMODE", SecretAccessKey: "the-secret"})
				if err != nil {
					t.Fatal(err)
				}
				h = sigv4.NewVerifier(creds).Handler(h)
			}
			site := httptest.NewServer(h)
			t.Cleanup(site.Close)
			p := startBrowser(t, site.URL)

			list := p.waitText("#table-list", tc.list)
			if got := p.text("#table-list p.hint"); got != tc.hint {
				t.Errorf("the hint says\n%q, want\n%q", got, tc.hint)
			}
			if strings.Contains(list, tc.notList) {
				t.Errorf("the tables screen says %q:\n%s", tc.notList, list)
			}
			if got := p.text("#namespace-state"); got != tc.nsBefore {
				t.Errorf("unsigned, the header says %q, want %q", got, tc.nsBefore)
			}
			p.go_("#credentials")
			if got := p.text("#server-mode"); got != tc.modeBefore {
				t.Errorf("unsigned, the credentials screen says\n%q, want\n%q", got, tc.modeBefore)
			}
			p.do("sign in",
				chromedp.SetValue(`#cred-id`, "AKIDMODE"), chromedp.SetValue(`#cred-secret`, "the-secret"), chromedp.SetValue(`#cred-region`, "eu-west-1"),
				chromedp.Click(`#cred-use`))
			p.waitText("#cred-result", "Signed calls are accepted.")
			if got := p.text("#namespace-state"); got != tc.nsAfter {
				t.Errorf("signed, the header says %q, want %q", got, tc.nsAfter)
			}
			if got := p.text("#server-mode"); got != tc.modeAfter {
				t.Errorf("signed, the credentials screen says\n%q, want\n%q", got, tc.modeAfter)
			}
		})
	}
}
