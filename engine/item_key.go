package engine

import (
	"fmt"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
)

// Key size limits. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html
const (
	maxPartitionKeyBytes = 2048
	maxSortKeyBytes      = 1024
)

// itemKey is an item's primary key, located.
type itemKey struct {
	pk, sk attr.Value // sk.Type is TypeInvalid for tables without a sort key
	row    []byte     // the row key in storage
}

// keyMode is how strictly keyOf reads a key, and with which texts.
type keyMode uint8

const (
	// keyOfItem reads the key of an item PutItem or a transaction's Put
	// writes: each key attribute in turn present (msgMissingKeyInItem),
	// of its type (msgKeyTypeInItem) and a valid key value
	// (checkKeyValue).
	keyOfItem keyMode = iota
	// keyOfBatchPut reads the key of an item a BatchWriteItem put writes:
	// a missing or mistyped key attribute gets the key-lookup text
	// (errKeySchema) before any value is checked.
	keyOfBatchPut
	// keyOfKey reads a Key parameter (GetItem, DeleteItem, UpdateItem,
	// batch and transaction keys): exactly the key attributes, of their
	// types (errKeySchema), then valid values.
	keyOfKey
	// keyOfStartKey reads an ExclusiveStartKey: exactly the attributes of
	// the row key (the index's key, then the table's), of their types,
	// or the caller's error; the values are not checked.
	keyOfStartKey
	// keyOfEntry reads the key of an item's entry in a secondary index:
	// an item lacking a key attribute is not in the index (sparse); one
	// whose key attribute has the wrong type, is empty or is too large is
	// refused with the index's texts.
	keyOfEntry
	// keyOfEntryLenient is keyOfEntry where such an item is only left out
	// of the index (a backfill, an old item's entry).
	keyOfEntryLenient
)

// keyOf reads ix's key from it as mode says, appending to dst its HASH
// values and then its RANGE values (for keyOfStartKey, the values of the
// row key). ok is false, with no error, when the item is not in the index
// (keyOfEntry, keyOfEntryLenient). bad is keyOfStartKey's error.
func (ix *index) keyOf(it attr.Item, mode keyMode, bad error, dst []attr.Value) (vals []attr.Value, ok bool, err error) {
	switch mode {
	case keyOfStartKey:
		if len(it) != len(ix.rowKey) {
			return dst, false, bad
		}
		for _, a := range ix.rowKey {
			v, has := it[a.name]
			if !has || v.Type != a.typ {
				return dst, false, bad
			}
			dst = append(dst, v)
		}
		return dst, true, nil
	case keyOfKey:
		if len(it) != len(ix.hash)+len(ix.rng) {
			return dst, false, errKeySchema
		}
	}
	// keyOfBatchPut and keyOfKey check every attribute's shape before any
	// value; the others each attribute in turn.
	shapeFirst := mode == keyOfBatchPut || mode == keyOfKey
	start, in := len(dst), true
	for part, list := range [2][]keyAttr{ix.hash, ix.rng} {
		for _, a := range list {
			v, present := it[a.name]
			switch {
			case !present && mode == keyOfItem:
				return dst, false, dynamo.Validation(msgMissingKeyInItem(a.name))
			case v.Type != a.typ && mode == keyOfItem:
				return dst, false, dynamo.Validation(msgKeyTypeInItem(a.name, a.typ, v.Type))
			case (!present || v.Type != a.typ) && shapeFirst:
				return dst, false, errKeySchema
			case !present || (v.Type != a.typ && mode == keyOfEntryLenient):
				in = false
				continue
			case v.Type != a.typ:
				return dst, false, dynamo.Validation(msgIndexKeyType(a.name, a.typ, v.Type, ix.meta.Name))
			}
			if !shapeFirst {
				if err := ix.checkValue(a.name, v, part == 0, mode); err != nil {
					if mode == keyOfEntryLenient {
						in = false
						continue
					}
					return dst, false, err
				}
			}
			dst = append(dst, v)
		}
	}
	if !in {
		return dst, false, nil
	}
	if shapeFirst {
		i := start
		for part, list := range [2][]keyAttr{ix.hash, ix.rng} {
			for _, a := range list {
				if err := ix.checkValue(a.name, dst[i], part == 0, mode); err != nil {
					return dst, false, err
				}
				i++
			}
		}
	}
	return dst, true, nil
}

