package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dynago/dynago/engine"
)

// TestFaultsEndpointLoopbackOnly: without --auth, the fault plan is read
// and changed from loopback addresses only.
func TestFaultsEndpointLoopbackOnly(t *testing.T) {
	db, err := engine.Open(engine.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := New(db, Config{})
	for _, c := range []struct {
		remote string
		status int
	}{{"127.0.0.1:5000", 200}, {"[::1]:5000", 200}, {"192.0.2.7:5000", 403}, {"[2001:db8::1]:5000", 403}} {
		r := httptest.NewRequest(http.MethodPost, "http://localhost/dynago/faults", strings.NewReader(`{"Rules":[{"Every":1,"Fault":"InternalServerError"}]}`))
		r.RemoteAddr = c.remote
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != c.status {
			t.Errorf("POST from %s: %d %s, want %d", c.remote, w.Code, w.Body, c.status)
		}
		if c.status == 403 && !strings.Contains(w.Body.String(), "AccessDeniedException") {
			t.Errorf("POST from %s: %s", c.remote, w.Body)
		}
		s.SetFaults(nil)
	}
}
