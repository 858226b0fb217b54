// Package examples holds the examples' data models (each example's
// model.json, in dynago's model format: package toolkit/workbench), for
// the console's workbench to offer.
package examples

import (
	"embed"
	"io/fs"
	"path"
)

//go:embed */model.json
var models embed.FS

// Models returns each example's model.json, by the example's name.
func Models() map[string][]byte {
	out := map[string][]byte{}
	names, _ := fs.Glob(models, "*/model.json")
	for _, n := range names {
		b, err := models.ReadFile(n)
		if err == nil {
			out[path.Dir(n)] = b
		}
	}
	return out
}
