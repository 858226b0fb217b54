package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"sort"
	"sync"
	"time"

	"github.com/dynago/dynago/attr"
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

// tokenCache remembers ClientRequestTokens: a request whose token is
// in flight waits for it; a token that committed makes an identical
// request a no-op success for tokenLifetime and a different one an
// IdempotentParameterMismatchException. A transaction that did not commit
// forgets its token, so a retry runs again. Memory is bounded by the
// requests of the last ten minutes: expired tokens are dropped, oldest
// first, whenever a token completes.
type tokenCache struct {
	mu    sync.Mutex
	m     map[string]*tokenEntry
	queue []tokenExpiry // committed tokens in completion order
}

type tokenEntry struct {
	fp        [sha256.Size]byte
	done      chan struct{} // closed when the first request completes
	completed bool
	expires   time.Time
}

type tokenExpiry struct {
	token string
	e     *tokenEntry
}

// begin claims token for a request with fingerprint fp. It returns the
// entry to finish, or repeat=true when an identical request committed
// within tokenLifetime.
func (c *tokenCache) begin(token string, fp [sha256.Size]byte, now func() time.Time) (e *tokenEntry, repeat bool, err error) {
	for {
		c.mu.Lock()
		if c.m == nil {
			c.m = map[string]*tokenEntry{}
		}
		e = c.m[token]
		if e != nil && e.completed && !now().Before(e.expires) {
			delete(c.m, token)
			e = nil
		}
		if e == nil {
			e = &tokenEntry{fp: fp, done: make(chan struct{})}
			c.m[token] = e
			c.mu.Unlock()
			return e, false, nil
		}
		if e.fp != fp {
			c.mu.Unlock()
			return nil, false, &Error{Code: CodeIdempotentParameter, Message: msgIdempotentMismatch}
		}
		if e.completed {
			c.mu.Unlock()
			return nil, true, nil
		}
		done := e.done
		c.mu.Unlock()
		<-done // the same request is running: its outcome decides
	}
}

// finish records the outcome of the request that claimed e.
func (c *tokenCache) finish(token string, e *tokenEntry, committed bool, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if committed {
		e.completed = true
		e.expires = now.Add(tokenLifetime)
		c.queue = append(c.queue, tokenExpiry{token, e})
	} else if c.m[token] == e {
		delete(c.m, token)
	}
	close(e.done)
	n := 0
	for n < len(c.queue) && !now.Before(c.queue[n].e.expires) {
		if q := c.queue[n]; c.m[q.token] == q.e {
			delete(c.m, q.token)
		}
		n++
	}
	if n > 0 {
		c.queue = append(c.queue[:0], c.queue[n:]...)
	}
}

// transactFingerprint hashes everything in a request that decides what
// it does, after its values were canonicalised: its actions in order and
// ReturnItemCollectionMetrics. ReturnConsumedCapacity is left out, as
// DynamoDB answers a repeat with a different bill anyway.
func transactFingerprint(in *TransactWriteItemsInput) [sha256.Size]byte {
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
	common := func(table, cond string, n map[string]string, v attr.Item, onFail string, empty Exprs) {
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
