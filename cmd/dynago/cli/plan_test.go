package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const planTestModel = `{"table": "Comments", "sortKey": "GSISK", "tableKeys": ["PK", "SK"],
 "dimensions": [{"name": "product"}, {"name": "language"}, {"name": "rating", "values": ["1","2","3","4","5"]}],
 "indexes": [
  {"name": "all", "partitionKey": "GSI4PK", "format": "PRODUCT#{product}"},
  {"name": "byLang", "partitionKey": "GSI2PK", "format": "PRODUCT#{product}/{language}"},
  {"name": "byRating", "partitionKey": "GSI3PK", "format": "PRODUCT#{product}/{rating}"},
  {"name": "byLangAndRating", "partitionKey": "GSIPK", "format": "PRODUCT#{product}/{language}/{rating}"}]}`

func TestPlanVerb(t *testing.T) {
	path := filepath.Join(t.TempDir(), "model.json")
	if err := os.WriteFile(path, []byte(planTestModel), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Main([]string{"plan", "--model", path, "--where", "product=42", "--where", "rating=2,5", "--where", "language=en"}, nil, &out, &errb)
	if code != 0 || !strings.Contains(out.String(), `2 parallel Queries on index byLangAndRating where GSIPK in {"PRODUCT#42/en/2", "PRODUCT#42/en/5"}`) {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	code = Main([]string{"plan", "--model", path, "--where", "product=42", "--where", "rating=1,2,3,4,5"}, nil, &out, &errb)
	if code != 0 || !strings.Contains(out.String(), `Query index all where GSI4PK = "PRODUCT#42"`) {
		t.Fatalf("all ratings: exit %d\n%s%s", code, out.String(), errb.String())
	}
	errb.Reset()
	if code := Main([]string{"plan", "--model", path, "--where", "language=en"}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "would need a filter") {
		t.Fatalf("unplannable: exit %d %s", code, errb.String())
	}
}
