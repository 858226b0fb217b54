package console_test

import (
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/server"
	"github.com/dynago/dynago/server/console"
)

// namespaces is a database per access key and region, opened on first use.
type namespaces struct {
	t  *testing.T
	mu sync.Mutex
	db map[string]*local.DB
}

func (n *namespaces) DB(key, region string) (*engine.DB, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if d, ok := n.db[key+"/"+region]; ok {
		return d.Engine(), nil
	}
	d, err := local.Open(local.WithEngineOptions(func(o *engine.Options) { o.Region = region }))
	if err != nil {
		return nil, err
	}
	n.t.Cleanup(func() { d.Close() })
	n.db[key+"/"+region] = d
	return d.Engine(), nil
}

func (n *namespaces) All() []*engine.DB {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []*engine.DB
	for _, d := range n.db {
		out = append(out, d.Engine())
	}
	return out
}

// TestBrowserNamespaces: on a server with a database per access key and
// region, the page sees the tables of the key and region it signs with.
func TestBrowserNamespaces(t *testing.T) {
	ns := &namespaces{t: t, db: map[string]*local.DB{}}
	db, err := local.Open(local.WithServerConfig(func(c *server.Config) { c.Namespaces = ns }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	site := httptest.NewServer(console.With(db.Handler(), console.Options{PerAccount: true}))
	t.Cleanup(site.Close)
	p := startBrowser(t, site.URL)
	p.waitText("#table-list .error", "MissingAuthenticationTokenException")

	signIn := func(key, region string) {
		p.go_("#credentials")
		p.do("sign in as "+key,
			chromedp.SetValue(`#cred-id`, key), chromedp.SetValue(`#cred-secret`, "any"), chromedp.SetValue(`#cred-region`, region),
			chromedp.Click(`#cred-use`))
		p.waitText("#cred-result", "Signed calls are accepted.")
		p.go_("#tables")
	}
	signIn("alice", "eu-west-1")
	p.waitText("#table-list", "No tables yet.")
	p.do("create a table",
		chromedp.SetValue(`#create-table [name=table]`, "Mine"),
		chromedp.SetValue(`#create-table [name=pk]`, "pk"),
		chromedp.Click(`#create-submit`))
	p.waitText("#table-summary", "arn:aws:dynamodb:eu-west-1:")

	signIn("bob", "eu-west-1")
	p.waitText("#table-list", "No tables yet.")
	signIn("alice", "eu-west-1")
	p.waitText("#table-list", "Mine")
}
