package inventory_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/dynago/dynago/dynagotest"
	"github.com/dynago/dynago/examples/inventory"
)

// newStore gives a test a store on a database of its own, with the table
// of testdata/stock.json, gone when the test ends.
func newStore(t *testing.T) *inventory.Store {
	client := dynagotest.New(t)
	dynagotest.CreateTables(t, client, "testdata/stock.json")
	return &inventory.Store{DB: client, Table: "Stock"}
}

func TestAddTwice(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	st := inventory.Stock{Warehouse: "north", SKU: "bolt-m6", Name: "M6 bolt", Qty: 100}
	if err := s.Add(ctx, st); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(ctx, st); !errors.Is(err, inventory.ErrExists) {
		t.Fatalf("second Add: %v, want ErrExists", err)
	}
}

func TestTake(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	if err := s.Add(ctx, inventory.Stock{Warehouse: "north", SKU: "nut-m6", Qty: 10}); err != nil {
		t.Fatal(err)
	}
	left, err := s.Take(ctx, "north", "nut-m6", 4)
	if err != nil || left != 6 {
		t.Fatalf("Take 4 of 10: %d left, %v", left, err)
	}
	left, err = s.Take(ctx, "north", "nut-m6", 7)
	if !errors.Is(err, inventory.ErrShort) || left != 6 {
		t.Fatalf("Take 7 of 6: %d left, %v; want ErrShort with 6 left", left, err)
	}
	if _, err := s.Take(ctx, "south", "nut-m6", 1); !errors.Is(err, inventory.ErrShort) {
		t.Fatalf("Take from a warehouse without it: %v", err)
	}
}

// TestTakeConcurrently: 50 buyers race for 20 units; exactly 20 get one.
func TestTakeConcurrently(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	if err := s.Add(ctx, inventory.Stock{Warehouse: "north", SKU: "gear", Qty: 20}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	got, short := 0, 0
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			_, err := s.Take(ctx, "north", "gear", 1)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				got++
			case errors.Is(err, inventory.ErrShort):
				short++
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got != 20 || short != 30 {
		t.Fatalf("%d buyers got a unit and %d were told it was short; want 20 and 30", got, short)
	}
}

func TestWarehouse(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	for i := range 25 {
		if err := s.Add(ctx, inventory.Stock{Warehouse: "east", SKU: fmt.Sprintf("part-%02d", i), Qty: i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Add(ctx, inventory.Stock{Warehouse: "west", SKU: "part-99", Qty: 1}); err != nil {
		t.Fatal(err)
	}
	stock, err := s.Warehouse(ctx, "east", 10) // three pages
	if err != nil {
		t.Fatal(err)
	}
	if len(stock) != 25 {
		t.Fatalf("%d products in east, want 25", len(stock))
	}
	for i, st := range stock {
		if st.SKU != fmt.Sprintf("part-%02d", i) || st.Qty != i {
			t.Fatalf("product %d is %+v", i, st)
		}
	}
}
