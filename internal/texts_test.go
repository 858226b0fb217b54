package internal_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestMessagesWrittenOnce holds the project to its rule that every text a
// client can receive is written in one place, so that a rewording by
// DynamoDB is one edit: no string literal that reads like a message (a
// capital letter first, a space, 12 bytes or more) may appear twice in the
// program's sources. Texts shared by two layers live in the lowest layer
// that gives them (attr for attribute values, internal/expr for
// expression parameters) and are referred to from above. Tests,
// examples and scripts are not the program and are left out.
func TestMessagesWrittenOnce(t *testing.T) {
	// Stand-ins that answer like DynamoDB without being dynago: the load
	// generator's ceiling server measures the client alone.
	skip := map[string]bool{
		"cmd/dynago/internal/bench/ceiling.go": true,
	}
	fset := token.NewFileSet()
	places := map[string][]string{}
	checked := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, ".."+string(filepath.Separator)))
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "examples", "scripts", ".git", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || skip[rel] {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !readsLikeMessage(s) {
				return true
			}
			places[s] = append(places[s], rel+":"+strconv.Itoa(fset.Position(lit.Pos()).Line))
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 200 {
		t.Fatalf("checked %d Go files; the walk is not seeing the tree", checked)
	}
	texts := make([]string, 0, len(places))
	for s, at := range places {
		if len(at) > 1 {
			texts = append(texts, s)
		}
	}
	slices.Sort(texts)
	for _, s := range texts {
		t.Errorf("%q is written %d times: %s", s, len(places[s]), strings.Join(places[s], ", "))
	}
}

func readsLikeMessage(s string) bool {
	if len(s) < 12 || !strings.Contains(s, " ") {
		return false
	}
	r := []rune(s)[0]
	return unicode.IsUpper(r)
}
