package keys

import (
	"encoding/binary"
	"fmt"

	"github.com/cespare/xxhash/v2"

	"github.com/dynago/dynago/attr"
)

// MetaPrefix returns the prefix shared by every catalog key: NSMeta alone.
func MetaPrefix() []byte { return []byte{NSMeta} }

// TablePrefix returns the prefix shared by every row of a table: its base
// rows and the rows of all its indexes.
func TablePrefix(tableID uint64) []byte {
	return appendTablePrefix(make([]byte, 0, tablePrefixLen), tableID)
}

func appendTablePrefix(dst []byte, tableID uint64) []byte {
	dst = append(dst, NSData)
	return binary.BigEndian.AppendUint64(dst, tableID)
}

// IndexPrefix returns the prefix shared by every row of one index of a
// table; indexID BaseIndexID (0) is the base table.
func IndexPrefix(tableID uint64, indexID uint32) []byte {
	return appendIndexPrefix(make([]byte, 0, indexPrefixLen), tableID, indexID)
}

func appendIndexPrefix(dst []byte, tableID uint64, indexID uint32) []byte {
	dst = appendTablePrefix(dst, tableID)
	return binary.BigEndian.AppendUint32(dst, indexID)
}

// VectorGraphPrefix returns the prefix of the records of a vector
// index's approximate index (its graphs; the engine lays out what
// follows): IndexPrefix | 0xFF × 8 | 0x00 0x00. It is inside the index's
// prefix, so whatever removes the index's rows removes them, but no row
// key of the index starts with it: after a hash, a row key holds a
// value encoding, and none starts with 0x00 0x00 (an S or B escapes its
// 0x00 bytes as 0x00 0xFF and ends with 0x00 0x01; an N starts with
// 0x01, 0x02 or 0x03). A read of the whole index that must see its rows
// alone skips [VectorGraphPrefix, PrefixEnd(VectorGraphPrefix)).
func VectorGraphPrefix(tableID uint64, indexID uint32) []byte {
	dst := appendIndexPrefix(make([]byte, 0, indexPrefixLen+10), tableID, indexID)
	return append(dst, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00)
}

// Hash returns the 64-bit hash of an encoded partition tuple (AppendTuple of
// the partition key values) that orders partitions inside an index. It is
// xxHash64 with seed 0. Do not change: written to disk.
func Hash(encodedPartition []byte) uint64 {
	return xxhash.Sum64(encodedPartition)
}

func checkTupleSizes(pk, sk int) error {
	if pk < 1 || pk > MaxKeyAttrs {
		return fmt.Errorf("%w: %d partition key values", ErrTupleSize, pk)
	}
	if sk < 0 || sk > MaxKeyAttrs {
		return fmt.Errorf("%w: %d sort key values", ErrTupleSize, sk)
	}
	return nil
}

// appendPartition appends NSData | tableID | indexID | hash | enc(pk).
func appendPartition(dst []byte, tableID uint64, indexID uint32, pk []attr.Value) ([]byte, error) {
	orig := dst
	dst = appendIndexPrefix(dst, tableID, indexID)
	hashAt := len(dst)
	dst = append(dst, 0, 0, 0, 0, 0, 0, 0, 0)
	dst, err := AppendTuple(dst, pk)
	if err != nil {
		return orig, err
	}
	binary.BigEndian.PutUint64(dst[hashAt:], Hash(dst[hashAt+8:]))
	return dst, nil
}

// PartitionPrefix returns the prefix shared by every row of one partition of
// an index: NSData | tableID | indexID | hash | enc(pk). Query reads the
// range [p, PrefixEnd(p)) or a part of it (see SortKeyRange).
func PartitionPrefix(tableID uint64, indexID uint32, pk []attr.Value) ([]byte, error) {
	if err := checkTupleSizes(len(pk), 0); err != nil {
		return nil, err
	}
	return appendPartition(make([]byte, 0, 64), tableID, indexID, pk)
}

// AppendRowKey appends the key of a base-table row (indexID BaseIndexID) or
// of an index row whose base key the caller appends itself:
// NSData | tableID | indexID | Hash(enc(pk)) | enc(pk) | enc(sk).
//
// pk must hold 1 to MaxKeyAttrs values and sk 0 to MaxKeyAttrs, each S, N or
// B. On error dst is returned unchanged.
func AppendRowKey(dst []byte, tableID uint64, indexID uint32, pk, sk []attr.Value) ([]byte, error) {
	if err := checkTupleSizes(len(pk), len(sk)); err != nil {
		return dst, err
	}
	orig := dst
	dst, err := appendPartition(dst, tableID, indexID, pk)
	if err != nil {
		return orig, err
	}
	if dst, err = AppendTuple(dst, sk); err != nil {
		return orig, err
	}
	return dst, nil
}

