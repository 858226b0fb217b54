package engine

import (
	"testing"
	"time"
)

// TestReplicationStamps: a database's stamps increase even when its
// clock stands still or goes back, move past every stamp seen from
// another region, and two stamps of one time order by region, so that
// every replica picks the same last writer.
func TestReplicationStamps(t *testing.T) {
	var r replication
	at := time.Unix(1700000000, 0)
	a := r.next(at)
	b := r.next(at)
	c := r.next(at.Add(-time.Hour))
	if !(a < b && b < c) {
		t.Fatalf("stamps at a standing or falling clock: %d %d %d", a, b, c)
	}
	r.setVersion(1, "k", stamp{at: c + 1000, region: "us-west-2"})
	if d := r.next(at); d <= c+1000 {
		t.Fatalf("a stamp after one seen from another region: %d, want > %d", d, c+1000)
	}
	for _, tc := range []struct {
		x, y stamp
		want bool
	}{
		{stamp{1, "us-east-1"}, stamp{2, "us-east-1"}, true},
		{stamp{2, "us-east-1"}, stamp{1, "us-west-2"}, false},
		{stamp{2, "us-east-1"}, stamp{2, "us-west-2"}, true},
		{stamp{2, "us-west-2"}, stamp{2, "us-east-1"}, false},
		{stamp{2, "us-east-1"}, stamp{2, "us-east-1"}, false},
		{stamp{}, stamp{0, "us-east-1"}, true},
	} {
		if got := tc.x.before(tc.y); got != tc.want {
			t.Errorf("%v before %v = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}
