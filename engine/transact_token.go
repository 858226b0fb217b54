package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"sort"
	"sync"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// tokenLifetime is how long a TransactWriteItems ClientRequestToken is
// remembered after its request completed.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html#DDB-TransactWriteItems-request-ClientRequestToken
const tokenLifetime = 10 * time.Minute

// msgIdempotentMismatch is the message of IdempotentParameterMismatchException.
// Not verified against DynamoDB, whose message the public record does not
// show; clients match on the code.
const msgIdempotentMismatch = "The request uses the same client token as a previous, but non-identical request."

// Committed tokens live in the store, written in the batch of their
// transaction, so they cost no memory, survive a restart with the writes
// they vouch for, and cannot be remembered without them:
//
//	NSMeta 'k' token                 -> fingerprint(32) expiry(8 BE, unix ns)
//	NSMeta 'e' expiry(8 BE) token    -> nothing: the tokens in expiry order
//
// The tags are in engine/keytags.go.

func metaTokenKey(token string) []byte {
	return append([]byte{keys.NSMeta, metaTagToken}, token...)
}

func metaTokenExpiryKey(expires int64, token string) []byte {
	k := binary.BigEndian.AppendUint64([]byte{keys.NSMeta, metaTagTokenExpiry}, uint64(expires))
	return append(k, token...)
}

// tokensTrimmedPerCommit is how many expired tokens each commit of a new
// token deletes: more than one, so the expired never outnumber the live
// for long, and few, so no commit pays for many.
const tokensTrimmedPerCommit = 4

// tokenCache serialises requests that share a ClientRequestToken. A
// request whose token is in flight waits for it; a token that committed
// (found in the store) makes an identical request a no-op success for
// tokenLifetime and a different one an IdempotentParameterMismatchException.
// A transaction that did not commit leaves no token, so a retry runs
// again. Memory holds only the tokens of requests in flight.
type tokenCache struct {
	mu sync.Mutex
	m  map[string]*tokenEntry
}

type tokenEntry struct {
	fp [sha256.Size]byte
	// trim marks a claim by another request's commit, which deletes the
	// token as expired: a request with the token waits for that commit,
	// whatever its fingerprint, so the deletion cannot remove a token
	// committed after it was read.
	trim bool
	done chan struct{} // closed when the request (or the trim) completes
}

// begin claims token for a request with fingerprint fp. It returns the
// entry to finish, or repeat=true when an identical request committed
// within tokenLifetime.
func (db *DB) beginToken(token string, fp [sha256.Size]byte) (e *tokenEntry, repeat bool, err error) {
	c := &db.txTokens
	for {
		c.mu.Lock()
		if c.m == nil {
			c.m = map[string]*tokenEntry{}
		}
		e = c.m[token]
		if e != nil {
			if !e.trim && e.fp != fp {
				c.mu.Unlock()
				return nil, false, dynamo.IdempotentParameterMismatch(msgIdempotentMismatch)
			}
			done := e.done
			c.mu.Unlock()
			<-done // the same request is running: its outcome decides
			continue
		}
		// No request with the token is running, and none can commit one
		// while the lock is held: what the store says is settled.
		stored, found, err := db.store.Get(metaTokenKey(token), nil)
		if err != nil {
			c.mu.Unlock()
			return nil, false, err
		}
		if found && len(stored) == sha256.Size+8 && db.now().UnixNano() < int64(binary.BigEndian.Uint64(stored[sha256.Size:])) {
			c.mu.Unlock()
			if [sha256.Size]byte(stored[:sha256.Size]) != fp {
				return nil, false, dynamo.IdempotentParameterMismatch(msgIdempotentMismatch)
			}
			return nil, true, nil
		}
		e = &tokenEntry{fp: fp, done: make(chan struct{})}
		c.m[token] = e
		c.mu.Unlock()
		return e, false, nil
	}
}

