package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/dynago/dynago/attr"
)

// A base-table row's value is
//
//	uvarint(item size in DynamoDB's accounting) | attr item encoding
//
// The size header lets writes bill and count an old item, and reads bill
// the item they return, without decoding it. Do not change this layout:
// it is written to disk.

// appendRow encodes an item and its size as a row value.
func appendRow(dst []byte, it attr.Item, size int) []byte {
	dst = binary.AppendUvarint(dst, uint64(size))
	return attr.AppendItem(dst, it)
}

// storedItem is a row as read from storage, decoded lazily.
type storedItem struct {
	// raw is the row value as read; a write on a shared store expects it.
	raw   []byte
	found bool
	size  int
	body  []byte // attr item encoding
	item  attr.Item
	err   error
	done  bool
}

var errBadRow = errors.New("row value has no size header")

// parseRow splits a row value into its size and item encoding.
func parseRow(raw []byte) (storedItem, error) {
	size, n := binary.Uvarint(raw)
	if n <= 0 {
		return storedItem{}, errBadRow
	}
	return storedItem{raw: raw, found: true, size: int(size), body: raw[n:]}, nil
}

// Item decodes the stored item once; nil when there was none.
func (s *storedItem) Item() (attr.Item, error) {
	if !s.found {
		return nil, nil
	}
	if !s.done {
		s.item, s.err = attr.DecodeItem(s.body)
		if s.err != nil {
			s.err = fmt.Errorf("decode item: %w", s.err)
		}
		s.done = true
	}
	return s.item, s.err
}

// forget drops the decoded item, which the caller takes for its own (to
// modify it): a later Item decodes the stored one again.
func (s *storedItem) forget() { s.item, s.err, s.done = nil, nil, false }

// rowBufs pools the buffers a single-item write reads its old row into
// and encodes its new row in: a batch copies what it is given (Set), and
// the old row is needed only until the write commits. Each is boxed in
// the *[]byte the pool holds, which goes back with it.
var rowBufs = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledRow is the largest buffer rowBufs keeps: an item of 400 KB
// would otherwise stay in the pool for every small write.
const maxPooledRow = 64 << 10

// getRowBuf returns a pooled buffer, empty; putRowBuf(box, b) gives it
// back, b being what the buffer became (it may have grown).
func getRowBuf() *[]byte { return rowBufs.Get().(*[]byte) }

func putRowBuf(box *[]byte, b []byte) {
	if cap(b) > maxPooledRow {
		b = nil
	}
	*box = b[:0]
	rowBufs.Put(box)
}
