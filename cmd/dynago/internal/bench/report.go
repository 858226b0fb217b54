package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// WriteHeader writes the lines describing the run's setting.
func (i Info) WriteHeader(w io.Writer) {
	endpoint := i.Endpoint
	if len(i.Endpoints) > 1 {
		endpoint = fmt.Sprintf("%s (client i calls endpoint i mod %d; tables set up through the first)",
			strings.Join(i.Endpoints, ","), len(i.Endpoints))
	}
	if i.Ceiling {
		endpoint = "ceiling (in-process canned server at " + i.Endpoint + ")"
	}
	limit := ""
	if i.Seconds > 0 {
		limit = fmt.Sprintf("  duration %v", time.Duration(i.Seconds*float64(time.Second)))
	}
	if i.Ops > 0 {
		limit += fmt.Sprintf("  ops %d", i.Ops)
	}
	var tables []string
	for _, w := range i.Workloads {
		if !isRead(w) {
			tables = append(tables, i.Table)
			break
		}
	}
	if i.SortedTable != "" {
		tables = append(tables, i.SortedTable)
	}
	table := "table " + strings.Join(tables, ", ")
	if len(tables) > 1 {
		table = "tables " + strings.Join(tables, ", ")
	}
	reads := ""
	if i.PageSize > 0 {
		reads = fmt.Sprintf("  partitions %d  page size %d", i.Partitions, i.PageSize)
	} else if i.NoLimit {
		reads = fmt.Sprintf("  partitions %d  pages of 1 MB (no Limit)", i.Partitions)
	}
	fmt.Fprintf(w, "dynago bench: endpoint %s  mode %s  %s\n", endpoint, i.Mode, table)
	fmt.Fprintf(w, "  clients %d  item size %d B  keys %d%s%s  GOMAXPROCS %d  NumCPU %d  %s\n",
		i.Clients, i.ItemSize, i.Keys, reads, limit, i.GOMAXPROCS, i.NumCPU, i.GoVersion)
}

// WriteLine writes the result's line, and for a mixed workload one more
// line per operation, with several endpoints one per endpoint, and one of
// CPU use if it was measured. Query, scan, fscan and batchwrite lines have
// an items/s column, and their CPU line the CPU time per item too.
func (r Result) WriteLine(w io.Writer) {
	suffix := ""
	if r.Interrupted {
		suffix = "  (interrupted)"
	}
	writeStats(w, r.Workload, r.Clients, r.Stats, countsItems(r.Workload), suffix)
	for _, o := range r.ByOp {
		writeStats(w, "  "+o.Op, r.Clients, o.Stats, false, "")
	}
	for _, e := range r.ByEndpoint {
		writeStats(w, "  at "+e.Endpoint, e.Clients, e.Stats, false, "")
	}
	if len(r.CPU) > 0 {
		fmt.Fprintf(w, "  cpu %s\n", formatCPU(r.CPU, r.LoadAvg))
	}
}

// formatCPU formats the CPU use of a workload: cores used and CPU time per
// call (and per item, if counted) of each group, then the machine's busy
// cores and load average.
func formatCPU(use []CPUUse, load float64) string {
	var parts []string
	for _, u := range use {
		if u.Group == "machine" {
			parts = append(parts, fmt.Sprintf("machine %.2f of %d cores busy", u.Cores, u.Of))
			continue
		}
		p := fmt.Sprintf("%s %.2f cores", u.Group, u.Cores)
		if u.MicrosPerOp > 0 {
			p += fmt.Sprintf(" %.0fus/op", u.MicrosPerOp)
		}
		if u.MicrosPerItem > 0 {
			p += fmt.Sprintf(" %.1fus/item", u.MicrosPerItem)
		}
		if len(u.Gone) > 0 {
			p += fmt.Sprintf(" (processes %v gone)", u.Gone)
		}
		parts = append(parts, p)
	}
	if load >= 0 {
		parts = append(parts, fmt.Sprintf("load %.2f", load))
	}
	return strings.Join(parts, "  ")
}

func writeStats(w io.Writer, name string, clients int, s Stats, items bool, suffix string) {
	rate := fmt.Sprintf("%8.0f ops/s", s.OpsPerSec)
	if items {
		rate += fmt.Sprintf("  %9.0f items/s", s.ItemsPerSec)
	}
	fmt.Fprintf(w, "%-6s %3d clients  %s  p50 %s  p90 %s  p99 %s  max %s  errors %d%s\n",
		name, clients, rate,
		fmtMs(s.Latency.P50), fmtMs(s.Latency.P90), fmtMs(s.Latency.P99), fmtMs(s.Latency.Max),
		s.Errors, suffix)
}

// fmtMs formats milliseconds with two or three significant digits.
func fmtMs(v float64) string {
	switch {
	case v < 1:
		return fmt.Sprintf("%.3fms", v)
	case v < 10:
		return fmt.Sprintf("%.2fms", v)
	case v < 100:
		return fmt.Sprintf("%.1fms", v)
	default:
		return fmt.Sprintf("%.0fms", v)
	}
}

// WriteText writes the header and one line per workload.
func (r *Report) WriteText(w io.Writer) {
	r.Info.WriteHeader(w)
	for _, res := range r.Results {
		res.WriteLine(w)
	}
	if r.Interrupted {
		fmt.Fprintln(w, "interrupted: results cover the time run so far")
	}
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
