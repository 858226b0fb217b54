package workbench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynago/dynago/dynagotest"
	"github.com/dynago/dynago/testserver"
)

// TestExportLoads: the Workbench model ToWorkbench writes for every
// example's model and fixture is one another reader of the format
// (dynagotest.CreateTables) creates on a server, with every sample item
// in the table, and in each index exactly the items that have its keys
// (an index without them is sparse).
func TestExportLoads(t *testing.T) {
	names, _ := filepath.Glob("../../examples/*/model.json")
	names = append(names, workbenchFixtures...)
	s := testserver.Start(t)
	ctx := context.Background()
	for _, name := range names {
		t.Run(strings.TrimLeft(name, "./"), func(t *testing.T) {
			ms, err := Open(read(t, name))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range ms {
				if _, err := s.Client.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(m.Table)}); err == nil {
					t.Logf("dropped %s of an earlier model", m.Table)
				}
			}
			doc, err := ToWorkbench(ms...)
			if err != nil {
				t.Fatal(err)
			}
			out, err := doc.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(t.TempDir(), "model.json")
			if err := os.WriteFile(file, out, 0o644); err != nil {
				t.Fatal(err)
			}
			dynagotest.CreateTables(t, s.Client, file)
			for _, m := range ms {
				items := append([]Item(nil), m.Items...)
				for _, e := range m.Entities {
					items = append(items, e.Items...)
				}
				count := func(index string) int {
					in := &dynamodb.ScanInput{TableName: aws.String(m.Table), Select: "COUNT", ConsistentRead: aws.Bool(index == "")}
					if index != "" {
						in.IndexName = aws.String(index)
					}
					n := 0
					for p := dynamodb.NewScanPaginator(s.Client, in); p.HasMorePages(); {
						out, err := p.NextPage(ctx)
						if err != nil {
							t.Fatalf("%s %s: %v", m.Table, index, err)
						}
						n += int(out.Count)
					}
					return n
				}
				if n := count(""); n != len(items) {
					t.Errorf("table %s holds %d items, want %d", m.Table, n, len(items))
				}
				for _, ix := range m.Indexes {
					if ix.Name == "" {
						continue
					}
					want := 0
					for _, it := range items {
						if it[ix.PartitionKey] != nil && (m.IndexSortKey(&ix) == "" || it[m.IndexSortKey(&ix)] != nil) {
							want++
						}
					}
					if n := count(ix.Name); n != want {
						t.Errorf("index %s of %s holds %d items, want %d", ix.Name, m.Table, n, want)
					}
				}
			}
		})
	}
}
