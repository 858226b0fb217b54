package exchange

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Bucket holds objects by key, as an S3 bucket does. Keys are
// slash-separated relative paths.
type Bucket interface {
	// Put stores the object key with r's bytes, replacing any.
	Put(ctx context.Context, key string, r io.Reader) error
	// Get opens the object key; ErrNotFound when there is none.
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	// List returns the keys starting with prefix, in byte order.
	List(ctx context.Context, prefix string) ([]string, error)
}

// ErrNotFound is Get's error for a missing object.
var ErrNotFound = errors.New("no such object")

// FolderBucket is a folder standing for a bucket: the bucket's objects
// are the files under root/name, keys their paths below it.
type FolderBucket struct {
	dir string
}

// NewFolderBucket returns the bucket name under root (name may be "" for
// root itself), creating its folder.
func NewFolderBucket(root, name string) (*FolderBucket, error) {
	if name != "" {
		if err := checkKey(name); err != nil || strings.Contains(name, "/") {
			return nil, fmt.Errorf("bucket name %q: want one folder name", name)
		}
	}
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &FolderBucket{dir: dir}, nil
}

// Dir is the bucket's folder.
func (b *FolderBucket) Dir() string { return b.dir }

// checkKey refuses keys that would leave the folder or name it oddly:
// absolute, empty, or with an empty, "." or ".." segment or a backslash.
func checkKey(key string) error {
	if key == "" || strings.HasPrefix(key, "/") || strings.Contains(key, "\\") || strings.ContainsRune(key, 0) {
		return fmt.Errorf("bad object key %q", key)
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("bad object key %q", key)
		}
	}
	return nil
}

func (b *FolderBucket) path(key string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	return filepath.Join(b.dir, filepath.FromSlash(key)), nil
}

// Put writes the object to a temporary file renamed into place, so a
// reader never sees half of it.
func (b *FolderBucket) Put(ctx context.Context, key string, r io.Reader) error {
	p, err := b.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".put-*")
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// Get opens the object's file.
func (b *FolderBucket) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	p, err := b.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", key, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: %w", key, ErrNotFound)
	}
	return f, nil
}

// List walks the folder for files whose key starts with prefix (temporary
// files of unfinished Puts left out).
func (b *FolderBucket) List(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	err := filepath.WalkDir(b.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		rel, rerr := filepath.Rel(b.dir, p)
		if rerr != nil || rel == "." {
			return nil
		}
		key := filepath.ToSlash(rel)
		if d.IsDir() {
			// Skip folders that cannot hold a key with the prefix.
			if !strings.HasPrefix(key+"/", prefix) && !strings.HasPrefix(prefix, key+"/") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".put-") || !strings.HasPrefix(key, prefix) || !d.Type().IsRegular() {
			return nil
		}
		keys = append(keys, key)
		return ctx.Err()
	})
	slices.Sort(keys)
	return keys, err
}
