package pebblestore

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// Owner-only permissions for everything in a data directory: the data is
// the user's, and other local users have no business reading it.
const (
	dirPerm  = 0o700
	filePerm = 0o600
)

// dataFS is the file system Pebble runs on for a data directory. It wraps
// the operating system's with two rules:
//
//   - Every file and directory it creates is owner-only (filePerm,
//     dirPerm), whatever the process's umask.
//   - Unless syncWAL is set, a write-ahead-log file's Sync and SyncData
//     return at once. Every commit asks Pebble for a synced write (see
//     Open), and Pebble's log writer always hands a commit's bytes to the
//     operating system with write(2) before it syncs and before it wakes the
//     committer, so an acknowledged write is in the kernel's page cache and
//     survives the death of the process; only the fsync, which protects
//     against the loss of the machine, is skipped. Concurrent commits share
//     one write(2), as they would share one fsync (group commit).
//     Closing a log file (at log rotation and at shutdown) still syncs it
//     for real.
//
// Everything else (tables, the manifest, the directory) is synced as Pebble
// asks, so the store stays consistent on power loss in either mode; only
// the tail of the current log is at risk there without syncWAL.
type dataFS struct {
	vfs.FS
	syncWAL bool
}

var _ vfs.FS = (*dataFS)(nil)

// isWAL reports whether name is one of Pebble's write-ahead-log files.
func isWAL(name string) bool { return strings.HasSuffix(name, ".log") }

func (d *dataFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := d.FS.Create(name, category)
	if err != nil {
		return nil, err
	}
	return d.wrap(name, f, true)
}

func (d *dataFS) OpenReadWrite(name string, category vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := d.FS.OpenReadWrite(name, category, opts...)
	if err != nil {
		return nil, err
	}
	return d.wrap(name, f, true)
}

func (d *dataFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := d.FS.ReuseForWrite(oldname, newname, category)
	if err != nil {
		return nil, err
	}
	return d.wrap(newname, f, false)
}

func (d *dataFS) MkdirAll(dir string, _ os.FileMode) error {
	return d.FS.MkdirAll(dir, dirPerm)
}

func (d *dataFS) Lock(name string) (io.Closer, error) {
	c, err := d.FS.Lock(name)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(name, filePerm); err != nil {
		c.Close()
		return nil, fmt.Errorf("restrict %s: %w", name, err)
	}
	return c, nil
}

// wrap restricts a file just created to its owner and, for a log file
// without syncWAL, turns its syncs into no-ops.
func (d *dataFS) wrap(name string, f vfs.File, restrict bool) (vfs.File, error) {
	if restrict {
		if err := os.Chmod(name, filePerm); err != nil {
			f.Close()
			return nil, fmt.Errorf("restrict %s: %w", name, err)
		}
	}
	if d.syncWAL || !isWAL(name) {
		return f, nil
	}
	return &unsyncedLog{File: f}, nil
}

// unsyncedLog is a write-ahead-log file whose Sync and SyncData return at
// once: see dataFS. Close syncs it for real.
type unsyncedLog struct{ vfs.File }

func (u *unsyncedLog) Sync() error     { return nil }
func (u *unsyncedLog) SyncData() error { return nil }

func (u *unsyncedLog) Close() error {
	err := u.File.SyncData()
	if cerr := u.File.Close(); err == nil {
		err = cerr
	}
	return err
}

// restrictTree makes dir and everything below it owner-only, for data
// directories written by versions that created them readable by all.
func restrictTree(dir string) error {
	return filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		perm := os.FileMode(filePerm)
		if e.IsDir() {
			perm = dirPerm
		} else if !e.Type().IsRegular() {
			return nil
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		if info.Mode().Perm()&^perm == 0 {
			return nil
		}
		return os.Chmod(path, info.Mode().Perm()&perm)
	})
}
