package cli

import (
	"io"
	"strings"
	"testing"

	"github.com/dynago/dynago/engine"
)

// TestServeVectorFlags: the vector search flags reach the engine's
// options, with the engine's defaults when absent, and out-of-range
// values are refused naming the flag.
func TestServeVectorFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want [3]int // exact limit, ef, cache nodes
	}{
		{nil, [3]int{engine.DefaultVectorExactLimit, engine.DefaultVectorSearchEF, engine.DefaultVectorCacheNodes}},
		{[]string{"--vector-exact-limit", "-1", "--vector-search-ef", "400", "--vector-cache-nodes", "5000"}, [3]int{-1, 400, 5000}},
		{[]string{"--vector-exact-limit", "0"}, [3]int{0, engine.DefaultVectorSearchEF, engine.DefaultVectorCacheNodes}},
	} {
		var c serveConfig
		fs := serveFlags(&Env{Stdout: io.Discard, Stderr: io.Discard}, &c)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if err := c.vector.check(); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		var o engine.Options
		c.vector.apply(&o)
		if got := [3]int{o.VectorExactLimit, o.VectorSearchEF, o.VectorCacheNodes}; got != tc.want {
			t.Errorf("%v: options %v, want %v", tc.args, got, tc.want)
		}
	}
	for _, args := range [][]string{
		{"--vector-exact-limit", "-2"},
		{"--vector-search-ef", "0"},
		{"--vector-cache-nodes", "0"},
	} {
		var out, errb strings.Builder
		code := Main(append([]string{"serve", "--in-memory", "--port", "0"}, args...), strings.NewReader(""), &out, &errb)
		if code == 0 || !strings.Contains(errb.String(), args[0]) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}
