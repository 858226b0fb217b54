// Package atomicfile writes a file so that a reader, or a process that
// starts after a crash, sees either its old contents or the new ones,
// never a mix: the toolkit's checkpoints are written this way.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces the file at path with data: it writes a temporary file
// in the same directory, syncs it and renames it over path.
func Write(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
