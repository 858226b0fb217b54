package internal_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/dynago/dynago/"

// TestInternalImportsNothingAbove keeps the tree's layers readable from
// its folders: what is under internal/ is what the engine stands on, so it
// may import other internal/ packages and attr, and nothing else of
// dynago's (not the engine, the server, local, the commands or the test
// helpers). Test files are held to the same rule.
func TestInternalImportsNothingAbove(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		if strings.Contains(path, "testdata") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			rest, ours := strings.CutPrefix(p, module)
			if !ours {
				continue
			}
			if !strings.HasPrefix(rest, "internal/") && rest != "attr" {
				t.Errorf("internal/%s imports %s, a layer above internal/", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked %d Go files under internal/; the walk is not seeing the tree", checked)
	}
}
