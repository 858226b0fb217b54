package e2e

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// TestTransactConservation runs concurrent transfers between accounts,
// each a transaction that debits one account only if its balance covers
// the amount and credits another. Money is neither created nor destroyed:
// every transactional read of all the accounts, taken while transfers run,
// sums to the initial total with no balance negative, and at the end each
// balance is its initial one plus the transfers the clients saw succeed.
func TestTransactConservation(t *testing.T) {
	_, c := start(t)
	checkConservation(t, []local.API{c})
}

// checkConservation runs the transfers with worker i (and the auditor)
// talking to server cs[i mod len(cs)]: several servers on one shared
// store conserve money too.
func checkConservation(t *testing.T, cs []local.API) {
	c := cs[0]
	createHash(t, c, "bank", types.ScalarAttributeTypeS)
	const accounts, initial, workers, transfers = 10, 100, 8, 150
	acct := func(i int) item { return item{"pk": S("acct-" + strconv.Itoa(i))} }
	for i := range accounts {
		put(t, c, "bank", item{"pk": S("acct-" + strconv.Itoa(i)), "balance": N(strconv.Itoa(initial))})
	}

	var applied, refused atomic.Int64
	deltas := make([][accounts]int64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			c := cs[w%len(cs)]
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for range transfers {
				from := r.IntN(accounts)
				to := (from + 1 + r.IntN(accounts-1)) % accounts
				amt := int64(1 + r.IntN(60))
				a := num(amt)
				_, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
					{Update: &types.Update{TableName: aws.String("bank"), Key: acct(from),
						UpdateExpression: aws.String("SET balance = balance - :a"), ConditionExpression: aws.String("balance >= :a"),
						ExpressionAttributeValues: item{":a": a}}},
					{Update: &types.Update{TableName: aws.String("bank"), Key: acct(to),
						UpdateExpression: aws.String("SET balance = balance + :a"), ConditionExpression: aws.String("attribute_exists(balance)"),
						ExpressionAttributeValues: item{":a": a}}},
				}})
				var tce *types.TransactionCanceledException
				switch {
				case err == nil:
					applied.Add(1)
					deltas[w][from] -= amt
					deltas[w][to] += amt
				case errors.As(err, &tce):
					refused.Add(1)
				default:
					t.Errorf("transfer: %v", err)
					return
				}
			}
		})
	}

	// An auditor reads every account in one transaction while transfers run.
	done := make(chan struct{})
	var audits int
	var auditWG sync.WaitGroup
	auditWG.Go(func() {
		c := cs[len(cs)-1]
		gets := make([]types.TransactGetItem, accounts)
		for i := range gets {
			gets[i] = types.TransactGetItem{Get: &types.Get{TableName: aws.String("bank"), Key: acct(i)}}
		}
		for {
			select {
			case <-done:
				return
			default:
			}
			out, err := c.TransactGetItems(bg(), &dynamodb.TransactGetItemsInput{TransactItems: gets})
			if err != nil {
				t.Errorf("audit: %v", err)
				return
			}
			if err := checkBooks(out.Responses, accounts*initial); err != nil {
				t.Errorf("audit %d: %v", audits, err)
				return
			}
			audits++
		}
	})
	wg.Wait()
	close(done)
	auditWG.Wait()
	if t.Failed() {
		return
	}

	var want [accounts]int64
	for i := range want {
		want[i] = initial
		for w := range workers {
			want[i] += deltas[w][i]
		}
	}
	total := int64(0)
	for i := range accounts {
		got := linBalance(get(t, c, "bank", acct(i)))
		if got != want[i] {
			t.Errorf("account %d: balance %d, want %d", i, got, want[i])
		}
		if got < 0 {
			t.Errorf("account %d: negative balance %d", i, got)
		}
		total += got
	}
	if total != accounts*initial {
		t.Errorf("total %d, want %d", total, accounts*initial)
	}
	if applied.Load() == 0 || refused.Load() == 0 {
		t.Errorf("%d transfers applied, %d refused: the workload should see both", applied.Load(), refused.Load())
	}
	t.Logf("%d transfers applied, %d refused, %d audits", applied.Load(), refused.Load(), audits)
}

func linBalance(it item) int64 {
	n, ok := it["balance"].(*types.AttributeValueMemberN)
	if !ok {
		return -1 << 62
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		return -1 << 62
	}
	return v
}

// checkBooks checks one consistent read of all the accounts.
func checkBooks(rs []types.ItemResponse, total int64) error {
	sum := int64(0)
	for i, r := range rs {
		b := linBalance(r.Item)
		if b < 0 {
			return fmt.Errorf("account %d: balance %d", i, b)
		}
		sum += b
	}
	if sum != total {
		return fmt.Errorf("balances sum to %d, want %d", sum, total)
	}
	return nil
}
