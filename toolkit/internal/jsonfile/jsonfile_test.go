package jsonfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSaveReplacesAndLoadReadsBack(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cp.json")
	var got map[string]int
	if found, err := Load(path, &got); found || err != nil || got != nil {
		t.Fatalf("Load of a missing file: found %v, %v, %v", found, err, got)
	}
	for _, want := range []int{1, 22} {
		if err := Save(path, map[string]int{"n": want}); err != nil {
			t.Fatal(err)
		}
		if found, err := Load(path, &got); !found || err != nil || got["n"] != want {
			t.Fatalf("read back %v (found %v, %v); want n=%d", got, found, err, want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only the file", len(entries))
	}
	if err := Save(filepath.Join(dir, "missing", "cp.json"), 1); err == nil {
		t.Fatal("save into a missing directory succeeded")
	}
	os.WriteFile(path, []byte("{"), 0o644)
	if _, err := Load(path, &got); err == nil {
		t.Fatal("Load of a truncated file succeeded")
	}
}
