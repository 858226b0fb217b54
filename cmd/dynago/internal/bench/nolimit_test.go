package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dynago/dynago/testserver"
)

// TestNoLimit checks that with NoLimit the read workloads send no Limit
// and read pages of up to 1 MB: one client scanning 2.5 MB of items in
// its one segment gets pages of hundreds of items, filtered or not, and
// together they are the whole table.
func TestNoLimit(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	for _, mode := range []string{ModeSDK, ModeRaw} {
		cfg := readConfig(s.URL, mode, "nolimit-"+mode)
		cfg.Clients, cfg.ItemSize, cfg.Keys, cfg.Partitions = 1, 1000, 2500, 5
		cfg.PageSize, cfg.NoLimit = 0, true
		cfg.Workloads = []string{WorkloadScan, WorkloadFScan}
		r, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if r.info.PageSize != 0 || !r.info.NoLimit {
			t.Errorf("%s: info %+v", mode, r.info)
		}
		var hdr bytes.Buffer
		r.info.WriteHeader(&hdr)
		if !strings.Contains(hdr.String(), "pages of 1 MB (no Limit)") {
			t.Errorf("%s: header:\n%s", mode, hdr.String())
		}
		if _, err := r.ensureTable(ctx, r.tables()[0]); err != nil {
			t.Fatal(err)
		}
		if err := r.preload(ctx, true); err != nil {
			t.Fatal(err)
		}
		w := r.newWorker(0)
		for _, o := range []op{opScan, opFScan} {
			calls, items, largest := 0, 0, 0
			for {
				n, err := w.do(ctx, o, 0, 0)
				if err != nil {
					t.Fatalf("%s %s: %v", mode, o, err)
				}
				calls++
				items += n
				largest = max(largest, n)
				if scanAtStart(w) || calls > cfg.Keys {
					break
				}
			}
			// 1 MB holds about 1000 items of 1000 B: the table is 3 pages.
			if items != cfg.Keys || calls != 3 || largest < 900 || largest > 1100 {
				t.Errorf("%s %s: %d items in %d calls, the largest %d; want %d in 3 pages of about 1000",
					mode, o, items, calls, largest, cfg.Keys)
			}
		}
		r.Close()
	}

	w := newRawWorker(nil, "", "tbl", NewItemCodec(300, 10), "tbl-sorted", NewSortedCodec(300, 5000, 250), 0, scanPlace{segment: 2, segments: 7})
	for _, o := range []op{opQuery, opScan, opFScan} {
		b := w.body(o, 3, 0)
		var req map[string]json.RawMessage
		if err := json.Unmarshal(b.buf, &req); err != nil {
			t.Fatalf("%s body %q: %v", o, b.buf, err)
		}
		if _, ok := req["Limit"]; ok || req["TableName"] == nil {
			t.Errorf("%s body %s: want a table and no Limit", o, b.buf)
		}
		b.Close()
	}

	cfg := ceilingConfig(ModeRaw, WorkloadScan, WorkloadFScan)
	cfg.NoLimit, cfg.Duration, cfg.Ops = true, 0, 40
	rep := run(t, ctx, cfg)
	for _, res := range rep.Results {
		if res.Errors != 0 || res.Items != 1024*res.Ops {
			t.Errorf("ceiling %s: %d items in %d calls (%d errors), want 1024 a call", res.Workload, res.Items, res.Ops, res.Errors)
		}
	}
}
