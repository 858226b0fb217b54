package console_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/dynago/dynago/server/console"
)

func TestRecorder(t *testing.T) {
	var totals []console.CapacityTotal
	rec := console.NewRecorder(func() []console.CapacityTotal { return totals }, time.Second, 2)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }

	totals = []console.CapacityTotal{{Table: "T", ReadUnits: 10}}
	rec.Sample(at(0)) // the baseline
	totals = []console.CapacityTotal{{Table: "T", ReadUnits: 12.5, WriteUnits: 1}, {Table: "T", Index: "byX", ReadUnits: 3}}
	rec.Sample(at(1))
	totals = []console.CapacityTotal{{Table: "T", ReadUnits: 12.5, WriteUnits: 1}, {Table: "T", Index: "byX", ReadUnits: 3}}
	rec.Sample(at(2)) // nothing consumed
	got, _ := rec.Samples(nil)
	want := []console.CapacitySample{
		{Time: at(1), Table: "T", ReadUnits: 2.5, WriteUnits: 1},
		{Time: at(1), Table: "T", Index: "byX", ReadUnits: 3},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("samples\n got %+v\nwant %+v", got, want)
	}

	// A total that goes down was reset: it counts from zero. Only the
	// last two intervals are kept.
	totals = []console.CapacityTotal{{Table: "T", ReadUnits: 0.5}}
	rec.Sample(at(3))
	got, _ = rec.Samples(nil)
	want = []console.CapacitySample{{Time: at(3), Table: "T", ReadUnits: 0.5}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after a reset\n got %+v\nwant %+v", got, want)
	}
}

func TestRecorderServesCapacity(t *testing.T) {
	units := 0.0
	rec := console.NewRecorder(func() []console.CapacityTotal {
		return []console.CapacityTotal{{Table: "T", Index: "byX", ReadUnits: units}}
	}, time.Second, 10)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rec.Sample(at)
	units = 4
	rec.Sample(at.Add(time.Second))
	site := newSite(t, console.Options{Capacity: rec.Samples})
	if _, body := post(t, site.URL+"/console/api/capacity", "{}"); body != `{"samples":[{"time":"2026-01-01T00:00:01Z","table":"T","index":"byX","readUnits":4,"writeUnits":0}]}`+"\n" {
		t.Errorf("capacity: %s", body)
	}
}
