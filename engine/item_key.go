package engine

import (
	"errors"
	"fmt"

	"github.com/dynago/dynago/attr"
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

// keyFromItem extracts the primary key of an item being written (PutItem,
// a batch put), with PutItem's messages.
func (t *table) keyFromItem(it attr.Item) (itemKey, error) {
	var k itemKey
	var err error
	if k.pk, err = t.keyPart(it, t.hashName, t.hashType, true); err != nil {
		return k, err
	}
	if t.rangeName != "" {
		if k.sk, err = t.keyPart(it, t.rangeName, t.rangeType, false); err != nil {
			return k, err
		}
	}
	return k, t.locate(&k)
}

func (t *table) keyPart(it attr.Item, name string, typ attr.Type, partition bool) (attr.Value, error) {
	v, ok := it[name]
	if !ok {
		return v, Validation(msgMissingKeyInItem(name))
	}
	if v.Type != typ {
		return v, Validation(msgKeyTypeInItem(name, typ, v.Type))
	}
	return v, checkKeyValue(name, v, partition, msgEmptyKeyItem)
}

// keyFromBatchPut extracts the key of a BatchWriteItem put. Unlike
// PutItem, a missing or mistyped key attribute there gets the key-lookup
// message, "The provided key element does not match the schema".
func (t *table) keyFromBatchPut(it attr.Item) (itemKey, error) {
	var k itemKey
	pk, ok := it[t.hashName]
	if !ok || pk.Type != t.hashType {
		return k, errKeySchema
	}
	k.pk = pk
	if t.rangeName != "" {
		sk, ok := it[t.rangeName]
		if !ok || sk.Type != t.rangeType {
			return k, errKeySchema
		}
		k.sk = sk
	}
	if err := checkKeyValue(t.hashName, k.pk, true, msgEmptyKeyItem); err != nil {
		return k, err
	}
	if t.rangeName != "" {
		if err := checkKeyValue(t.rangeName, k.sk, false, msgEmptyKeyItem); err != nil {
			return k, err
		}
	}
	return k, t.locate(&k)
}

// keyFromKey validates a Key parameter (GetItem, DeleteItem, a batch get or
// delete): exactly the table's key attributes, of the right types.
func (t *table) keyFromKey(key attr.Item) (itemKey, error) {
	var k itemKey
	want := 1
	if t.rangeName != "" {
		want = 2
	}
	pk, ok := key[t.hashName]
	if !ok || len(key) != want || pk.Type != t.hashType {
		return k, errKeySchema
	}
	k.pk = pk
	if t.rangeName != "" {
		sk, ok := key[t.rangeName]
		if !ok || sk.Type != t.rangeType {
			return k, errKeySchema
		}
		k.sk = sk
	}
	if err := checkKeyValue(t.hashName, k.pk, true, msgEmptyKeyItem); err != nil {
		return k, err
	}
	if t.rangeName != "" {
		if err := checkKeyValue(t.rangeName, k.sk, false, msgEmptyKeyItem); err != nil {
			return k, err
		}
	}
	return k, t.locate(&k)
}

var errKeySchema = Validation(msgKeySchema)

// checkKeyValue applies the rules for key attribute values: no empty
// strings or binaries, and the size limits. emptyPrefix begins the empty
// value texts (msgEmptyKeyItem: every operation words them alike now).
func checkKeyValue(name string, v attr.Value, partition bool, emptyPrefix string) error {
	var size int
	switch v.Type {
	case attr.TypeS:
		if v.S == "" {
			return Validation(emptyPrefix + msgEmptyKeyValue("string", name))
		}
		size = len(v.S)
	case attr.TypeB:
		if len(v.B) == 0 {
			return Validation(emptyPrefix + msgEmptyKeyValue("binary", name))
		}
		size = len(v.B)
	case attr.TypeN:
		return nil
	}
	if partition && size > maxPartitionKeyBytes {
		return Validation(msgHashKeyTooLarge)
	}
	if !partition && size > maxSortKeyBytes {
		return Validation(msgRangeKeyTooLarge)
	}
	return nil
}

// locate computes the row key.
func (t *table) locate(k *itemKey) error {
	var sk []attr.Value
	if t.rangeName != "" {
		sk = []attr.Value{k.sk}
	}
	row, err := keys.AppendRowKey(nil, t.meta.ID, 0, []attr.Value{k.pk}, sk)
	if err != nil {
		return fmt.Errorf("encode row key: %w", err)
	}
	k.row = row
	return nil
}

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
	return attrError(attr.CanonicalizeItem(it))
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
	return attrError(v.Canonicalize())
}

// attrError turns attr's validation errors into ValidationExceptions.
func attrError(err error) error {
	var ae *attr.Error
	if errors.As(err, &ae) {
		return &Error{Code: CodeValidation, Message: ae.Message, current: ae.Current}
	}
	return err
}
