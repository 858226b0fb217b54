package console_test

import (
	"os"
	"strings"
	"testing"

	"github.com/dynago/dynago/server/console"
)

// TestWorkbenchAPI: /console/api/workbench lists the examples' models and
// reads a model in either format, answering a bad one as a
// ValidationException with the decoder's words.
func TestWorkbenchAPI(t *testing.T) {
	site := newSite(t, console.Options{})
	resp, body := post(t, site.URL+"/console/api/workbench", `{"examples": true}`)
	if resp.StatusCode != 200 || !strings.Contains(body, `"name":"comments"`) || !strings.Contains(body, `"name":"overloading"`) {
		t.Fatalf("examples: %d %s", resp.StatusCode, body)
	}
	wb, err := os.ReadFile("../../toolkit/workbench/testdata/bakery.workbench.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ model, want string }{
		{string(wb), `"format":"workbench"`},
		{`{"table": "T", "tableKeys": ["id"]}`, `"format":"dynago"`},
	} {
		resp, body := post(t, site.URL+"/console/api/workbench", `{"model": `+tc.model+`}`)
		if resp.StatusCode != 200 || !strings.Contains(body, tc.want) || !strings.Contains(body, `"DataModel"`) || !strings.Contains(body, `"tableKeys"`) {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
	}
	resp, body = post(t, site.URL+"/console/api/workbench", `{"model": {"table": "T", "tableKeys": ["id"], "colour": 1}}`)
	if got := decode(t, body); resp.StatusCode != 400 || got["__type"] != "ValidationException" || !strings.Contains(got["message"].(string), `unknown member "colour"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}