// checkValue applies the rules for key values to v, the value of key
// attribute name: the table's texts (checkKeyValue) when reading its key,
// an index's (msgIndexKeyEmpty, checkIndexKeySize) when reading an
// entry's.
func (ix *index) checkValue(name string, v attr.Value, partition bool, mode keyMode) error {
	if mode != keyOfEntry && mode != keyOfEntryLenient {
		return checkKeyValue(name, v, partition, msgEmptyKeyItem)
	}
	if kind, empty := emptyKind(v); empty {
		return dynamo.Validation(msgIndexKeyEmpty(kind, ix.meta.Name, name))
	}
	return checkIndexKeySize(ix.meta.Name, name, v, partition)
}

// primaryKey reads the table's key from it as mode says (keyOfItem,
// keyOfBatchPut or keyOfKey) and locates it.
func (t *table) primaryKey(it attr.Item, mode keyMode) (itemKey, error) {
	var buf [2]attr.Value
	vals, _, err := t.primary.keyOf(it, mode, nil, buf[:0])
	if err != nil {
		return itemKey{}, err
	}
	k := itemKey{pk: vals[0]}
	if len(vals) > 1 {
		k.sk = vals[1]
	}
	return k, t.locate(&k)
}

var errKeySchema = dynamo.Validation(msgKeySchema)

// checkKeyValue applies the rules for key attribute values: no empty
// strings or binaries, and the size limits. emptyPrefix begins the empty
// value texts (msgEmptyKeyItem: every operation words them alike now).
func checkKeyValue(name string, v attr.Value, partition bool, emptyPrefix string) error {
	var size int
	switch v.Type {
	case attr.TypeS:
		if v.S == "" {
			return dynamo.Validation(emptyPrefix + msgEmptyKeyValue("string", name))
		}
		size = len(v.S)
	case attr.TypeB:
		if len(v.B) == 0 {
			return dynamo.Validation(emptyPrefix + msgEmptyKeyValue("binary", name))
		}
		size = len(v.B)
	case attr.TypeN:
		return nil
	}
	if partition && size > maxPartitionKeyBytes {
		return dynamo.Validation(msgHashKeyTooLarge)
	}
	if !partition && size > maxSortKeyBytes {
		return dynamo.Validation(msgRangeKeyTooLarge)
	}
	return nil
}

// locate computes the row key.
func (t *table) locate(k *itemKey) error {
	vals := [2]attr.Value{k.pk, k.sk}
	pk, sk := vals[:1], vals[1:1]
	if t.rangeName != "" {
		sk = vals[1:2]
	}
	// Room for the prefix, the hash and both values with their encoding's
	// overhead, so that the key is built in one allocation.
	row, err := keys.AppendRowKey(make([]byte, 0, rowKeyRoom+keyValueBytes(k.pk)+keyValueBytes(k.sk)), t.meta.ID, 0, pk, sk)
	if err != nil {
		return fmt.Errorf("encode row key: %w", err)
	}
	k.row = row
	return nil
}

// rowKeyRoom is what a row key holds besides its values' bytes: the
// namespace, table and index ids and the hash (21 bytes), and room for
// each value's type and terminator.
const rowKeyRoom = 32

// keyValueBytes is the size of a key value's own bytes.
func keyValueBytes(v attr.Value) int { return len(v.S) + len(v.B) }

// keyItem returns the key as an item (for LastEvaluatedKey, batch results).
func (t *table) keyItem(k itemKey) attr.Item {
	it := attr.Item{t.hashName: k.pk}
	if t.rangeName != "" {
		it[t.rangeName] = k.sk
	}
	return it
}

// canonicalize validates every value of an item and normalises its numbers,
// turning attr's errors into ValidationExceptions.
func canonicalize(it attr.Item) error {
	return dynamo.AttrError(attr.CanonicalizeItem(it))
}

// canonicalizeValues validates attribute values in place.
func canonicalizeValues(vs []attr.Value) error {
	for i := range vs {
		if err := canonicalizeValue(&vs[i]); err != nil {
			return err
		}
	}
	return nil
}

// canonicalizeValue validates an optional attribute value in place.
func canonicalizeValue(v *attr.Value) error {
	if v == nil {
		return nil
	}
	return dynamo.AttrError(v.Canonicalize())
}
