package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"testing"

	"github.com/dynago/dynago/internal/keys"
)

// metaTags lists every tag above by name, for the test that keeps them
// apart.
var metaTags = map[string]byte{
	"table": metaTagTable, "seq": metaTagSeq, "stats": metaTagStats,
	"indexStats": metaTagIndexStats, "backfill": metaTagBackfill,
	"stream": metaTagStream, "shard": metaTagShard, "streamSeq": metaTagStreamSeq,
	"reserved": metaTagReserved, "trimmed": metaTagTrimmed,
	"token": metaTagToken, "tokenExpiry": metaTagTokenExpiry,
	"node": metaTagNode, "lease": metaTagLease, "fence": metaTagFence, "streamPos": metaTagStreamPos,
	"backup": metaTagBackup, "restore": metaTagRestore, "export": metaTagExport, "import": metaTagImport,
	"account": metaTagAccount,
}

// namespaces are the first bytes of every key, for the same test.
var namespaces = map[string]byte{"meta": keys.NSMeta, "data": keys.NSData, "stream": keys.NSStream}

// TestMetaTagsUnique: no two kinds of row share a tag or a namespace, and
// metaTags lists every metaTag constant of the package, so a new one
// cannot be left out of the check.
func TestMetaTagsUnique(t *testing.T) {
	for what, set := range map[string]map[string]byte{"tag": metaTags, "namespace": namespaces} {
		seen := map[byte]string{}
		for name, b := range set {
			if other, dup := seen[b]; dup {
				t.Errorf("%s %q is used by both %s and %s", what, b, other, name)
			}
			seen[b] = name
		}
	}
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := 0
	for _, f := range pkgs["engine"].Files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				for _, n := range spec.(*ast.ValueSpec).Names {
					if strings.HasPrefix(n.Name, "metaTag") {
						declared++
						if pos := fset.Position(n.Pos()); !strings.HasSuffix(pos.Filename, "keytags.go") {
							t.Errorf("%s is declared in %s: every on-disk tag belongs in keytags.go", n.Name, pos.Filename)
						}
					}
				}
			}
		}
	}
	if declared != len(metaTags) {
		t.Errorf("%d metaTag constants are declared, metaTags lists %d", declared, len(metaTags))
	}
}
