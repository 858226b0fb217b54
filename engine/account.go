package engine

import (
	"github.com/dynago/dynago/internal/keys"
)

// The account in a database's ARNs is stored with its data, under
//
//	NSMeta 'a' -> the account id
//
// so that the ARNs a database has handed out (a table's, its stream's,
// kept in the stream's definition, a KMS key's, kept in the table's) stay
// its ARNs whatever dynago's default account becomes.

func metaAccountKey() []byte { return []byte{keys.NSMeta, metaTagAccount} }

// resolveAccount settles db.opts.AccountID before anything reads it. An
// account chosen by the caller (not DefaultAccountID) is used and stored.
// Otherwise the stored account is used; a database with none stored is
// new, and gets DefaultAccountID, unless it has tables or streams already,
// written before the account was stored, when it keeps LegacyAccountID,
// the account those were written with.
func (db *DB) resolveAccount() error {
	stored, found, err := db.store.Get(metaAccountKey(), nil)
	if err != nil {
		return err
	}
	switch acct := db.opts.AccountID; {
	case acct != DefaultAccountID:
		if found && string(stored) == acct {
			return nil
		}
	case found:
		db.opts.AccountID = string(stored)
		return nil
	default:
		old, err := db.hasDefinitions()
		if err != nil {
			return err
		}
		if old {
			db.opts.AccountID = LegacyAccountID
		}
	}
	b := db.store.NewBatch()
	if err := b.Set(metaAccountKey(), []byte(db.opts.AccountID)); err != nil {
		return err
	}
	return b.Commit()
}

// hasDefinitions reports whether the store holds a table's or a stream's
// definition.
func (db *DB) hasDefinitions() (bool, error) {
	for _, tag := range []byte{metaTagTable, metaTagStream} {
		lower := []byte{keys.NSMeta, tag}
		it, err := db.store.NewIter(lower, keys.PrefixEnd(lower))
		if err != nil {
			return false, err
		}
		found := it.First()
		err = it.Error()
		it.Close()
		if err != nil || found {
			return found, err
		}
	}
	return false, nil
}

// AccountID is the account in the database's ARNs (see
// Options.AccountID).
func (db *DB) AccountID() string { return db.opts.AccountID }
