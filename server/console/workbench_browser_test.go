package console_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dynago/dynago/server/console"
)

// rows returns, for each partition of the view sel, its key and its
// rows' sort keys and entity classes: "PK: sk1 (entity class), ...".
func (p *page) partitions(sel string) []string {
	p.t.Helper()
	return eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll(%q)].map((part) =>
		part.dataset.pk + ": " + [...part.querySelectorAll("tr.wb-item")].map((r) =>
			(r.querySelector(".wb-sk")?.innerText || "") + " (" + r.dataset.entity + " " + [...r.classList].filter((c) => c.startsWith("ent-")).join(" ") + ")").join(", "))`, sel))
}

func (p *page) click(what, sel string) {
	p.t.Helper()
	p.do(what, chromedp.Click(sel))
}

// TestBrowserWorkbench opens the examples' clinic model (dynago's format)
// and a NoSQL Workbench model, creates their tables with the sample
// items, and checks the aggregate view (partitions in key order, items
// in sort key order: strings by bytes, numbers by value), each index's
// facet (re-keyed, projected, sparse indexes' absent items listed) and
// the entity colours.
func TestBrowserWorkbench(t *testing.T) {
	site := newSite(t, console.Options{})
	p := startBrowser(t, site.URL)
	p.go_("#workbench")
	p.waitJS("the examples", `!!document.querySelector("#wb-example option[value=overloading]")`)
	p.choose("#wb-example", "overloading")
	p.waitText("#wb-out", "Table Clinic does not exist on this server.")
	p.click("load the clinic", ".wb-table[data-table=Clinic] .wb-load")
	p.waitText("#wb-out", "8 items in table Clinic.")

	check := func(what, sel string, want []string) {
		t.Helper()
		if got := p.partitions(sel); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", what, got, want)
		}
	}
	check("the aggregate view", "#wb-aggregate .wb-partition", []string{
		"OWNER#ana: OWNER#ana (owner ent-c0), PET#mia (pet ent-c1), PET#rex (pet ent-c1), VISIT#2023-12-30#mia (visit ent-c2), VISIT#2024-03-02#rex (visit ent-c2)",
		"OWNER#bo: OWNER#bo (owner ent-c0), PET#ace (pet ent-c1), VISIT#2024-01-05#ace (visit ent-c2)",
	})
	// GSI1 is overloaded (species and vets) and sparse: owners have no
	// GSI1PK.
	check("GSI1", ".wb-facet[data-index=GSI1] .wb-partition", []string{
		"SPECIES#cat: PET#mia (pet ent-c1)",
		"SPECIES#dog: PET#ace (pet ent-c1), PET#rex (pet ent-c1)",
		"VET#kim: VISIT#2024-01-05 (visit ent-c2), VISIT#2024-03-02 (visit ent-c2)",
		"VET#lee: VISIT#2023-12-30 (visit ent-c2)",
	})
	if got := p.text(".wb-facet[data-index=GSI1] .wb-absent"); !strings.Contains(got, "Not in this index: 2 items (no GSI1PK or GSI1SK).") ||
		!strings.Contains(got, "OWNER#ana / OWNER#ana") || !strings.Contains(got, "OWNER#bo / OWNER#bo") {
		t.Errorf("GSI1's absent items:\n%s", got)
	}
	if n := eval[int](p, `document.querySelectorAll(".wb-facet[data-index=GSI1] .wb-absent-item.ent-c0[data-entity=owner]").length`); n != 2 {
		t.Errorf("%d absent owners coloured as owners, want 2", n)
	}
	// A number sort key orders by value: 9 before 31.5.
	check("bySpecies", ".wb-facet[data-index=bySpecies] .wb-partition", []string{
		"cat: 4.2 (pet ent-c1)",
		"dog: 9 (pet ent-c1), 31.5 (pet ent-c1)",
	})
	if head := p.text(".wb-facet[data-index=bySpecies] thead"); !strings.Contains(head, "name") || strings.Contains(head, "GSI1PK") {
		t.Errorf("bySpecies projects INCLUDE name, its columns are: %q", head)
	}
	check("the local index", ".wb-facet[data-index=byVisitDate] .wb-partition", []string{
		"OWNER#ana: 2023-12-30 (visit ent-c2), 2024-03-02 (visit ent-c2)",
		"OWNER#bo: 2024-01-05 (visit ent-c2)",
	})
	if head := p.text(".wb-facet[data-index=byVisitDate] thead"); strings.Contains(head, "notes") {
		t.Errorf("byVisitDate is KEYS_ONLY, its columns are: %q", head)
	}
	p.waitText(".wb-facet[data-index=byVisitDate] .wb-absent", "Not in this index: 5 items (no visitDate).")
	if got := p.text(".wb-legend"); got != "owner\npet\nvisit" {
		t.Errorf("legend %q", got)
	}
	p.screenshot("workbench")

	// A NoSQL Workbench model, pasted: its facets are the entity types.
	wb, err := os.ReadFile("../../toolkit/workbench/testdata/bakery.workbench.json")
	if err != nil {
		t.Fatal(err)
	}
	paste := func(model string) {
		t.Helper()
		eval[bool](p, fmt.Sprintf(`(() => { document.querySelector("#wb-model").value = %s; return true; })()`, mustJSON(t, model)))
		p.click("open", "#wb-open")
	}
	paste(string(wb))
	p.waitText("#wb-format", "Opened a NoSQL Workbench model: 1 table.")
	p.click("load the bakery", ".wb-table[data-table=Bakery] .wb-load")
	p.waitText("#wb-out", "4 items in table Bakery.")
	check("the bakery", "#wb-aggregate .wb-partition", []string{
		"c#1: c#1 (customer ent-c0), o#7 (order ent-c1)",
		"c#2: c#2 (customer ent-c0), o#8 (order ent-c1)",
	})
	check("byDay", ".wb-facet[data-index=byDay] .wb-partition", []string{"2026-12-01: 3 (order ent-c1), 12.5 (order ent-c1)"})
	if got := p.text("#wb-export"); !strings.Contains(got, "As dynago's model") {
		t.Errorf("export: %q", got)
	}

	// Without entity types, rows are coloured by their sort key's prefix.
	paste(`{"table": "Prefixed", "tableKeys": ["pk", "sk"], "items": [
		{"pk": {"S": "u1"}, "sk": {"S": "ORDER#2"}}, {"pk": {"S": "u1"}, "sk": {"S": "ADDR#1"}}, {"pk": {"S": "u1"}, "sk": {"S": "ORDER#1"}}]}`)
	p.click("load", ".wb-table[data-table=Prefixed] .wb-load")
	p.waitText("#wb-out", "3 items in table Prefixed.")
	check("prefixes", "#wb-aggregate .wb-partition", []string{"u1: ADDR#1 (ADDR ent-c0), ORDER#1 (ORDER ent-c1), ORDER#2 (ORDER ent-c1)"})

	// A model the decoder refuses is shown with its words.
	paste(`{"table": "T", "tableKeys": ["id"], "colour": 1}`)
	p.waitText("#wb-out .error", `unknown member "colour"`)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
