package console_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/server/console"
)

// served records each request a site answers: its path, status and
// content type.
type served struct {
	mu  sync.Mutex
	all []servedRequest
}

type servedRequest struct {
	path, contentType string
	status            int
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (s *served) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		s.mu.Lock()
		s.all = append(s.all, servedRequest{path: r.URL.Path, contentType: w.Header().Get("Content-Type"), status: sw.status})
		s.mu.Unlock()
	})
}

func (s *served) list() []servedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]servedRequest(nil), s.all...)
}

// TestBrowserFavicon: the page names its icon, an SVG of its own served
// with the page's files; the browser asks for it and gets it, and no
// request of the page is answered 404 (before, the browser asked for
// /favicon.ico, which the API does not serve).
func TestBrowserFavicon(t *testing.T) {
	db, err := local.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var rec served
	site := httptest.NewServer(rec.wrap(console.With(db.Handler(), console.Options{})))
	t.Cleanup(site.Close)
	p := startBrowser(t, site.URL)
	p.waitText("#table-list", "No tables yet.")

	// The page's own link, fetched and decoded as an image.
	got := eval[string](p, `(async () => {
		const link = document.querySelector('link[rel~="icon"]');
		if (!link) return "no icon link";
		const resp = await fetch(link.href);
		const img = new Image();
		img.src = link.href;
		await img.decode();
		return resp.status + " " + resp.headers.get("Content-Type") + " " + new URL(link.href).pathname + " " + (img.naturalWidth > 0);
	})()`)
	if want := "200 image/svg+xml /console/favicon.svg true"; got != want {
		t.Errorf("the page's icon: %s, want %s", got, want)
	}
	// The browser's own request for the tab's icon, which it makes
	// by itself once the page has loaded.
	deadline := time.Now().Add(30 * time.Second)
	for !slices.ContainsFunc(rec.list(), func(r servedRequest) bool { return strings.Contains(r.path, "favicon") }) {
		if time.Now().After(deadline) {
			t.Fatalf("the browser never asked for an icon; it asked for %+v", rec.list())
		}
		time.Sleep(25 * time.Millisecond)
	}
	for _, r := range rec.list() {
		if strings.Contains(r.path, "favicon") && (r.path != "/console/favicon.svg" || r.status != http.StatusOK || r.contentType != "image/svg+xml") {
			t.Errorf("the browser's icon request: %+v, want /console/favicon.svg, 200, image/svg+xml", r)
		}
		if r.status == http.StatusNotFound {
			t.Errorf("%s was answered 404", r.path)
		}
	}
}
