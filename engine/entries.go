package engine

import (
	"encoding/json"
	"fmt"

	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// The entries of the background jobs (backups, restores, exports,
// imports): one JSON document per catalog row, kept with the bytes it was
// read as, which a rewrite on a shared store expects.

// entry is a job's entry: a pointer to its JSON document that holds the
// bytes the document was read or written as.
type entry[T any] interface {
	*T
	rawBytes() *[]byte
}

func (m *backupMeta) rawBytes() *[]byte { return &m.raw }
func (m *restoreJob) rawBytes() *[]byte { return &m.raw }
func (m *exportMeta) rawBytes() *[]byte { return &m.raw }
func (m *importMeta) rawBytes() *[]byte { return &m.raw }

// putEntry stages v at key in b: a new entry (exists false) must still be
// absent when b commits, an old one still as it was read.
func putEntry[T any, P entry[T]](b storage.Batch, key []byte, v P, exists bool) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b.Expect(key, *v.rawBytes(), exists)
	*v.rawBytes() = raw
	return b.Set(key, raw)
}

// decodeEntry decodes an entry's bytes, which it keeps; what names its
// kind in errors.
func decodeEntry[T any, P entry[T]](raw []byte, what string) (P, error) {
	v := P(new(T))
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, fmt.Errorf("%s entry: %w", what, err)
	}
	*v.rawBytes() = raw
	return v, nil
}

// readEntry reads the entry at key, nil when there is none.
func readEntry[T any, P entry[T]](db *DB, key []byte, what string) (P, error) {
	raw, found, err := db.store.Get(key, nil)
	if err != nil || !found {
		return nil, err
	}
	return decodeEntry[T, P](raw, what)
}

// allEntries reads every entry of the catalog tag tag.
func allEntries[T any, P entry[T]](db *DB, tag byte, what string) ([]P, error) {
	lower := []byte{keys.NSMeta, tag}
	it, err := db.store.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return nil, err
	}
	var out []P
	for ok := it.First(); ok; ok = it.Next() {
		v, err := decodeEntry[T, P](append([]byte(nil), it.Value()...), what)
		if err != nil {
			it.Close()
			return nil, err
		}
		out = append(out, v)
	}
	return out, it.Close()
}
