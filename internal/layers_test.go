package internal_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/dynago/dynago/"

// layerRule says what the Go files of the packages under one folder may
// never import. Paths are relative to the module; a rule on "engine"
// covers engine and every package below it.
type layerRule struct {
	dir string
	// never lists import paths (ours relative to the module, or the
	// standard library's) the folder's files must not import, each
	// covering the packages below it too.
	never []string
	// onlyOurs, when set, is the whole list of our folders the files may
	// import (besides the folder itself): everything else of ours is
	// refused.
	onlyOurs []string
	// tests holds test files to the rule as well.
	tests bool
	why   string
}

// layers is the tree's import rules, one line a folder. Data flows one
// way: the server and the in-process clients call the engine, the engine
// calls storage, and storage knows bytes.
var layers = []layerRule{
	{dir: "attr", onlyOurs: []string{}, tests: true,
		why: "attribute values stand at the bottom"},
	{dir: "dynamo", onlyOurs: []string{"attr"}, tests: true,
		why: "DynamoDB's shapes and errors stand under every layer that speaks them, on attribute values alone"},
	{dir: "internal", onlyOurs: []string{"internal", "attr"}, tests: true,
		why: "what the engine stands on imports nothing above it"},
	{dir: "internal/vector", onlyOurs: []string{}, tests: true,
		why: "the nearest-neighbour index knows vectors and records, nothing of the engine or storage"},
	{dir: "internal/storage", onlyOurs: []string{"internal/storage"}, tests: false,
		why: "storage knows bytes: not attribute values, keys or tables"},
	{dir: "internal/storage/pebblestore", never: []string{"internal/storage/pgstore"},
		why: "a backend stands on the storage contract alone, never on another backend"},
	{dir: "internal/storage/pgstore", never: []string{"internal/storage/pebblestore"},
		why: "a backend stands on the storage contract alone, never on another backend (its tests compare it with Pebble)"},
	{dir: "engine", never: []string{"server", "local", "cmd", "toolkit", "testserver", "dynagotest", "e2e", "examples", "internal/storage/pgstore", "net/http", "partiql"},
		why: "the engine knows items and tables, not HTTP, the clients or the statement language on top of it, and storage only through its interface (pebblestore only to open the default store; a PostgreSQL store is handed to it)"},
	{dir: "partiql", never: []string{"server", "local", "cmd", "toolkit", "testserver", "dynagotest", "e2e", "examples", "internal/storage", "net/http"},
		why: "PartiQL runs statements through the engine's operations, below the server and the clients that call it"},
	{dir: "exports", never: []string{"server", "local", "cmd", "toolkit", "testserver", "dynagotest", "e2e", "examples", "partiql", "internal/storage"},
		why: "where exports go and imports come from: the engine's Exchange over buckets, below the server that is given it"},
	{dir: "server/internal/protocol", never: []string{"engine", "partiql", "internal/storage", "server/sigv4", "local", "cmd"},
		why: "the codec knows JSON and DynamoDB's shapes (dynamo), not the engine, storage or how requests are signed"},
	{dir: "server/sigv4", never: []string{"engine", "partiql", "internal/storage", "local", "cmd"},
		why: "the signature checker knows requests and credentials, and answers in DynamoDB's errors (dynamo)"},
	{dir: "server/console", never: []string{"engine", "internal/storage", "local"},
		why: "the console is one more API client"},
	{dir: "server", never: []string{"local", "cmd", "testserver", "dynagotest", "internal/storage"},
		why: "the server reaches the engine, never storage directly"},
	{dir: "local", never: []string{"cmd", "testserver", "internal/storage"},
		why: "the in-process clients call the engine"},
	{dir: "faults", onlyOurs: []string{}, tests: true,
		why: "a fault plan and its decisions know nothing of HTTP or DynamoDB: the server and local answer them"},
	{dir: "toolkit", onlyOurs: []string{"toolkit"},
		why: "the toolkit works against any DynamoDB endpoint through the SDK's client"},
	{dir: "examples", never: []string{"engine", "internal", "server", "local", "cmd"},
		why: "the examples use the public toolkit against an endpoint"},
	{dir: "cmd", never: []string{"testserver", "dynagotest", "internal/pgtest"},
		why: "test helpers stay out of the binary"},
}

// under reports whether path (relative to the module) is dir or below it.
func under(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }

// TestLayers holds every Go file in the tree to the rules of the folders
// it is under (layers).
func TestLayers(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		test := strings.HasSuffix(path, "_test.go")
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			rest, ours := strings.CutPrefix(p, module)
			for _, r := range layers {
				if !under(rel, r.dir) || (test && !r.tests) {
					continue
				}
				if ours && under(rest, r.dir) {
					continue
				}
				bad := false
				for _, n := range r.never {
					bad = bad || (ours && under(rest, n)) || (!ours && under(p, n))
				}
				if r.onlyOurs != nil && ours {
					allowed := false
					for _, o := range r.onlyOurs {
						allowed = allowed || under(rest, o)
					}
					bad = bad || !allowed
				}
				if bad {
					t.Errorf("%s imports %s: %s may not (%s)", rel, p, r.dir, r.why)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 300 {
		t.Fatalf("checked %d Go files; the walk is not seeing the tree", checked)
	}
}

// TestCodecLinksNoStore holds the wire codec to what it is: JSON and
// DynamoDB's shapes. Nothing it links, however indirectly, may be a
// storage engine or the engine itself, so a program that only speaks the
// protocol does not carry a database.
func TestCodecLinksNoStore(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out, err := exec.Command(goBin, "list", "-deps", "../server/internal/protocol").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list named no packages")
	}
	for _, d := range deps {
		for _, refused := range []string{"github.com/cockroachdb/pebble", "github.com/jackc/pgx", module + "engine", module + "internal/storage", module + "partiql"} {
			if d == refused || strings.HasPrefix(d, refused+"/") {
				t.Errorf("the codec links %s", d)
			}
		}
	}
}