// AppendIndexRowKey appends the key of a secondary index row: the row key of
// (pk, sk) in index indexID followed by the base table's primary key,
// enc(basePK) | enc(baseSK), which keeps index rows unique and names the base
// row. basePK must hold one value and baseSK zero or one (the base table's
// key); pk and sk as for AppendRowKey.
func AppendIndexRowKey(dst []byte, tableID uint64, indexID uint32, pk, sk []attr.Value, basePK, baseSK []attr.Value) ([]byte, error) {
	if err := checkTupleSizes(len(basePK), len(baseSK)); err != nil {
		return dst, err
	}
	orig := dst
	dst, err := AppendRowKey(dst, tableID, indexID, pk, sk)
	if err != nil {
		return orig, err
	}
	if dst, err = AppendTuple(dst, basePK); err != nil {
		return orig, err
	}
	if dst, err = AppendTuple(dst, baseSK); err != nil {
		return orig, err
	}
	return dst, nil
}

// SplitRowKey splits a row key into its fixed header fields and the encoded
// tuples that follow the hash. It checks only the namespace byte and the
// length.
func SplitRowKey(key []byte) (tableID uint64, indexID uint32, hash uint64, tuples []byte, err error) {
	if len(key) < headerLen || key[0] != NSData {
		return 0, 0, 0, nil, corrupt("not a row key")
	}
	tableID = binary.BigEndian.Uint64(key[1:])
	indexID = binary.BigEndian.Uint32(key[9:])
	hash = binary.BigEndian.Uint64(key[13:])
	return tableID, indexID, hash, key[headerLen:], nil
}

// DecodeRowKey decodes the partition and sort tuples of a row key given
// the schema's types, and returns the bytes that follow them: empty for a
// base-table row, the encoded base key for an index row (see
// DecodeBaseKey). It verifies that the stored hash matches the partition
// tuple. sk is nil when skTypes is empty. Decoded values do not alias key.
func DecodeRowKey(key []byte, pkTypes, skTypes []attr.Type) (pk, sk []attr.Value, rest []byte, err error) {
	if err := checkTupleSizes(len(pkTypes), len(skTypes)); err != nil {
		return nil, nil, nil, err
	}
	_, _, hash, body, err := SplitRowKey(key)
	if err != nil {
		return nil, nil, nil, err
	}
	vals := make([]attr.Value, len(pkTypes)+len(skTypes))
	afterPK, err := decodeTupleInto(vals, body, pkTypes)
	if err != nil {
		return nil, nil, nil, err
	}
	if Hash(body[:len(body)-len(afterPK)]) != hash {
		return nil, nil, nil, corrupt("partition hash mismatch")
	}
	rest, err = decodeTupleInto(vals[len(pkTypes):], afterPK, skTypes)
	if err != nil {
		return nil, nil, nil, err
	}
	pk = vals[:len(pkTypes):len(pkTypes)]
	if len(skTypes) > 0 {
		sk = vals[len(pkTypes):]
	}
	return pk, sk, rest, nil
}

// DecodeBaseKey decodes the base-table key that DecodeRowKey returns as rest
// for an index row. rest must hold exactly that key.
func DecodeBaseKey(rest []byte, pkTypes, skTypes []attr.Type) (pk, sk []attr.Value, err error) {
	if err := checkTupleSizes(len(pkTypes), len(skTypes)); err != nil {
		return nil, nil, err
	}
	vals := make([]attr.Value, len(pkTypes)+len(skTypes))
	after, err := decodeTupleInto(vals, rest, pkTypes)
	if err != nil {
		return nil, nil, err
	}
	after, err = decodeTupleInto(vals[len(pkTypes):], after, skTypes)
	if err != nil {
		return nil, nil, err
	}
	if len(after) != 0 {
		return nil, nil, corrupt("%d bytes after base key", len(after))
	}
	pk = vals[:len(pkTypes):len(pkTypes)]
	if len(skTypes) > 0 {
		sk = vals[len(pkTypes):]
	}
	return pk, sk, nil
}

// PrefixEnd returns the smallest key greater than every key that starts
// with prefix, for use as an exclusive upper bound. It returns nil, meaning
// no upper bound, if prefix is empty or all 0xFF bytes. prefix is not
// modified.
func PrefixEnd(prefix []byte) []byte {
	for i := len(prefix) - 1; i >= 0; i-- {
		if prefix[i] != 0xFF {
			end := make([]byte, i+1)
			copy(end, prefix)
			end[i]++
			return end
		}
	}
	return nil
}

// Successor returns the smallest key strictly greater than key: key
// followed by 0x00. Resuming a Scan or Query after a row key k starts at
// Successor(k). key is not modified.
func Successor(key []byte) []byte {
	s := make([]byte, len(key)+1)
	copy(s, key)
	return s
}