// stageToken adds a committing request's token to its batch, replacing an
// expired one of the same name, and trims a few expired tokens. Each
// trimmed token is claimed until the batch is done: the caller must pass
// what it returns to releaseTrimmed once the batch has committed or
// failed.
func (db *DB) stageToken(b *writeBatch, token string, fp [sha256.Size]byte) (claimed []string, err error) {
	now := db.now().UnixNano()
	if old, found, err := db.store.Get(metaTokenKey(token), nil); err != nil {
		return nil, err
	} else if found && len(old) == sha256.Size+8 && now < int64(binary.BigEndian.Uint64(old[sha256.Size:])) {
		// Another node committed a request with this token since
		// beginToken looked: run again, and answer as its repeat (or
		// its mismatch). On one process beginToken's claim rules this
		// out.
		return nil, storage.ErrConflict
	} else if b.Expect(metaTokenKey(token), old, found); found && len(old) == sha256.Size+8 {
		if err := b.Delete(metaTokenExpiryKey(int64(binary.BigEndian.Uint64(old[sha256.Size:])), token)); err != nil {
			return nil, err
		}
	}
	expires := now + int64(tokenLifetime)
	v := binary.BigEndian.AppendUint64(append(make([]byte, 0, sha256.Size+8), fp[:]...), uint64(expires))
	if err := b.Set(metaTokenKey(token), v); err != nil {
		return nil, err
	}
	if err := b.Set(metaTokenExpiryKey(expires, token), nil); err != nil {
		return nil, err
	}
	it, err := db.store.NewIter([]byte{keys.NSMeta, metaTagTokenExpiry}, metaTokenExpiryKey(now, ""))
	if err != nil {
		return nil, err
	}
	defer it.Close()
	c := &db.txTokens
	for ok := it.First(); ok && len(claimed) < tokensTrimmedPerCommit; ok = it.Next() {
		k := it.Key()
		expired := string(k[10:])
		if expired == token {
			continue // replaced above
		}
		// Claim the token, unless a request with it is running: that
		// one replaces it. Under the claim nobody commits the token, so
		// what the store holds for it now stays until this batch is done.
		c.mu.Lock()
		if c.m[expired] != nil {
			c.mu.Unlock()
			continue
		}
		c.m[expired] = &tokenEntry{trim: true, done: make(chan struct{})}
		c.mu.Unlock()
		claimed = append(claimed, expired)
		if err := b.Delete(bytes.Clone(k)); err != nil {
			return claimed, err
		}
		// The iterator may predate a commit that renewed the token:
		// delete it only if it is still the expired one.
		stored, found, err := db.store.Get(metaTokenKey(expired), nil)
		if err != nil {
			return claimed, err
		}
		b.Expect(metaTokenKey(expired), stored, found)
		if found && len(stored) == sha256.Size+8 && bytes.Equal(stored[sha256.Size:], k[2:10]) {
			if err := b.Delete(metaTokenKey(expired)); err != nil {
				return claimed, err
			}
		}
	}
	return claimed, it.Error()
}

// releaseTrimmed ends the claims stageToken took.
func (db *DB) releaseTrimmed(claimed []string) {
	c := &db.txTokens
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, token := range claimed {
		if e := c.m[token]; e != nil && e.trim {
			delete(c.m, token)
			close(e.done)
		}
	}
}

// finishToken releases the requests waiting on e. By then a committed
// request's token is in the store.
func (db *DB) finishToken(token string, e *tokenEntry) {
	c := &db.txTokens
	c.mu.Lock()
	if c.m[token] == e {
		delete(c.m, token)
	}
	c.mu.Unlock()
	close(e.done)
}

// transactFingerprint hashes everything in a request that decides what
// it does, after its values were canonicalised: its actions in order and
// ReturnItemCollectionMetrics. ReturnConsumedCapacity is left out, as
// DynamoDB answers a repeat with a different bill anyway.
func transactFingerprint(in *dynamo.TransactWriteItemsInput) [sha256.Size]byte {
	var b []byte
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	item := func(it attr.Item) {
		if it == nil {
			b = append(b, 0)
			return
		}
		b = append(b, 1)
		enc := attr.AppendItem(nil, it) // canonical: names in order
		b = binary.AppendUvarint(b, uint64(len(enc)))
		b = append(b, enc...)
	}
	names := func(m map[string]string) {
		if m == nil {
			b = append(b, 0)
			return
		}
		b = append(b, 1)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = binary.AppendUvarint(b, uint64(len(keys)))
		for _, k := range keys {
			str(k)
			str(m[k])
		}
	}
	common := func(table, cond string, n map[string]string, v attr.Item, onFail string, empty dynamo.Exprs) {
		str(table)
		str(cond)
		names(n)
		item(v)
		str(onFail)
		b = append(b, byte(empty))
	}
	str(in.ReturnItemCollectionMetrics)
	for _, ti := range in.TransactItems {
		switch {
		case ti.ConditionCheck != nil:
			x := ti.ConditionCheck
			b = append(b, 'C')
			common(x.TableName, x.ConditionExpression, x.ExpressionAttributeNames, x.ExpressionAttributeValues, x.ReturnValuesOnConditionCheckFailure, x.EmptyExpressions)
			item(x.Key)
		case ti.Put != nil:
			x := ti.Put
			b = append(b, 'P')
			common(x.TableName, x.ConditionExpression, x.ExpressionAttributeNames, x.ExpressionAttributeValues, x.ReturnValuesOnConditionCheckFailure, x.EmptyExpressions)
			item(x.Item)
		case ti.Update != nil:
			x := ti.Update
			b = append(b, 'U')
			common(x.TableName, x.ConditionExpression, x.ExpressionAttributeNames, x.ExpressionAttributeValues, x.ReturnValuesOnConditionCheckFailure, x.EmptyExpressions)
			item(x.Key)
			str(x.UpdateExpression)
		case ti.Delete != nil:
			x := ti.Delete
			b = append(b, 'D')
			common(x.TableName, x.ConditionExpression, x.ExpressionAttributeNames, x.ExpressionAttributeValues, x.ReturnValuesOnConditionCheckFailure, x.EmptyExpressions)
			item(x.Key)
		}
	}
	return sha256.Sum256(b)
}
